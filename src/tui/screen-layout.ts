/** Lines that are not rows of a list: header 2, blank, table title, blank, recent title, footer. */
const FIXED_LINES = 7;

/** The header's 2 lines, the table's title and the footer: what a terminal too short for blank lines keeps. */
const COMPACT_LINES = 4;

/** How many rows of the screen each list gets. */
export interface ScreenLayout {
  /** Bucket rows fetched: as many as the table may take. */
  pollRows: number;
  /** Rows of the bucket table (or the help screen's room). */
  bucketRows: number;
  /** Rows of recent requests: with none, their title is left out too. */
  recentRows: number;
  /** Whether a blank line goes before the table and before the recent requests. */
  gaps: boolean;
}

/**
 * Shares the rows the fixed lines (and `extraLines`, such as the latest code's) leave, keeping one
 * line free: the bucket table may take two
 * thirds of them, and takes only as many as it has buckets to show (one for its message when
 * none); the recent requests get all the rest, so a tall terminal, or one with few buckets,
 * shows more of them. A terminal too short for two rows of each list (under 12 rows) drops the
 * blank lines, then rows of the recent requests, down to none (and their title) at 7 rows, the
 * latest code's line included: the header, which says whether the emulator is reached, stays on
 * the screen rather than scrolling off it.
 */
export function screenLayout(
  rows: number,
  bucketsShown: number,
  help: boolean,
  extraLines = 0,
): ScreenLayout {
  const free = rows - FIXED_LINES - extraLines;
  if (free < 5) {
    const room = Math.max(0, rows - COMPACT_LINES - extraLines - 1);
    if (help) return { pollRows: Math.max(1, room), bucketRows: room, recentRows: 0, gaps: false };
    // The table keeps one row, where none would read as "no buckets yet"; the recent requests
    // take what it leaves past their title's line, and without a row of theirs it goes too.
    const most = Math.ceil((room - 1) / 2);
    const bucketRows = Math.max(1, Math.min(bucketsShown, most));
    const recentRows = Math.max(0, room - 1 - bucketRows);
    return {
      pollRows: Math.max(1, room <= 2 ? room : most),
      bucketRows: recentRows > 0 ? bucketRows : Math.max(1, Math.min(bucketsShown, room)),
      recentRows,
      gaps: false,
    };
  }
  const spare = free - 1;
  const pollRows = Math.max(2, spare - Math.max(2, Math.floor(free / 3)));
  const bucketRows = help ? pollRows : Math.max(1, Math.min(bucketsShown, pollRows));
  return { pollRows, bucketRows, recentRows: Math.max(2, spare - bucketRows), gaps: true };
}
