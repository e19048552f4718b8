import type { RequestRecord } from '../core/records/records.js';

/**
 * The caller_id a request sent where the service reads it; undefined when there was none (an
 * empty value selects no bucket of its own either).
 */
export function callerIdOf(record: RequestRecord): string | undefined {
  return record.caller_id === undefined || record.caller_id === '' ? undefined : record.caller_id;
}

/** The key of a caller_id's bucket: caller_ids are scoped to the client, like the service's. */
export function callerKeyOf(record: RequestRecord): string | undefined {
  const callerId = callerIdOf(record);
  return callerId === undefined ? undefined : `${record.client_id ?? ''}\n${callerId}`;
}
