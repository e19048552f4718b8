import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Clears the screen and puts the cursor at its top left. */
export const CLEAR_SCREEN = '\u001b[2J\u001b[H';

/**
 * The terminal's size, updated on resize; `fixed` overrides it (tests, snapshots). A resize clears
 * the screen first: a terminal that shrinks rewraps or scrolls the old frame, and what ink then
 * erases of it by counting lines would leave stale lines above the new one.
 */
export function useTerminalSize(fixed?: { columns: number; rows: number }): {
  columns: number;
  rows: number;
} {
  const { stdout, write } = useStdout();
  const read = () => fixed ?? { columns: stdout.columns ?? 80, rows: stdout.rows ?? 24 };
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed !== undefined) return;
    const onResize = () => {
      write(CLEAR_SCREEN);
      setSize({ columns: stdout.columns ?? 80, rows: stdout.rows ?? 24 });
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, write, fixed]);
  return size;
}
