import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** The terminal's size, updated on resize; `fixed` overrides it (tests, snapshots). */
export function useTerminalSize(fixed?: { columns: number; rows: number }): {
  columns: number;
  rows: number;
} {
  const { stdout } = useStdout();
  const read = () => fixed ?? { columns: stdout.columns ?? 80, rows: stdout.rows ?? 24 };
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed !== undefined) return;
    const onResize = () => setSize({ columns: stdout.columns ?? 80, rows: stdout.rows ?? 24 });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixed]);
  return size;
}
