import type {
  BucketTake,
  BucketVerdict,
  BucketWrite,
} from '../../src/core/limits/bucket-ledger.js';
import type { BucketPolicy, BucketState } from '../../src/core/limits/token-bucket.js';
import { SAME_INSTANT_STEP } from '../../src/core/limits/past-policies.js';
import type { OtpCode } from '../../src/core/signin/otp-codes.js';
import type { VerifyResult } from '../../src/core/signin/decide-verify.js';

/**
 * One table of the decisions both stores make: a take from a bucket, and a code tried. The unit
 * tests of `decideTake` and `decideVerify` (and of the memory ledger and code store) hold the
 * core to the expected answers; the differential test runs every case through the Redis scripts
 * on a real redis-server and holds them to the core's answers, field for field.
 */

/** When every case happens, unless it says otherwise. */
export const CASE_T0 = Date.UTC(2026, 0, 1);

/** A take: the bucket kept (undefined: none), the request, and what the core answers. */
export interface TakeCase {
  name: string;
  stored: BucketState | undefined;
  request: Omit<BucketTake, 'key' | 'level'>;
  expected: {
    verdict: BucketVerdict;
    /** Tokens in the bucket after the take, as the answer reports them. */
    tokens: number;
    remaining: number;
    retryAfterMs: number;
    /** What is written (undefined: nothing), dated the time of the take unless it says. */
    write: (Omit<BucketWrite, 'updatedAt'> & { updatedAt?: number }) | undefined;
  };
}

/** Four tokens, one back every 1,024 ms: every figure below is exact in binary. */
const FOUR = { burst: 4, refillPerMs: 1 / 1024 };
/** Five an hour, as a config writes it (`5/h`). */
const HOURLY = { burst: 5, refillPerMs: 1 / 3_600_000 };
/** Five, one back a second (`1/s`). */
const SECOND = { burst: 5, refillPerMs: 0.001 };

const at = (tokens: number, ago = 0): BucketState => ({ tokens, updatedAt: CASE_T0 - ago });

/** A request deciding one valid, unshadowed call of cost 1 at T0 under `policy`, with changes. */
function take(
  policy: BucketPolicy,
  changes: Partial<Omit<BucketTake, 'key' | 'level' | 'policy'>> = {},
): TakeCase['request'] {
  return {
    now: CASE_T0,
    policy,
    cost: 1,
    mode: 'decide',
    shadow: false,
    valid: true,
    countInvalid: false,
    ...changes,
  };
}

const written = (tokens: number, count: BucketWrite['count'], updatedAt?: number) =>
  updatedAt === undefined ? { tokens, count } : { tokens, count, updatedAt };

/** A burst of 4 lowered to 1 and raised back to 4 at T0, within one millisecond. */
const LOWERED_AND_RAISED = [
  { burst: 4, refillPerMs: 1 / 1024, until: CASE_T0 },
  { burst: 1, refillPerMs: 1 / 1024, until: CASE_T0 + SAME_INSTANT_STEP },
];

/** The take cases (data: one row each). */
/** An invalid call in shadow mode on an empty bucket (FOUR at time 0): refused, counted apart. */
const shadowRefused = (): TakeCase['expected'] => ({
  verdict: 'shadow-refused',
  tokens: 0,
  remaining: 0,
  retryAfterMs: 1024,
  write: written(0, 'shadowRejected'),
});

export const TAKE_CASES: readonly TakeCase[] = [
  {
    name: 'a bucket never seen is full: the take leaves the burst less the cost',
    stored: undefined,
    request: take(SECOND),
    expected: {
      verdict: 'allowed',
      tokens: 4,
      remaining: 4,
      retryAfterMs: 0,
      write: written(4, 'allowed'),
    },
  },
  {
    name: 'the last token is taken',
    stored: at(1),
    request: take(SECOND),
    expected: {
      verdict: 'allowed',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 0,
      write: written(0, 'allowed'),
    },
  },
  {
    name: 'an empty bucket refuses, counts the rejection and says when a token is back',
    stored: at(0),
    request: take(SECOND),
    expected: {
      verdict: 'rejected',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 1000,
      write: written(0, 'rejected'),
    },
  },
  {
    name: 'half a token refilled is not enough, and the wait is for the other half',
    stored: at(0, 512),
    request: take(FOUR),
    expected: {
      verdict: 'rejected',
      tokens: 0.5,
      remaining: 0,
      retryAfterMs: 512,
      write: written(0.5, 'rejected'),
    },
  },
  {
    name: 'a token refilled exactly on time is taken',
    stored: at(0, 1024),
    request: take(FOUR),
    expected: {
      verdict: 'allowed',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 0,
      write: written(0, 'allowed'),
    },
  },
  {
    name: 'refill stops at the burst',
    stored: at(1, 3_600_000),
    request: take(FOUR),
    expected: {
      verdict: 'allowed',
      tokens: 3,
      remaining: 3,
      retryAfterMs: 0,
      write: written(3, 'allowed'),
    },
  },
  {
    name: 'tokens below none count as none',
    stored: at(-5),
    request: take(FOUR),
    expected: {
      verdict: 'rejected',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 1024,
      write: written(0, 'rejected'),
    },
  },
  {
    name: 'tokens above the burst count as the burst',
    stored: at(1e308),
    request: take(FOUR),
    expected: {
      verdict: 'allowed',
      tokens: 3,
      remaining: 3,
      retryAfterMs: 0,
      write: written(3, 'allowed'),
    },
  },
  {
    name: 'a bucket updated after now has not refilled, and keeps its date (a manual time another instance moved past)',
    stored: at(2, -5_000),
    request: take(FOUR),
    expected: {
      verdict: 'allowed',
      tokens: 1,
      remaining: 1,
      retryAfterMs: 0,
      // Dated now, the next take after the later time would refill those 5 s a second time.
      write: written(1, 'allowed', CASE_T0 + 5_000),
    },
  },
  {
    name: 'an empty bucket updated after now refuses with a wait counted from its own time (a manual clock set back)',
    stored: at(0.5, -5_000),
    request: take(FOUR),
    expected: {
      verdict: 'rejected',
      tokens: 0.5,
      remaining: 0,
      retryAfterMs: 5_000 + 512,
      write: written(0.5, 'rejected', CASE_T0 + 5_000),
    },
  },
  {
    name: 'a bucket a hair under one token lets the call through (the tolerance) and is left empty',
    stored: at(1 - 1e-10),
    request: take(FOUR),
    expected: {
      verdict: 'allowed',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 0,
      write: written(0, 'allowed'),
    },
  },
  {
    name: 'a call of cost 2 needs two tokens: one and a half are refused',
    stored: at(1.5),
    request: take(FOUR, { cost: 2 }),
    expected: {
      verdict: 'rejected',
      tokens: 1.5,
      remaining: 1,
      retryAfterMs: 512,
      write: written(1.5, 'rejected'),
    },
  },
  {
    name: 'a call of cost 3 is refused by a fresh bucket of burst 1',
    stored: undefined,
    request: take({ burst: 1, refillPerMs: 1 / 1024 }, { cost: 3 }),
    expected: {
      verdict: 'rejected',
      tokens: 1,
      remaining: 1,
      retryAfterMs: 2048,
      write: written(1, 'rejected'),
    },
  },
  {
    name: 'a call of cost 0 passes an empty bucket',
    stored: at(0),
    request: take(FOUR, { cost: 0 }),
    expected: {
      verdict: 'allowed',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 0,
      write: written(0, 'allowed'),
    },
  },
  {
    name: 'a peek reads the refilled bucket and writes nothing',
    stored: at(2, 1024),
    request: take(FOUR, { mode: 'peek' }),
    expected: { verdict: 'peeked', tokens: 3, remaining: 3, retryAfterMs: 0, write: undefined },
  },
  {
    name: 'an injected 429 takes nothing and counts a rejection',
    stored: at(2),
    request: take(FOUR, { mode: 'inject' }),
    expected: {
      verdict: 'injected',
      tokens: 2,
      remaining: 2,
      retryAfterMs: 0,
      write: written(2, 'rejected'),
    },
  },
  {
    name: 'an injected 429 on an empty bucket carries the wait for a token',
    stored: at(0),
    request: take(FOUR, { mode: 'inject' }),
    expected: {
      verdict: 'injected',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 1024,
      write: written(0, 'rejected'),
    },
  },
  {
    name: 'in shadow mode an empty bucket lets the call through and counts it apart',
    stored: at(0),
    request: take(FOUR, { shadow: true }),
    expected: {
      verdict: 'shadow-limited',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 1024,
      write: written(0, 'shadowRejected'),
    },
  },
  {
    name: 'in shadow mode a bucket with tokens takes as usual',
    stored: at(2),
    request: take(FOUR, { shadow: true }),
    expected: {
      verdict: 'allowed',
      tokens: 1,
      remaining: 1,
      retryAfterMs: 0,
      write: written(1, 'allowed'),
    },
  },
  {
    name: 'an invalid call takes nothing by default',
    stored: at(2),
    request: take(FOUR, { valid: false }),
    expected: { verdict: 'refused', tokens: 2, remaining: 2, retryAfterMs: 0, write: undefined },
  },
  {
    name: 'an invalid call takes its token when invalid calls count',
    stored: at(2),
    request: take(FOUR, { valid: false, countInvalid: true }),
    expected: {
      verdict: 'refused',
      tokens: 1,
      remaining: 1,
      retryAfterMs: 0,
      write: written(1, 'allowed'),
    },
  },
  {
    name: 'an invalid call on an empty bucket is rejected first',
    stored: at(0),
    request: take(FOUR, { valid: false, countInvalid: true }),
    expected: {
      verdict: 'rejected',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 1024,
      write: written(0, 'rejected'),
    },
  },
  {
    // Without shadow it would have been a 429 (the bucket answers first): counted as such.
    name: 'an invalid call in shadow mode on an empty bucket is refused and counted as shadow-rejected',
    stored: at(0),
    request: take(FOUR, { valid: false, countInvalid: true, shadow: true }),
    expected: shadowRefused(),
  },
  {
    name: 'an invalid call in shadow mode on an empty bucket is counted even when invalid calls do not count',
    stored: at(0),
    request: take(FOUR, { valid: false, countInvalid: false, shadow: true }),
    expected: shadowRefused(),
  },
  {
    name: 'a bucket refills at the limits in force before a live change, up to the change',
    stored: at(0, 4096),
    request: take({ ...FOUR, past: [{ burst: 4, refillPerMs: 1 / 2048, until: CASE_T0 - 2048 }] }),
    expected: {
      verdict: 'allowed',
      tokens: 2,
      remaining: 2,
      retryAfterMs: 0,
      write: written(2, 'allowed'),
    },
  },
  {
    name: 'tokens of a larger burst before a live change are capped at the new burst',
    stored: at(0, 10_000),
    request: take({
      burst: 2,
      refillPerMs: HOURLY.refillPerMs,
      past: [{ burst: 8, refillPerMs: 1 / 1024, until: CASE_T0 - 1024 }],
    }),
    expected: {
      verdict: 'allowed',
      tokens: 1,
      remaining: 1,
      retryAfterMs: 0,
      write: written(1, 'allowed'),
    },
  },
  {
    name: 'a live change made before the bucket was last updated does not count',
    stored: at(1, 1024),
    request: take({ ...FOUR, past: [{ burst: 100, refillPerMs: 1, until: CASE_T0 - 2048 }] }),
    expected: {
      verdict: 'allowed',
      tokens: 1,
      remaining: 1,
      retryAfterMs: 0,
      write: written(1, 'allowed'),
    },
  },
  {
    name: 'a live change dated after now refills at the limits before it up to now',
    stored: at(0, 1024),
    request: take({ ...FOUR, past: [{ burst: 4, refillPerMs: 1 / 512, until: CASE_T0 + 5_000 }] }),
    expected: {
      verdict: 'allowed',
      tokens: 1,
      remaining: 1,
      retryAfterMs: 0,
      write: written(1, 'allowed'),
    },
  },
  {
    name: 'each of several live changes refills its own stretch',
    stored: at(0, 3072),
    request: take({
      ...FOUR,
      past: [
        { burst: 4, refillPerMs: 1 / 2048, until: CASE_T0 - 2048 },
        { burst: 4, refillPerMs: 1 / 512, until: CASE_T0 - 1024 },
      ],
    }),
    expected: {
      verdict: 'allowed',
      tokens: 2.5,
      remaining: 2,
      retryAfterMs: 0,
      write: written(2.5, 'allowed'),
    },
  },
  {
    name: 'a burst lowered and raised again in the millisecond a bucket was updated keeps its tokens cut',
    stored: at(3),
    request: take({ ...FOUR, past: LOWERED_AND_RAISED }),
    expected: {
      verdict: 'allowed',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 0,
      write: written(0, 'allowed', CASE_T0 + SAME_INSTANT_STEP),
    },
  },
  {
    name: 'a bucket updated after a burst lowered and raised again in one millisecond keeps its tokens',
    stored: { tokens: 3, updatedAt: CASE_T0 + SAME_INSTANT_STEP },
    request: take({ ...FOUR, past: LOWERED_AND_RAISED }),
    expected: {
      verdict: 'allowed',
      tokens: 2,
      remaining: 2,
      retryAfterMs: 0,
      write: written(2, 'allowed', CASE_T0 + SAME_INSTANT_STEP),
    },
  },
  {
    name: 'half an hour at 5/h refills the half token a call needs',
    stored: at(0.5, 1_800_000),
    request: take(HOURLY),
    expected: {
      verdict: 'allowed',
      tokens: 0,
      remaining: 0,
      retryAfterMs: 0,
      write: written(0, 'allowed'),
    },
  },
];

/** A code tried: the code kept (undefined: none), when, what is tried, and the answer. */
export interface VerifyCase {
  name: string;
  kept: OtpCode | undefined;
  now: number;
  candidate: string;
  expected: {
    result: VerifyResult;
    /** The code kept after the try (undefined: none). */
    after: Pick<OtpCode, 'attemptsLeft' | 'used'> | undefined;
  };
}

/** The merchant and e-mail of every code of the table. */
export const CASE_MERCHANT = '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01';
export const CASE_EMAIL = 'alice@example.com';

/** A code issued a minute before T0, for ten minutes, with three attempts, as changed. */
function kept(changes: Partial<OtpCode> = {}): OtpCode {
  return {
    merchantId: CASE_MERCHANT,
    email: CASE_EMAIL,
    code: '123456',
    issuedAt: CASE_T0 - 60_000,
    expiresAt: CASE_T0 + 540_000,
    attemptsLeft: 3,
    used: false,
    ...changes,
  };
}

/** A try of `candidate` at T0 (or `now`) on `code`. */
function tried(
  name: string,
  code: OtpCode | undefined,
  candidate: string,
  expected: VerifyCase['expected'],
  now = CASE_T0,
): VerifyCase {
  return { name, kept: code, now, candidate, expected };
}

const EXPIRES = kept().expiresAt;
const unchanged = (code: OtpCode) => ({ attemptsLeft: code.attemptsLeft, used: code.used });

/** The verification cases (data: one row each). */
export const VERIFY_CASES: readonly VerifyCase[] = [
  tried('no code kept: not found', undefined, '123456', { result: 'not-found', after: undefined }),
  tried('the right code is verified and used', kept(), '123456', {
    result: 'verified',
    after: { attemptsLeft: 3, used: true },
  }),
  tried('a code wrong in its last digit spends an attempt', kept(), '123457', {
    result: 'wrong',
    after: { attemptsLeft: 2, used: false },
  }),
  tried('a code wrong in its first digit spends an attempt', kept(), '923456', {
    result: 'wrong',
    after: { attemptsLeft: 2, used: false },
  }),
  tried('the last attempt, wrong, leaves none', kept({ attemptsLeft: 1 }), '000000', {
    result: 'wrong',
    after: { attemptsLeft: 0, used: false },
  }),
  tried(
    'a code out of attempts is exhausted, even tried right',
    kept({ attemptsLeft: 0 }),
    '123456',
    {
      result: 'exhausted',
      after: unchanged(kept({ attemptsLeft: 0 })),
    },
  ),
  tried('a code with fewer than no attempts is exhausted', kept({ attemptsLeft: -2 }), '123456', {
    result: 'exhausted',
    after: unchanged(kept({ attemptsLeft: -2 })),
  }),
  tried('a used code answers used, even tried right', kept({ used: true }), '123456', {
    result: 'used',
    after: unchanged(kept({ used: true })),
  }),
  tried('used outweighs exhausted', kept({ used: true, attemptsLeft: 0 }), '123456', {
    result: 'used',
    after: unchanged(kept({ used: true, attemptsLeft: 0 })),
  }),
  tried(
    'a code tried at its expiry has expired',
    kept(),
    '123456',
    { result: 'expired', after: unchanged(kept()) },
    EXPIRES,
  ),
  tried(
    'a code tried a millisecond before its expiry is verified',
    kept(),
    '123456',
    { result: 'verified', after: { attemptsLeft: 3, used: true } },
    EXPIRES - 1,
  ),
  tried(
    'a wrong code after the expiry spends no attempt',
    kept(),
    '000000',
    { result: 'expired', after: unchanged(kept()) },
    EXPIRES + 60_000,
  ),
  tried(
    'exhausted outweighs expired',
    kept({ attemptsLeft: 0 }),
    '123456',
    { result: 'exhausted', after: unchanged(kept({ attemptsLeft: 0 })) },
    EXPIRES + 1,
  ),
  tried('a code one digit short is wrong', kept(), '12345', {
    result: 'wrong',
    after: { attemptsLeft: 2, used: false },
  }),
  tried('a code one digit long is wrong', kept(), '1234567', {
    result: 'wrong',
    after: { attemptsLeft: 2, used: false },
  }),
  tried('an empty code is wrong', kept(), '', {
    result: 'wrong',
    after: { attemptsLeft: 2, used: false },
  }),
  tried('the same digits in another script are wrong', kept(), '١٢٣٤٥٦', {
    result: 'wrong',
    after: { attemptsLeft: 2, used: false },
  }),
  tried('the code and a NUL are wrong', kept(), '123456\u0000', {
    result: 'wrong',
    after: { attemptsLeft: 2, used: false },
  }),
  tried(
    'a code of eight digits is verified when tried whole',
    kept({ code: '12345678' }),
    '12345678',
    {
      result: 'verified',
      after: { attemptsLeft: 3, used: true },
    },
  ),
  tried('anything tried against an empty code kept is wrong', kept({ code: '' }), '1', {
    result: 'wrong',
    after: { attemptsLeft: 2, used: false },
  }),
];
