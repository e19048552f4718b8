import { useEffect, type Dispatch } from 'react';
import type { BucketSort } from '../core/limits/bucket-view.js';
import type { TuiAction } from './tui-state.js';
import type { TuiSource } from './tui-source.js';

/** How often the bucket list is fetched. */
export const BUCKET_POLL_MS = 500;

/** Polls the rows of the bucket list that fit, in the current sort and filter, and the uptime. */
export function useBucketPoll(
  source: TuiSource,
  dispatch: Dispatch<TuiAction>,
  query: { sort: BucketSort; filter: string; rows: number },
): void {
  const { sort, filter, rows } = query;
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
      } catch (error) {
        // The feed reports the connection; this says the list is not known (not that it is empty).
        if (alive)
          dispatch({
            type: 'buckets-failed',
            problem: error instanceof Error ? error.message : String(error),
          });
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
