import { useEffect, type Dispatch } from 'react';
import type { RequestRecord } from '../core/records/records.js';
import type { TuiAction } from './tui-state.js';
import type { TuiSource } from './tui-source.js';

/** How often buffered requests reach the screen: at most ten frames a second however busy. */
export const FRAME_MS = 100;

/**
 * Follows the source's feed. Requests are buffered and handed over once a frame, each batch
 * stamped with the time (on the source's clock) it arrived in, and never spanning two seconds of
 * it; everything else is passed on at once, after the requests before it.
 */
export function useFeed(source: TuiSource, dispatch: Dispatch<TuiAction>): void {
  useEffect(() => {
    let pending: RequestRecord[] = [];
    let pendingAt = 0;
    const flush = () => {
      if (pending.length === 0) return;
      const records = pending;
      pending = [];
      dispatch({ type: 'requests', records, now: pendingAt });
    };
    const stop = source.follow((event) => {
      if (event.type !== 'requests') {
        flush();
        dispatch(event);
        return;
      }
      const now = source.clock.now();
      if (pending.length > 0 && Math.floor(now / 1000) !== Math.floor(pendingAt / 1000)) flush();
      if (pending.length === 0) pendingAt = now;
      for (const record of event.records) pending.push(record);
    });
    const frame = setInterval(flush, FRAME_MS);
    return () => {
      stop();
      clearInterval(frame);
    };
  }, [source, dispatch]);
}
