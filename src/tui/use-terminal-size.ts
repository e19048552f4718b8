import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Clears the screen and puts the cursor at its top left. */
export const CLEAR_SCREEN = '\u001b[2J\u001b[H';

export interface TerminalSize {
  columns: number;
  rows: number;
  /** The terminal reports no width (ink would lay the screen out at none): `columns` is 80. */
  unsized?: boolean;
}

/**
 * The terminal's size, updated on resize; `fixed` overrides it (tests, snapshots). A resize clears
 * the screen first: a terminal that shrinks rewraps or scrolls the old frame, and what ink then
 * erases of it by counting lines would leave stale lines above the new one.
 */
export function useTerminalSize(fixed?: { columns: number; rows: number }): TerminalSize {
  const { stdout, write } = useStdout();
  const read = () => fixed ?? measure(stdout);
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed !== undefined) return;
    const onResize = () => {
      write(CLEAR_SCREEN);
      setSize(measure(stdout));
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, write, fixed]);
  return size;
}

/**
 * The size `stdout` reports, or 80x24 for what it does not: a pseudo-terminal nobody sized
 * (script(1) run without a terminal, some CI runners and containers) reports 0 columns and 0 rows,
 * at which the screen would be drawn blank, or one character a line.
 */
function measure(stdout: NodeJS.WriteStream): TerminalSize {
  return {
    columns: stdout.columns || 80,
    rows: stdout.rows || 24,
    unsized: !stdout.columns,
  };
}
