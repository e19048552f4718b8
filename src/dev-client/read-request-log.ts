import type { RequestRecord } from '../core/records/records.js';
import { checkRequestQuery, type RequestFilter } from '../core/admin/request-filter.js';
import { DevApiError } from './dev-api-error.js';
import { routeTarget } from './route-target.js';

/** Requests asked for per page of `GET /__uas/requests` (a few MB each). */
const REQUEST_PAGE = 10_000;

/** One page of `GET /__uas/requests`, as read (the server is checked, not trusted). */
interface RequestPage {
  requests: RequestRecord[];
  dropped: number;
  /** The `after_id` of the next page; null (or absent, from an older server) at the newest. */
  next_after_id?: number | null;
}

/** Reads the JSON answer of a call. */
type ReadJson = <T>(target: { method: string; path: string }) => Promise<T>;

/**
 * Every recorded request that matches `filter`, oldest first, a page of 10,000 at a time (each
 * after the last id of the one before, until the newest), and how many the journal let go.
 */
export async function readRequestLog(
  read: ReadJson,
  filter: RequestFilter,
): Promise<{ requests: RequestRecord[]; dropped: number }> {
  // A misspelt field would be left out of the query, and match every request.
  checkRequestQuery(filter, Infinity);
  const requests: RequestRecord[] = [];
  let afterId = filter.afterId;
  for (;;) {
    const target = routeTarget('listRequests', {
      query: {
        operation: filter.operation,
        email: filter.email,
        caller_id: filter.callerId === null ? '' : filter.callerId,
        status: filter.status,
        outcome: filter.outcome,
        client_id: filter.clientId,
        merchant_id: filter.merchantId,
        limit: REQUEST_PAGE,
        after_id: afterId,
      },
    });
    const where = `${target.method} /__uas${target.path}`;
    const page = await read<RequestPage>(target);
    if (!Array.isArray(page.requests))
      throw DevApiError.badAnswer(where, 'the answer holds no list of requests');
    for (const record of page.requests) requests.push(record);
    const next = page.next_after_id;
    if (typeof next !== 'number') return { requests, dropped: page.dropped };
    // The id of its last record, past the page before: anything else would page forever.
    const last = page.requests.at(-1)?.id;
    if (next !== last || (afterId !== undefined && next <= afterId))
      throw DevApiError.badAnswer(
        where,
        `next_after_id ${next} is not the id of the last request of the page, past ${afterId ?? 'none'}`,
      );
    afterId = next;
  }
}
