import { useEffect, useRef, type Dispatch } from 'react';
import type { RequestRecord } from '../core/admin/records.js';
import type { TuiAction, TuiState } from './tui-state.js';
import type { TuiSource } from './tui-source.js';

/** How often buffered events reach the screen: at most ten frames a second however busy. */
export const FRAME_MS = 100;
/** How often the bucket list is fetched. */
export const BUCKET_POLL_MS = 500;

/**
 * Connects the screen to its source: buffers request events and hands them over once a frame,
 * and polls the bucket list with the current sort, filter and size.
 */
export function useSource(
  source: TuiSource,
  state: TuiState,
  dispatch: Dispatch<TuiAction>,
  rows: number,
): void {
  const pending = useRef<RequestRecord[]>([]);
  useEffect(() => {
    const stop = source.subscribe(
      (event) => {
        if (event.type === 'request') pending.current.push(event.request);
      },
      (change) =>
        dispatch(
          change.connected
            ? { type: 'connected' }
            : { type: 'lost', problem: change.problem ?? 'disconnected' },
        ),
    );
    const frame = setInterval(() => {
      if (pending.current.length === 0) return;
      const records = pending.current;
      pending.current = [];
      dispatch({ type: 'requests', records });
    }, FRAME_MS);
    return () => {
      stop();
      clearInterval(frame);
    };
  }, [source, dispatch]);

  const { sort, filter } = state;
  useEffect(() => {
    let alive = true;
    const poll = async () => {
      try {
        const [list, uptimeMs] = await Promise.all([
          source.listBuckets({
            sort,
            search: filter === '' ? undefined : filter,
            limit: Math.max(rows, 1),
          }),
          source.uptime(),
        ]);
        if (alive)
          dispatch({ type: 'buckets', total: list.total, buckets: list.buckets, uptimeMs });
      } catch {
        // the event stream reports the connection state
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), BUCKET_POLL_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [source, dispatch, sort, filter, rows]);
}
