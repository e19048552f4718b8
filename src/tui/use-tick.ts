import { useEffect, type Dispatch } from 'react';
import type { TuiAction } from './tui-state.js';
import type { Clock } from '../core/time/clock.js';

/** How often the screen reads its clock: the rates move on each second, with or without traffic. */
export const TICK_MS = 200;

/** Tells the screen the time every {@link TICK_MS}, read from `clock`. */
export function useTick(clock: Clock, dispatch: Dispatch<TuiAction>): void {
  useEffect(() => {
    dispatch({ type: 'tick', now: clock.now() });
    const timer = setInterval(() => dispatch({ type: 'tick', now: clock.now() }), TICK_MS);
    return () => clearInterval(timer);
  }, [clock, dispatch]);
}
