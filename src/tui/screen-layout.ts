/** Lines that are not rows of a list: header 2, blank, table title, blank, recent title, footer. */
const FIXED_LINES = 7;

/** How many rows of the screen each list gets. */
export interface ScreenLayout {
  /** Bucket rows fetched: as many as the table may take. */
  pollRows: number;
  /** Rows of the bucket table (or the help screen's room). */
  bucketRows: number;
  /** Rows of recent requests. */
  recentRows: number;
}

/**
 * Shares the rows the fixed lines (and `extraLines`, such as the latest code's) leave, keeping one
 * line free: the bucket table may take two
 * thirds of them, and takes only as many as it has buckets to show (one for its message when
 * none); the recent requests get all the rest, so a tall terminal, or one with few buckets,
 * shows more of them.
 */
export function screenLayout(
  rows: number,
  bucketsShown: number,
  help: boolean,
  extraLines = 0,
): ScreenLayout {
  const free = Math.max(4, rows - FIXED_LINES - extraLines);
  const spare = free - 1;
  const pollRows = Math.max(2, spare - Math.max(2, Math.floor(free / 3)));
  const bucketRows = help ? pollRows : Math.max(1, Math.min(bucketsShown, pollRows));
  return { pollRows, bucketRows, recentRows: Math.max(2, spare - bucketRows) };
}
