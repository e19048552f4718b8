import type { BucketState } from '../../core/limits/token-bucket.js';
import type { StoredBucket } from '../../core/limits/bucket-store.js';
import { verifyOutcome, type VerifyResult } from '../../core/signin/decide-verify.js';
import type { OtpCode, VerifyOutcome } from '../../core/signin/otp-codes.js';
import { isDateTime } from '../../core/time/clock.js';
import type { SharedChange } from '../../core/store/emulator-store.js';

/**
 * What is read from Redis, as typed values: each field read as the scripts read it (see `FIELDS`
 * in redis-scripts.ts), so that what a script counts as absent, a listing skips too. Anything
 * else (written by something other than uas) is no bucket, no code: never an error. Pure.
 */

/** The fields of a bucket's hash: tokens, updated at, and the allowed, rejected, shadow counters. */
export const BUCKET_FIELDS = ['t', 'u', 'a', 'r', 's'] as const;
/** The fields of a code's hash: merchant, e-mail, code, issued, expires, attempts left, used. */
export const CODE_FIELDS = ['m', 'e', 'c', 'i', 'x', 'a', 'used'] as const;

/** A number field as the scripts read it (`number`): finite and decimal (no nan, inf nor hex). */
export function readNumber(text: string | null | undefined): number | undefined {
  if (typeof text !== 'string' || !/\d/.test(text) || !/^-?\d*\.?\d*[eE]?[-+]?\d*$/.test(text))
    return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** A time as the scripts read it (`instant`): such a number that a Date can show. */
export function readInstant(text: string | null | undefined): number | undefined {
  const value = readNumber(text);
  return value !== undefined && isDateTime(value) ? value : undefined;
}

/** A counter as the scripts read it (`whole`): an integer HINCRBY takes, of 15 digits at most. */
export function readWhole(text: string | null | undefined): number | undefined {
  return typeof text === 'string' && /^(?:0|-?[1-9]\d{0,14})$/.test(text)
    ? Number(text)
    : undefined;
}

/** A bucket read from the fields of {@link BUCKET_FIELDS}; undefined when gone or not ours. */
export function readBucket(fields: ReadonlyArray<string | null>): StoredBucket | undefined {
  const [tokens, updatedAt, ...counters] = fields;
  const [allowed, rejected, shadow] = counters.map((field) =>
    field === null || field === undefined ? 0 : readWhole(field),
  );
  const t = readNumber(tokens);
  const u = readInstant(updatedAt);
  if (
    t === undefined ||
    u === undefined ||
    allowed === undefined ||
    rejected === undefined ||
    shadow === undefined
  )
    return undefined;
  return { tokens: t, updatedAt: u, allowed, rejected, shadowRejected: shadow };
}

/** A code read from the fields of {@link CODE_FIELDS}; undefined when gone or not ours. */
export function readCode(fields: ReadonlyArray<string | null | undefined>): OtpCode | undefined {
  const [merchantId, email, code, issued, expires, attempts, used] = fields;
  const issuedAt = readInstant(issued);
  const expiresAt = readInstant(expires);
  const attemptsLeft = readWhole(attempts);
  if (
    typeof merchantId !== 'string' ||
    typeof email !== 'string' ||
    typeof code !== 'string' ||
    issuedAt === undefined ||
    expiresAt === undefined ||
    attemptsLeft === undefined ||
    (used !== '0' && used !== '1')
  )
    return undefined;
  return { merchantId, email, code, issuedAt, expiresAt, attemptsLeft, used: used === '1' };
}

/**
 * The take script's reply: the bucket before the take (undefined: none, or not a bucket) and
 * the time of the take, from which the core works out the verdict.
 */
export function readTakeReply([tokens, updatedAt, now]: readonly [string, string, string]): {
  stored: BucketState | undefined;
  now: number;
} {
  const stored =
    tokens === '' ? undefined : { tokens: Number(tokens), updatedAt: Number(updatedAt) };
  return { stored, now: Number(now) };
}

const RESULTS: readonly VerifyResult[] = ['verified', 'used', 'exhausted', 'expired', 'wrong'];

/**
 * The verify script's reply: its result and the code after the check. A code that does not read
 * back is none; a result the script does not give counts as a wrong try.
 */
export function readVerifyReply(reply: readonly string[]): VerifyOutcome {
  const [result, ...fields] = reply;
  if (result === 'not-found') return { result: 'not-found' };
  const known = RESULTS.find((candidate) => candidate === result) ?? 'wrong';
  return verifyOutcome(known, readCode(fields));
}

/** Text read back as JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A change of users, as `uas:users` keeps them in order: users added, or one removed. */
export type UserChange = Extract<SharedChange, { type: 'users' | 'remove-user' }>;

/** How `uas:users` marks a removal: `["remove", "<email>"]` (a batch added holds objects). */
export const REMOVAL_MARK = 'remove';

/** The text `uas:users` keeps of a change of users. */
export function userChangeText(change: UserChange): string {
  return JSON.stringify(change.type === 'users' ? change.users : [REMOVAL_MARK, change.email]);
}

/**
 * The changes of users made live, in order, from the list at `uas:users`: each JSON array is a
 * batch added, or a removal (`["remove", "<email>"]`); anything else is skipped.
 */
export function readUserChanges(texts: readonly string[]): UserChange[] {
  return texts.flatMap((text): UserChange[] => {
    const entry = parseJson(text);
    if (!Array.isArray(entry)) return [];
    if (entry[0] === REMOVAL_MARK) return [{ type: 'remove-user', email: entry[1] }];
    return [{ type: 'users', users: entry }];
  });
}
