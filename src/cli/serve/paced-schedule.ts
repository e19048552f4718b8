/**
 * Runs each function it is given soon, but never sooner than `everyMs` after the one before
 * started: at the next turn of the event loop after a quiet moment, else once that time is up.
 */
export function pacedSchedule(everyMs: number): (run: () => void) => void {
  let last = -Infinity;
  return (run) => {
    const go = () => {
      last = performance.now();
      run();
    };
    const wait = last + everyMs - performance.now();
    if (wait > 0) setTimeout(go, wait);
    else setImmediate(go);
  };
}
