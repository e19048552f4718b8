import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../../demo-config.js';
import { createCoreEmulator } from '../create-core-emulator.js';
import { isConfigError } from '../config/config-error.js';
import { createManualClock } from '../time/clock.js';
import { createSeededRandom } from '../time/random.js';

/** An emulator that has answered three starts, from three caller_ids. */
function withTraffic() {
  const uas = createCoreEmulator({
    config: DEMO_CONFIG,
    clock: createManualClock(0),
    random: createSeededRandom(1),
  });
  for (const callerId of ['192.0.2.1', '192.0.2.2', '192.0.2.3'])
    uas.handle({
      method: 'POST',
      url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', caller_id: callerId }),
    });
  return uas;
}

/** The message of the ConfigError `call` throws. */
function refusal(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    if (isConfigError(error)) return error.message;
    throw error;
  }
  throw new Error('nothing was refused');
}

describe('requests(filter) in process', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'a misspelt field, which matched every request',
      { opertion: 'start' },
      /opertion: unknown field \(did you mean "operation"\?\)/,
    ],
    [
      'an e-mail that is not text, which threw from toLowerCase',
      { email: 5 },
      /email: expected a string; got 5/,
    ],
    [
      'a status given as text, which matched none',
      { status: '200' },
      /status: expected a number; got "200"/,
    ],
    ['an operation it does not have', { operation: 'stat' }, /operation: expected one of/],
    ['no filter at all (null)', null, /expected an object; got null/],
  ])('refuses %s with a ConfigError naming it', (_what, filter, why) => {
    const uas = withTraffic();
    expect(refusal(() => uas.requests(filter as never))).toMatch(/^invalid filter of requests: /);
    expect(refusal(() => uas.requests(filter as never))).toMatch(why);
  });

  it('refuses a limit that is not a whole number of requests, and still takes the filters it documents', () => {
    const uas = withTraffic();
    expect(refusal(() => uas.requests({}, -1))).toMatch(/limit: expected a whole number/);
    expect(refusal(() => uas.requests({}, 1.5))).toMatch(/limit: expected a whole number/);
    expect(uas.requests({ operation: 'start', callerId: '192.0.2.2' })).toHaveLength(1);
    expect(uas.requests({ callerId: null, status: 200, afterId: 1 }, 5)).toHaveLength(0);
    expect(uas.requests(undefined, 2)).toHaveLength(2);
  });
});

describe('listBuckets(query) in process', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'a sort it does not have, which threw compare is not a function',
      { sort: 'bogus' },
      /sort: expected one of/,
    ],
    [
      'an offset given as text, which skipped a bucket too few',
      { offset: '1' },
      /offset: expected a number; got "1"/,
    ],
    [
      'a limit of NaN, which listed every bucket',
      { limit: NaN },
      /limit: expected a number; got NaN/,
    ],
    [
      'a misspelt field, which was ignored',
      { serach: 'caller' },
      /serach: unknown field \(did you mean "search"\?\)/,
    ],
  ])('refuses %s with a ConfigError naming it', (_what, query, why) => {
    const uas = withTraffic();
    expect(refusal(() => uas.listBuckets(query as never))).toMatch(/^invalid query of buckets: /);
    expect(refusal(() => uas.listBuckets(query as never))).toMatch(why);
  });

  it('still lists a page of the buckets it is asked for', () => {
    const uas = withTraffic();
    expect(uas.listBuckets({ level: 'caller', sort: 'key', offset: 1, limit: 1 })).toMatchObject({
      total: 3,
      buckets: [{ key: 'caller:demo:192.0.2.2' }],
    });
    expect(uas.listBuckets({ limit: 0 }).total).toBe(3);
  });
});

describe('latestCode, getBucket and resetBuckets in process', () => {
  it.each<[string, () => unknown, RegExp]>([
    [
      'an e-mail left undefined',
      () => withTraffic().latestCode(undefined as never),
      /latestCode: email must be a string; got undefined/,
    ],
    [
      'a merchant id that is a number',
      () => withTraffic().latestCode('alice@example.com', 5 as never),
      /latestCode: merchantId must be a string; got 5/,
    ],
    [
      'a bucket key that is a number',
      () => withTraffic().getBucket(5 as never),
      /getBucket: key must be a string; got 5/,
    ],
    [
      'a bucket key of null, which reset nothing',
      () => withTraffic().resetBuckets(null as never),
      /resetBuckets: key must be a string, or left out to reset every bucket; got null/,
    ],
  ])('refuses %s with a TypeError naming it', (_what, call, why) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(why);
  });
});
