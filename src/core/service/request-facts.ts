import type { EmulatorRequest } from './exchange.js';
import { RECORD_TEXT_MAX, type MisplacedCallerId, type RequestRecord } from '../records/records.js';
import { scrubSecrets } from '../records/redact.js';
import { setOwnField } from './own-field.js';

/** What a record derives from its request's fields, kept aside until the record is read. */
interface PendingFacts {
  /** The fields as sent (the code included); undefined when they could not be read. */
  fields: Record<string, unknown> | undefined;
  /** Where the service reads them. */
  place: 'query' | 'body';
  /** The other place: the query of a POST, or the body of the GET. */
  elsewhere: string | undefined;
}

/**
 * A record as the request path makes it. Its fields, fingerprint and misplaced caller_ids are not
 * worked out on the request path: most records are never read (the journal keeps the last
 * thousand, and nobody may be listening), so the facts they come from wait in a private slot,
 * invisible to JSON and to equality, until {@link completeRecord} is called as the record leaves.
 */
class DraftRecord implements RequestRecord {
  operation: RequestRecord['operation'] = undefined;
  client_id: string | undefined = undefined;
  merchant_id: string | undefined = undefined;
  email: string | undefined = undefined;
  phone_number: string | undefined = undefined;
  caller_id: string | undefined = undefined;
  caller_id_source: RequestRecord['caller_id_source'] = undefined;
  caller_id_misplaced: MisplacedCallerId[] = NONE;
  fields: Record<string, unknown> | undefined = undefined;
  fingerprint = '';
  user_agent: string | undefined = undefined;
  idempotency_key: string | undefined = undefined;
  retry_attempt: string | undefined = undefined;
  bucket: string | undefined = undefined;
  level: RequestRecord['level'] = undefined;
  status = 0;
  outcome: RequestRecord['outcome'] = 'unrouted';
  remaining: number | undefined = undefined;
  retry_after: number | undefined = undefined;
  problem: string | undefined = undefined;
  #facts: PendingFacts | undefined = undefined;

  constructor(
    public id: number,
    public at: number,
    public method: string,
    public path: string,
  ) {}

  static defer(record: RequestRecord, facts: PendingFacts): void {
    if (record instanceof DraftRecord) record.#facts = facts;
  }

  static takeFacts(record: RequestRecord): PendingFacts | undefined {
    if (!(record instanceof DraftRecord)) return undefined;
    const facts = record.#facts;
    record.#facts = undefined;
    return facts;
  }
}

/** A record with only its identity: what a request is known to be before it is read. */
export function blankRecord(id: number, at: number, method: string, path: string): RequestRecord {
  return new DraftRecord(id, at, method, path);
}

const NONE: MisplacedCallerId[] = [];

/** Sets a record's field-derived facts aside, for {@link completeRecord}. */
export function deferFacts(
  record: RequestRecord,
  fields: Record<string, unknown> | undefined,
  place: 'query' | 'body',
  elsewhere: string | undefined,
): void {
  DraftRecord.defer(record, { fields, place, elsewhere });
}

/**
 * Works out what a record derives from its request: the fields without the code, the
 * fingerprint, caller_ids in places the service ignores. Every way a record leaves the emulator
 * (journal, events, `requests()`) goes through here; it does the work once.
 */
export function completeRecord(
  record: RequestRecord,
  secrets: readonly string[] = [],
): RequestRecord {
  if (record.fingerprint !== '') return record;
  const facts = DraftRecord.takeFacts(record);
  if (facts === undefined) {
    record.fingerprint = fingerprint(record.method, record.path, undefined);
    return scrubRecord(record, secrets);
  }
  const { place } = facts;
  // Secrets go before nested values are serialised (an admin token may hold `"` or `\`, which
  // JSON would escape) and before texts are clipped (which could cut one short).
  const fields = facts.fields === undefined ? undefined : withoutSecrets(facts.fields, secrets);
  if (fields !== undefined) record.fields = recordFields(fields);
  record.fingerprint = fingerprint(record.method, record.path, facts.fields);
  const raw = place === 'body' ? queryFields(facts.elsewhere) : bodyFields(facts.elsewhere);
  const other = raw === undefined ? undefined : withoutSecrets(raw, secrets);
  record.caller_id_misplaced = joinMisplaced(
    record.caller_id_misplaced,
    fields === undefined ? NONE : misplacedInFields(fields, place, true),
    other === undefined
      ? NONE
      : misplacedInFields(other, place === 'body' ? 'query' : 'body', false),
  );
  return scrubRecord(record, secrets);
}

/** Client text of a record in which a secret may have been sent: every one of its strings. */
const TEXT_FIELDS = [
  'path',
  'email',
  'phone_number',
  'caller_id',
  'merchant_id',
  'bucket',
  'user_agent',
  'idempotency_key',
  'retry_attempt',
] as const;

/**
 * A field's value with the secrets redacted in every string of it, names included (`?<token>`,
 * `{"a": {"<token>": 1}}`). Bodies nest at most 64 levels (deeper ones are refused unread).
 */
function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets));
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines each name as its own property: a "__proto__" field stays a field.
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      scrubSecrets(name, secrets),
      scrubValue(item, secrets),
    ]),
  );
}

/** A request's fields with the secrets redacted in them; the same object when they hold none. */
function withoutSecrets(
  fields: Record<string, unknown>,
  secrets: readonly string[],
): Record<string, unknown> {
  return secrets.length > 0 && holdsSecret(fields, secrets)
    ? (scrubValue(fields, secrets) as Record<string, unknown>)
    : fields;
}

/**
 * Whether a secret is in a string of `value`, its names included, or may be: a clipped string
 * may end in the start of one.
 */
function holdsSecret(value: unknown, secrets: readonly string[]): boolean {
  if (typeof value === 'string')
    return (
      (value.length === RECORD_TEXT_MAX && value.endsWith('…')) ||
      secrets.some((secret) => value.includes(secret))
    );
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => holdsSecret(item, secrets));
  for (const name in value)
    if (
      Object.hasOwn(value, name) &&
      (holdsSecret(name, secrets) || holdsSecret((value as Record<string, unknown>)[name], secrets))
    )
      return true;
  return false;
}

/** Redacts the secrets (access and admin tokens) a client put anywhere in its request. */
function scrubRecord(record: RequestRecord, secrets: readonly string[]): RequestRecord {
  if (secrets.length === 0) return record;
  for (const name of TEXT_FIELDS) {
    const value = record[name];
    if (value !== undefined) record[name] = scrubSecrets(value, secrets);
  }
  // Most fields hold no secret: they are kept as they are, without a copy.
  if (record.fields !== undefined && holdsSecret(record.fields, secrets))
    record.fields = scrubValue(record.fields, secrets) as Record<string, unknown>;
  if (record.caller_id_misplaced.length > 0)
    record.caller_id_misplaced = record.caller_id_misplaced.map((entry) => ({
      ...entry,
      value: scrubSecrets(entry.value, secrets),
    }));
  return record;
}

function queryFields(query: string | undefined): Record<string, unknown> | undefined {
  if (query === undefined || query === '') return undefined;
  return Object.fromEntries(new URLSearchParams(query));
}

function bodyFields(body: string | undefined): Record<string, unknown> | undefined {
  if (body === undefined || body === '') return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

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

/** Whether a name is caller_id spelt some way: 8 to 11 characters before the pattern is tried. */
const isCallerIdName = (name: string) =>
  name.length >= 8 && name.length <= 11 && CALLER_ID_NAME.test(name);

/**
 * caller_ids in the headers: the service reads none there (`X-Caller-Id`, `Caller-Id`).
 * Header names are lower case.
 */
export function misplacedInHeaders(headers: EmulatorRequest['headers']): MisplacedCallerId[] {
  let found: MisplacedCallerId[] | undefined;
  for (const name in headers) {
    // Cheap first test: header names of a normal request rarely contain "caller".
    if (!name.includes('caller') || !isCallerIdName(name)) continue;
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
    if (found !== undefined && found.length >= MISPLACED_MAX) break;
    if (exact && name === 'caller_id') continue;
    if (!isCallerIdName(name)) continue;
    const value = fields[name];
    (found ??= []).push({
      place,
      name: clip(name),
      value: clip(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')),
    });
  }
  return found ?? NONE;
}

/** Misplaced caller_ids kept in a record: enough to show the mistake, bounded whatever is sent. */
export const MISPLACED_MAX = 5;

/** Joins lists of misplaced caller_ids (at most five), keeping the shared empty list when all are empty. */
export function joinMisplaced(...lists: MisplacedCallerId[][]): MisplacedCallerId[] {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return NONE;
  const all = nonEmpty.length === 1 ? nonEmpty[0]! : nonEmpty.flat();
  return all.length > MISPLACED_MAX ? all.slice(0, MISPLACED_MAX) : all;
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
    setOwnField(
      out,
      clip(name),
      typeof value === 'string'
        ? clip(value)
        : typeof value === 'object' && value !== null
          ? clipString(JSON.stringify(value))
          : value,
    );
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
    const names: string[] = [];
    for (const name in fields)
      if (Object.hasOwn(fields, name) && !isCallerIdName(name)) names.push(name);
    if (names.length > 1) names.sort();
    for (const name of names) text += `\n${name}=${JSON.stringify(fields[name])}`;
  }
  return hash64(text);
}

/** Two hex digits of each byte: Number#toString(16) costs more than the hashing. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

const hex32 = (value: number) =>
  `${HEX[value >>> 24]}${HEX[(value >>> 16) & 255]}${HEX[(value >>> 8) & 255]}${HEX[value & 255]}`;

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
  return hex32(h2 >>> 0) + hex32(h1 >>> 0);
}
