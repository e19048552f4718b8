import type { Operation } from '../config/config.js';
import type { Outcome, RequestRecord } from '../records/records.js';

/** Which recorded requests to return (every field optional; all given must match). */
export interface RequestFilter {
  operation?: Operation | undefined;
  /** Compared case-insensitively. */
  email?: string | undefined;
  /** A caller_id, or `null` for requests sent without one. */
  callerId?: string | null | undefined;
  status?: number | undefined;
  outcome?: Outcome | undefined;
  clientId?: string | undefined;
  merchantId?: string | undefined;
  /** Only requests after this id (to read only what came since a point). */
  afterId?: number | undefined;
}

/** Whether a record matches a filter. */
export function matchesFilter(record: RequestRecord, filter: RequestFilter): boolean {
  return (
    (filter.operation === undefined || record.operation === filter.operation) &&
    (filter.email === undefined || record.email?.toLowerCase() === filter.email.toLowerCase()) &&
    (filter.callerId === undefined ||
      (filter.callerId === null
        ? record.caller_id === undefined
        : record.caller_id === filter.callerId)) &&
    (filter.status === undefined || record.status === filter.status) &&
    (filter.outcome === undefined || record.outcome === filter.outcome) &&
    (filter.clientId === undefined || record.client_id === filter.clientId) &&
    (filter.merchantId === undefined ||
      record.merchant_id?.toLowerCase() === filter.merchantId.toLowerCase()) &&
    (filter.afterId === undefined || record.id > filter.afterId)
  );
}

/**
 * The records of `journal` (newest first) that match `filter`, oldest first, at most `limit` (the
 * oldest that match), each completed by `release` as it leaves.
 */
export function matchingRequests(
  journal: readonly RequestRecord[],
  filter: RequestFilter,
  limit: number,
  release: (record: RequestRecord) => RequestRecord,
): RequestRecord[] {
  const matching: RequestRecord[] = [];
  for (let index = journal.length - 1; index >= 0 && matching.length < limit; index--) {
    const record = journal[index] as RequestRecord;
    if (matchesFilter(record, filter)) matching.push(release(record));
  }
  return matching;
}
