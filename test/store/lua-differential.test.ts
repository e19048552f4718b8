import { describe, expect, it } from 'vitest';
import {
  decideTake,
  type BucketTake,
  type BucketTaken,
} from '../../src/core/limits/bucket-ledger.js';
import type { BucketState } from '../../src/core/limits/token-bucket.js';
import { constantTimeEqual } from '../../src/core/signin/constant-time.js';
import { decideVerify, verifyOutcome } from '../../src/core/signin/decide-verify.js';
import type { OtpCode } from '../../src/core/signin/otp-codes.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { createRedisKeys } from '../../src/store/redis/redis-keys.js';
import { SAME_TEXT, VERIFY_SCRIPT } from '../../src/store/redis/redis-scripts.js';
import { connectRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import {
  CASE_EMAIL,
  CASE_MERCHANT,
  CASE_T0,
  TAKE_CASES,
  VERIFY_CASES,
  type VerifyCase,
} from '../helpers/decision-cases.js';
import { HAS_REDIS, useTestRedis } from '../helpers/redis-server.js';

/**
 * The Redis scripts against the core: every case of the table of decisions, and random takes,
 * run through the real scripts on a redis-server and through the core's pure decisions
 * (`decideTake`, `decideVerify`), must answer alike and leave Redis holding what the core would.
 */

const T0 = CASE_T0;
const KEYS = createRedisKeys('uas');
/** The counters of a bucket written before a take. */
const COUNTERS = { a: 3, r: 4, s: 5 } as const;

describe.skipIf(!HAS_REDIS)('the Redis scripts decide as the core does', () => {
  const redis = useTestRedis();

  /** A store on a manual clock (so that a case sets the time of its take). */
  async function store(): Promise<RedisStore> {
    const connected = await connectRedisStore({
      url: redis.server.url,
      config: DEMO_CONFIG,
      manualClock: { startMs: T0 },
      // Room for a loaded machine: a command cut off at 1 s would be a 503, not what is tested.
      timeoutMs: 5_000,
    });
    redis.opened.push(connected);
    return connected;
  }

  /**
   * Writes `stored` (with counters) at `key`, takes through the script at `request.now`, and
   * holds the answer and what Redis then holds to the core's `decideTake`.
   */
  async function expectSameTake(
    shared: RedisStore,
    stored: BucketState | undefined,
    request: BucketTake,
    label: string,
  ): Promise<BucketTaken> {
    const key = KEYS.bucket(request.key);
    await redis.inspect.del(key);
    if (stored !== undefined)
      await redis.inspect.hset(key, {
        ...{ t: String(stored.tokens), u: String(stored.updatedAt) },
        ...COUNTERS,
      });
    shared.clock?.set(request.now);
    const expected = decideTake(stored, request);
    const taken = await shared.ledger.take(request);
    expect(taken, label).toEqual(expected.taken);
    const after = await redis.inspect.hgetall(key);
    if (expected.write === undefined) {
      expect(after.t === undefined ? undefined : Number(after.t), label).toBe(stored?.tokens);
      return taken;
    }
    expect(Number(after.t), label).toBe(expected.write.tokens);
    expect(Number(after.u), label).toBe(expected.write.updatedAt);
    const counters = { allowed: 'a', rejected: 'r', shadowRejected: 's' } as const;
    for (const [name, field] of Object.entries(counters)) {
      const before = stored === undefined ? 0 : COUNTERS[field];
      const bump = expected.write.count === name ? 1 : 0;
      expect(Number(after[field] ?? 0), `${label} ${name}`).toBe(before + bump);
    }
    return taken;
  }

  it.each(TAKE_CASES)('take: $name', async (row) => {
    const shared = await store();
    const request: BucketTake = { ...row.request, key: 'caller:demo:case', level: 'caller' };
    const taken = await expectSameTake(shared, row.stored, request, row.name);
    // And the answer is the one the table expects (the core's own test holds it to that too).
    expect(taken.verdict).toBe(row.expected.verdict);
    expect(taken.state.tokens).toBeCloseTo(row.expected.tokens, 9);
    expect(taken.state.remaining).toBe(row.expected.remaining);
    expect(taken.state.retryAfterMs).toBeCloseTo(row.expected.retryAfterMs, 6);
  });

  it('decides every take as the core does: same verdict, same tokens written, same counters, across live changes of limits', async () => {
    const shared = await store();
    const random = createSeededRandom(42);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random.next() * items.length)] as T;
    for (let index = 0; index < 300; index++) {
      const burst = pick([1, 2, 5, 20, 1000]);
      const refillPerMs = pick([1 / 3_600_000, 0.001, 0.0123, 1, 7]);
      const fresh = random.next() < 0.2;
      const stored = fresh
        ? undefined
        : { tokens: random.next() * burst, updatedAt: T0 - Math.floor(random.next() * 5_000) };
      const now = T0 + Math.floor(random.next() * 2_000);
      // Limits changed live, at times around the bucket's last update and the take.
      const past = Array.from({ length: pick([0, 0, 1, 2, 3]) }, () => ({
        burst: pick([1, 2, 5, 20, 1000]),
        refillPerMs: pick([1 / 3_600_000, 0.001, 0.0123, 1, 7]),
        until: T0 - 5_000 + Math.floor(random.next() * 8_000),
      })).sort((a, b) => a.until - b.until);
      const request: BucketTake = {
        key: `caller:demo:case-${index}`,
        level: 'caller',
        now,
        policy: { burst, refillPerMs, past },
        cost: pick([0, 1, 1, 1, 2, 3]),
        mode: pick(['peek', 'inject', 'decide', 'decide', 'decide'] as const),
        shadow: random.next() < 0.2,
        valid: random.next() < 0.8,
        countInvalid: random.next() < 0.5,
      };
      await expectSameTake(shared, stored, request, `case ${index}`);
    }
  });

  it('decides the takes of one run as the core decides them one after another, a bucket read and written once', async () => {
    const shared = await store();
    const random = createSeededRandom(7);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random.next() * items.length)] as T;
    for (let run = 0; run < 20; run++) {
      // Three buckets: one stored, one absent, one whose key holds junk (another type, or a hash
      // that is no bucket), taken from in turn, all in one turn of the event loop.
      const names = ['stored', 'absent', 'junk'].map((name) => `caller:demo:run-${run}-${name}`);
      const [storedKey, , junkKey] = names.map((name) => KEYS.bucket(name)) as [
        string,
        string,
        string,
      ];
      const policy = { burst: pick([1, 3, 5]), refillPerMs: pick([0.001, 0.5]) };
      const now = T0 + 1_000 + run;
      const stored = { tokens: random.next() * policy.burst, updatedAt: T0 };
      await redis.inspect.hset(storedKey, { t: String(stored.tokens), u: String(T0), ...COUNTERS });
      if (run % 2 === 0) await redis.inspect.set(junkKey, 'not a bucket');
      else await redis.inspect.hset(junkKey, { t: 'x', u: '1' });
      const core = new Map<
        string,
        { state: BucketState | undefined; counts: Record<string, number> }
      >([
        [names[0] as string, { state: stored, counts: { a: 3, r: 4, s: 5 } }],
        [names[1] as string, { state: undefined, counts: { a: 0, r: 0, s: 0 } }],
        [names[2] as string, { state: undefined, counts: { a: 0, r: 0, s: 0 } }],
      ]);
      const requests: BucketTake[] = Array.from({ length: 12 }, () => ({
        key: pick(names),
        level: 'caller',
        now,
        policy,
        cost: pick([0, 1, 1, 2]),
        mode: pick(['peek', 'inject', 'decide', 'decide', 'decide'] as const),
        shadow: random.next() < 0.2,
        valid: random.next() < 0.8,
        countInvalid: random.next() < 0.5,
      }));
      const written = new Set<string>();
      const expected = requests.map((request) => {
        const bucket = core.get(request.key) as {
          state: BucketState | undefined;
          counts: Record<string, number>;
        };
        const { taken, write } = decideTake(bucket.state, request);
        if (write !== undefined) {
          written.add(request.key);
          bucket.state = { tokens: write.tokens, updatedAt: write.updatedAt };
          const field = { allowed: 'a', rejected: 'r', shadowRejected: 's' }[
            write.count ?? 'allowed'
          ];
          bucket.counts[field] = (bucket.counts[field] ?? 0) + 1;
        }
        return taken;
      });
      shared.clock?.set(now);
      const taken = await Promise.all(requests.map((request) => shared.ledger.take(request)));
      expect(taken, `run ${run}`).toEqual(expected);
      for (const [name, bucket] of core) {
        const key = KEYS.bucket(name);
        // Never written: left as it was.
        if (!written.has(name) || bucket.state === undefined) continue;
        const after = await redis.inspect.hgetall(key);
        expect(Number(after.t), `run ${run} ${name}`).toBe(bucket.state.tokens);
        expect(Number(after.u), `run ${run} ${name}`).toBe(bucket.state.updatedAt);
        for (const field of ['a', 'r', 's'])
          expect(Number(after[field] ?? 0), `run ${run} ${name} ${field}`).toBe(
            bucket.counts[field],
          );
        expect(await redis.inspect.pttl(key), `run ${run} ${name}`).toBeGreaterThan(0);
      }
    }
  });

  /** The code of a case as the core keeps it after the try, and the outcome it answers. */
  function coreVerify(row: VerifyCase) {
    const kept = row.kept === undefined ? undefined : { ...row.kept };
    const { result, write } = decideVerify(kept, row.candidate, row.now);
    if (kept !== undefined && write !== undefined) Object.assign(kept, write);
    return { kept, outcome: verifyOutcome(result, kept) };
  }

  it.each(VERIFY_CASES)('verification: $name', async (row) => {
    const shared = await store();
    const key = KEYS.code(CASE_MERCHANT, CASE_EMAIL);
    if (row.kept !== undefined) await redis.inspect.hset(key, codeFields(row.kept));
    shared.clock?.set(row.now);
    const outcome = await shared.codes.verify(CASE_MERCHANT, CASE_EMAIL, row.candidate, row.now);
    const core = coreVerify(row);
    expect(outcome).toEqual(core.outcome);
    expect(outcome.result).toBe(row.expected.result);
    const after = await redis.inspect.hgetall(key);
    if (row.kept === undefined) {
      expect(after).toEqual({});
      return;
    }
    expect(after).toEqual(codeFields(core.kept as OtpCode));
    expect({ attemptsLeft: Number(after.a), used: after.used === '1' }).toEqual(row.expected.after);
  });

  it('compares codes as constantTimeEqual does, byte for byte, whatever the lengths', async () => {
    const texts = [
      '123456',
      '123457',
      '023456',
      '12345',
      '1234567',
      '',
      '\u0000',
      'é',
      'e',
      '١٢٣٤٥٦',
    ];
    const random = createSeededRandom(7);
    const digits = () =>
      Array.from({ length: 1 + Math.floor(random.next() * 8) }, () =>
        String(Math.floor(random.next() * 3)),
      ).join('');
    const pairs: Array<[string, string]> = texts.flatMap((kept) =>
      texts.map((tried): [string, string] => [kept, tried]),
    );
    for (let index = 0; index < 200; index++) pairs.push([digits(), digits()]);
    const compare = `${SAME_TEXT}\nif same(ARGV[1], ARGV[2]) then return 1 else return 0 end`;
    for (const [kept, tried] of pairs) {
      const answer = await redis.inspect.eval(compare, 0, kept, tried);
      expect(answer === 1, JSON.stringify([kept, tried])).toBe(constantTimeEqual(kept, tried));
    }
  });
});

describe('the verify script', () => {
  it('compares the code tried with the code kept without an early exit (no == on the code)', () => {
    expect(VERIFY_SCRIPT).toContain('same(f[3], ARGV[3])');
    expect(VERIFY_SCRIPT).not.toMatch(
      /f\[3\]\s*[=~]=|[=~]=\s*f\[3\]|ARGV\[3\]\s*[=~]=|[=~]=\s*ARGV\[3\]/,
    );
    // The comparison reads every byte tried, and the answer once at the end.
    expect(SAME_TEXT).toMatch(/for i = 1, #tried do/);
    expect(SAME_TEXT.match(/\breturn\b/g)).toHaveLength(1);
  });
});

/** A code as the issue script writes it. */
function codeFields(code: OtpCode): Record<string, string> {
  return {
    m: code.merchantId,
    e: code.email,
    c: code.code,
    i: String(code.issuedAt),
    x: String(code.expiresAt),
    a: String(code.attemptsLeft),
    used: code.used ? '1' : '0',
  };
}
