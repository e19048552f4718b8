import { useEffect, useRef, useState } from 'preact/hooks';
import { ticks } from '../live.js';

/**
 * A number that changes when traffic came, at most once every `everyMs`: a page that reads the
 * dev API reads again when it changes, so a flood of events is not a flood of reads.
 */
export function useRefresh(everyMs: number): number {
  const [count, setCount] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const tick = ticks.value;
  useEffect(() => {
    if (tick === 0 || timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setCount((value) => value + 1);
    }, everyMs);
  }, [tick]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return count;
}
