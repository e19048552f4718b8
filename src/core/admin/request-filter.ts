import * as z from 'zod/mini';
import type { Operation } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import { describeIssues } from '../config/config-schema.js';
import { got, whole } from '../config/schema-kit.js';
import { OUTCOMES, type Outcome, type RequestRecord } from '../records/records.js';
import { COUNT_MAX } from './dev-api-bounds.js';

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

/** A filter as `requests()` takes it: the fields it documents, of their types. */
const requestFilterSchema = z.optional(
  z.strictObject({
    operation: z.optional(z.enum(['exists', 'start', 'verify'])),
    email: z.optional(z.string()),
    callerId: z.optional(z.nullable(z.string())),
    status: z.optional(whole(100, 599)),
    outcome: z.optional(z.enum(OUTCOMES)),
    clientId: z.optional(z.string()),
    merchantId: z.optional(z.string()),
    afterId: z.optional(whole(0, COUNT_MAX)),
  }),
);

/** The most requests `requests()` returns: a whole number, or Infinity (all of them). */
const requestLimitSchema = z.strictObject({
  limit: z.union([z.literal(Infinity), whole(0, COUNT_MAX)], {
    error: (issue) =>
      `expected a whole number from 0 to ${COUNT_MAX}, or Infinity; ${got(issue.input)}`,
  }),
});

/**
 * Throws a ConfigError naming each field of a filter (or the limit) that `requests()` does not
 * take: a misspelt field would match every request, and a value of another type none (or throw
 * from inside), so that an assertion on them would test something else than it says.
 */
export function checkRequestQuery(filter: unknown, limit: number): void {
  const parsed = requestFilterSchema.safeParse(filter, { reportInput: true });
  if (!parsed.success)
    throw new ConfigError(
      describeIssues(parsed.error, requestFilterSchema),
      'invalid filter of requests',
    );
  const bounded = requestLimitSchema.safeParse({ limit }, { reportInput: true });
  if (!bounded.success)
    throw new ConfigError(describeIssues(bounded.error), 'invalid filter of requests');
}
