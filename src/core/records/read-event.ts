import type { CodeRecord, EmulatorEvent } from './records.js';
import { readRequestRecord } from './record-schema.js';

/** The latest time a Date holds, in milliseconds since the epoch. */
const LATEST_DATE_MS = 8.64e15;

/**
 * An event of the emulator as read from outside (a dev API's event stream, another instance on
 * Redis), checked as anything from outside must be: one of the emulator's event types with
 * fields of the right types and sizes, or undefined. What a reader (`uas top`) or the readers of
 * an instance then get is what an emulator could have sent: no event name that would break an
 * SSE frame, no record a screen cannot show.
 */
export function readEvent(value: unknown): EmulatorEvent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const event = value as Record<string, unknown>;
  switch (event.type) {
    case 'request': {
      const read = readRequestRecord(event.request);
      if (!read.ok || read.record.at > LATEST_DATE_MS) return undefined;
      const { from } = event;
      return typeof from === 'string' && from.length <= 64
        ? { type: 'request', request: read.record, from }
        : { type: 'request', request: read.record };
    }
    case 'code': {
      const code = readCodeRecord(event.code);
      return code === undefined ? undefined : { type: 'code', code };
    }
    case 'reset': {
      const { bucket, emulator } = event;
      if (typeof emulator !== 'boolean') return undefined;
      if (bucket !== undefined && bucket !== null && !shortText(bucket)) return undefined;
      return { type: 'reset', bucket: typeof bucket === 'string' ? bucket : undefined, emulator };
    }
    case 'config': {
      const { limits, behavior, otp } = event;
      if (![limits, behavior, otp].every(isObject)) return undefined;
      return { type: 'config', limits, behavior, otp };
    }
    case 'users': {
      const { added, removed } = event;
      if (!Number.isSafeInteger(added) || (added as number) < 0) return undefined;
      if (removed !== undefined && removed !== null && !shortText(removed)) return undefined;
      return {
        type: 'users',
        added: added as number,
        removed: typeof removed === 'string' ? removed : undefined,
      };
    }
    default:
      return undefined;
  }
}

function readCodeRecord(value: unknown): CodeRecord | undefined {
  if (!isObject(value)) return undefined;
  const code = value as Record<string, unknown>;
  const fits =
    shortText(code.merchant_id) &&
    shortText(code.email) &&
    typeof code.code === 'string' &&
    /^\d{1,32}$/.test(code.code) &&
    isIsoTime(code.issued_at) &&
    isIsoTime(code.expires_at) &&
    Number.isSafeInteger(code.attempts_left) &&
    typeof code.used === 'boolean';
  if (!fits) return undefined;
  return {
    merchant_id: code.merchant_id as string,
    email: code.email as string,
    code: code.code as string,
    issued_at: code.issued_at as string,
    expires_at: code.expires_at as string,
    attempts_left: code.attempts_left as number,
    used: code.used as boolean,
  };
}

const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const shortText = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 1024;

const isIsoTime = (value: unknown): boolean =>
  typeof value === 'string' &&
  value.length <= 40 &&
  /^[+-]?\d{4,6}-\d\d-\d\dT/.test(value) &&
  Number.isFinite(Date.parse(value));
