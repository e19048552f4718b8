import type { RequestRecord } from './records/records.js';
import { blankRecord } from './service/request-facts.js';
import type { ServiceCall, ServiceResult } from './service/service.js';

/** The record of a simulated call (the simulator's fast path), for a watching screen. */
export function simulatedRecord(
  call: ServiceCall,
  result: ServiceResult,
  now: number,
): RequestRecord {
  const record = blankRecord(
    0,
    now,
    call.operation === 'exists' ? 'GET' : 'POST',
    `(${call.operation})`,
  );
  record.operation = call.operation;
  record.client_id = call.clientId;
  record.merchant_id = call.merchantId;
  record.caller_id = call.callerId;
  record.bucket = result.bucket;
  record.level = result.level;
  record.status = result.status;
  record.outcome = result.outcome;
  record.remaining = result.state.remaining;
  record.retry_after = result.status === 429 ? result.resetSeconds : undefined;
  return record;
}
