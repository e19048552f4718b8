import type { EmulatorRequest } from '../service/exchange.js';
import { RECORD_TEXT_MAX, type MisplacedCallerId, type RequestRecord } from './records.js';

/** A record with only its identity: what a request is known to be before it is read. */
export function blankRecord(id: number, at: number, method: string, path: string): RequestRecord {
  return {
    id,
    at,
    method,
    path,
    operation: undefined,
    client_id: undefined,
    merchant_id: undefined,
    email: undefined,
    phone_number: undefined,
    caller_id: undefined,
    caller_id_source: undefined,
    caller_id_misplaced: NONE,
    fields: undefined,
    fingerprint: '',
    user_agent: undefined,
    idempotency_key: undefined,
    retry_attempt: undefined,
    bucket: undefined,
    level: undefined,
    status: 0,
    outcome: 'unrouted',
    remaining: undefined,
    retry_after: undefined,
    problem: undefined,
  };
}

const NONE: MisplacedCallerId[] = [];

/** Cuts client text to {@link RECORD_TEXT_MAX} characters, so a record stays small. */
export function clip(text: string): string {
  return text.length > RECORD_TEXT_MAX ? `${text.slice(0, RECORD_TEXT_MAX - 1)}…` : text;
}

/** A string from a request field, clipped; undefined for anything else. */
export function clipString(value: unknown): string | undefined {
  return typeof value === 'string' ? clip(value) : undefined;
}

// caller_id spelt otherwise: callerId, caller-id, CallerID, x-caller-id ...
const CALLER_ID_NAME = /^(?:x-)?caller[-_]?id$/i;

/**
 * caller_ids in the headers: the service reads none there (`X-Caller-Id`, `Caller-Id`).
 * Header names are lower case.
 */
export function misplacedInHeaders(headers: EmulatorRequest['headers']): MisplacedCallerId[] {
  let found: MisplacedCallerId[] | undefined;
  for (const name in headers) {
    // Cheap first test: header names of a normal request rarely contain "caller".
    if (name.length < 8 || !name.includes('caller') || !CALLER_ID_NAME.test(name)) continue;
    const value = headers[name];
    (found ??= []).push({
      place: 'header',
      name,
      value: clip(Array.isArray(value) ? value.join(', ') : (value ?? '')),
    });
  }
  return found ?? NONE;
}

/**
 * caller_ids among the fields of a query or body. With `exact` false (the place the service does
 * not read), every caller_id-like name counts, `caller_id` included; with `exact` true only other
 * spellings do (`callerId` beside the real `caller_id`).
 */
export function misplacedInFields(
  fields: Record<string, unknown>,
  place: MisplacedCallerId['place'],
  exact: boolean,
): MisplacedCallerId[] {
  let found: MisplacedCallerId[] | undefined;
  for (const name in fields) {
    if (exact && name === 'caller_id') continue;
    if (!CALLER_ID_NAME.test(name)) continue;
    const value = fields[name];
    (found ??= []).push({
      place,
      name: clip(name),
      value: clip(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')),
    });
  }
  return found ?? NONE;
}

/** Joins lists of misplaced caller_ids, keeping the shared empty list when all are empty. */
export function joinMisplaced(...lists: MisplacedCallerId[][]): MisplacedCallerId[] {
  const nonEmpty = lists.filter((list) => list.length > 0);
  return nonEmpty.length === 0 ? NONE : nonEmpty.length === 1 ? nonEmpty[0]! : nonEmpty.flat();
}

/**
 * The record's view of the request's fields: everything but the one-time code, text clipped, at
 * most 32 fields.
 */
export function recordFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const name in fields) {
    if (name === 'verification_code') continue;
    if (++count > 32) break;
    const value = fields[name];
    out[clip(name)] =
      typeof value === 'string'
        ? clip(value)
        : typeof value === 'object' && value !== null
          ? clipString(JSON.stringify(value))
          : value;
  }
  return out;
}

/**
 * A fingerprint of a request without its caller_id: method, path and the fields in name order
 * (the code included, so a retyped code is another request). 64 bits of cyrb53-style hashing,
 * as 16 hex characters; not a secret-keeping hash, only a way to recognise a resend.
 */
export function fingerprint(
  method: string,
  path: string,
  fields: Record<string, unknown> | undefined,
): string {
  let text = `${method} ${path}`;
  if (fields !== undefined) {
    const names = Object.keys(fields)
      .filter((name) => !CALLER_ID_NAME.test(name))
      .sort();
    for (const name of names) text += `\n${name}=${JSON.stringify(fields[name])}`;
  }
  return hash64(text);
}

function hash64(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}
