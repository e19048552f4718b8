import type { RequestRecord } from '../core/records/records.js';
import { callerKeyOf } from './caller-id-of.js';
import { endUserOf } from './end-user.js';
import { eachPaced, type Steps } from './paced.js';

/** What several rules derive from one record, worked out once per record. */
export interface RecordKeys {
  /** {@link endUserOf}: the end-user behind the request, scoped to its client. */
  readonly endUser: string | undefined;
  /** {@link callerKeyOf}: the caller_id's bucket, scoped to the client. */
  readonly callerKey: string | undefined;
  /** The client and the fingerprint: the same key for an identical request of one client. */
  readonly sameRequest: string;
}

/** Records a check has already worked out keys for; a record the journal let go is let go here. */
const KNOWN = new WeakMap<RequestRecord, RecordKeys>();

/** The {@link RecordKeys} of a record, worked out on first use and kept while the record lives. */
export function keysOf(record: RequestRecord): RecordKeys {
  const known = KNOWN.get(record);
  if (known !== undefined) return known;
  const keys: RecordKeys = {
    endUser: endUserOf(record),
    callerKey: callerKeyOf(record),
    sameRequest: `${record.client_id ?? ''}\n${record.fingerprint}`,
  };
  KNOWN.set(record, keys);
  return keys;
}

/**
 * Works out the keys of `records` ahead of the rules, `ITEMS_PER_PAUSE` at a time with a
 * yield in between, so that a paced check never holds the event loop long for them.
 */
export function primeRecordKeys(records: readonly RequestRecord[]): Steps<void> {
  return eachPaced(records, keysOf);
}
