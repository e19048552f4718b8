import { describe, expect, it } from 'vitest';
import { requestRecord } from '../../test/helpers/request-record.js';
import type { EmulatorEvent } from '../core/records/records.js';
import {
  addJournal,
  CODES_KEPT,
  applyEvents,
  busiestBuckets,
  emptyLiveState,
  REQUESTS_KEPT,
  seriesColumns,
  SERIES_SECONDS,
  withCodesRead,
} from './live-state.js';

const request = (id: number, at: number, status = 200, bucket = 'caller:demo:a') =>
  ({
    type: 'request',
    request: requestRecord({
      id,
      at,
      status,
      bucket,
      level: bucket.startsWith('client') ? 'client' : 'caller',
    }),
  }) as EmulatorEvent;

describe('applyEvents', () => {
  it('counts allowed and refused requests per level, per bucket and per second', () => {
    const state = applyEvents(emptyLiveState(), [
      request(1, 1_000, 200),
      request(2, 1_500, 429),
      request(3, 2_100, 200, 'client:demo'),
    ]);
    expect(state.levels).toEqual({
      client: { allowed: 1, refused: 0 },
      caller: { allowed: 1, refused: 1 },
    });
    expect(state.buckets.get('caller:demo:a')).toEqual({ allowed: 1, refused: 1 });
    expect(state.series).toEqual([
      [1, 2, 1],
      [2, 1, 0],
    ]);
    expect(state.requests.map((each) => each.id)).toEqual([1, 2, 3]);
  });

  it('keeps a request once when the journal and the stream both bring it', () => {
    const once = addJournal(emptyLiveState(), [requestRecord({ id: 7 })]);
    const twice = applyEvents(once, [{ type: 'request', request: requestRecord({ id: 7 }) }]);
    expect(twice.requests).toHaveLength(1);
    expect(twice).toBe(once);
  });

  it('keeps requests of another instance with the same id apart, and counts that instance', () => {
    const state = applyEvents(emptyLiveState(), [
      { type: 'request', request: requestRecord({ id: 1 }) },
      { type: 'request', request: requestRecord({ id: 1 }), from: 'other' },
    ]);
    expect(state.requests).toHaveLength(2);
    expect([...state.instances]).toEqual(['other']);
  });

  it('counts every request of another instance, even one whose id came before, as after its reset its ids start again', () => {
    const other = (id: number) =>
      ({ type: 'request', request: requestRecord({ id }), from: 'b' }) as EmulatorEvent;
    const state = applyEvents(emptyLiveState(), [
      other(900),
      { type: 'reset', bucket: undefined, emulator: true },
      other(901), // answered by b before it heard of the reset
      other(1),
      other(2),
    ]);
    expect(state.total).toBe(3);
    expect(state.requests.map((each) => each.id)).toEqual([901, 1, 2]);
  });

  it('counts an invalid request, an unauthenticated one and a fault in the total, but neither allowed nor refused', () => {
    const state = applyEvents(emptyLiveState(), [
      request(1, 0, 200),
      {
        type: 'request',
        request: requestRecord({
          id: 2,
          status: 400,
          outcome: 'invalid',
          level: 'caller',
          bucket: 'caller:demo:a',
        }),
      },
      {
        type: 'request',
        request: requestRecord({ id: 3, status: 401, outcome: 'unauthenticated' }),
      },
      {
        type: 'request',
        request: requestRecord({
          id: 4,
          status: 503,
          outcome: 'injected-fault',
          level: 'caller',
          bucket: 'caller:demo:a',
        }),
      },
      request(5, 0, 429),
    ]);
    expect(state.total).toBe(5);
    expect(state.levels.caller).toEqual({ allowed: 1, refused: 1 });
    expect(state.buckets.get('caller:demo:a')).toEqual({ allowed: 1, refused: 1 });
    expect(state.series).toEqual([[0, 5, 1]]);
  });

  it('lists whole records without counting them again, and counts summaries without listing them', () => {
    const counted = applyEvents(emptyLiveState(), [request(1, 0), request(2, 0)], 'count');
    const listed = applyEvents(counted, [request(1, 0), request(2, 0), request(3, 0)], 'list');
    expect([listed.total, listed.requests.length]).toEqual([2, 3]);
    // A reset comes with the summaries; the stream of whole records leaves it to them.
    const reset = { type: 'reset', bucket: undefined, emulator: true } as const;
    expect(applyEvents(listed, [reset], 'list')).toBe(listed);
    expect(applyEvents(listed, [reset], 'count').requests).toEqual([]);
  });

  it('starts the totals again on a reset of the emulator, counting the reset, and forgets one bucket on its reset', () => {
    const busy = applyEvents(emptyLiveState(), [request(1, 0), request(2, 0, 200, 'client:demo')]);
    const oneBucket = applyEvents(busy, [
      { type: 'reset', bucket: 'client:demo', emulator: false },
    ]);
    expect([...oneBucket.buckets.keys()]).toEqual(['caller:demo:a']);
    const reset = applyEvents(busy, [
      { type: 'reset', bucket: undefined, emulator: true },
      request(3, 0),
    ]);
    expect(reset.resets).toBe(1);
    expect(reset.requests.map((each) => each.id)).toEqual([3]);
    expect(reset.levels.caller).toEqual({ allowed: 1, refused: 0 });
  });

  it('does not change the state it was given', () => {
    const before = applyEvents(emptyLiveState(), [request(1, 0)]);
    const snapshot = structuredClone({
      ...before,
      buckets: [...before.buckets],
    });
    applyEvents(before, [request(2, 0, 429)]);
    expect({ ...before, buckets: [...before.buckets] }).toEqual(snapshot);
  });

  it('keeps the newest requests up to its bound, and counts every one', () => {
    const events = Array.from({ length: REQUESTS_KEPT + 5 }, (_, index) => request(index + 1, 0));
    const state = applyEvents(emptyLiveState(), events);
    expect(state.requests).toHaveLength(REQUESTS_KEPT);
    expect(state.requests[0]?.id).toBe(6);
    expect(state.total).toBe(REQUESTS_KEPT + 5);
  });

  it('counts summaries without listing them; the journal lists them later, counted once', () => {
    const summary = (id: number, status: number) =>
      ({
        type: 'request',
        request: {
          id,
          at: 1_000,
          status,
          outcome: 'allowed',
          level: 'caller',
          bucket: 'caller:demo:a',
        },
      }) as unknown as EmulatorEvent;
    const counted = applyEvents(emptyLiveState(), [summary(1, 200), summary(2, 429)], 'count');
    expect(counted.total).toBe(2);
    expect(counted.levels.caller).toEqual({ allowed: 1, refused: 1 });
    expect(counted.requests).toEqual([]);
    // The page that lists requests asks for whole records: the journal brings those missed.
    const listed = addJournal(counted, [requestRecord({ id: 1 }), requestRecord({ id: 2 })]);
    expect(listed.requests.map((each) => each.id)).toEqual([1, 2]);
    expect(listed.total).toBe(2);
    expect(listed.levels).toEqual(counted.levels);
    const more = applyEvents(listed, [request(3, 2_000)]);
    expect([more.total, more.requests.length]).toEqual([3, 3]);
  });

  it('lists codes newest first', () => {
    const code = (email: string) =>
      ({
        type: 'code',
        code: {
          email,
          code: '1',
          merchant_id: 'm',
          issued_at: '',
          expires_at: '',
          attempts_left: 5,
          used: false,
        },
      }) as EmulatorEvent;
    const state = applyEvents(emptyLiveState(), [code('a@x'), code('b@x')]);
    expect(state.codes.map((each) => each.email)).toEqual(['b@x', 'a@x']);
  });

  it('takes the attempts left and verified of each code as the server lists it, and adds one it had not heard of', () => {
    const code = (email: string, issued_at: string, extra: object = {}) => ({
      email,
      code: '1',
      merchant_id: 'm',
      issued_at,
      expires_at: '',
      attempts_left: 5,
      used: false,
      ...extra,
    });
    const state = applyEvents(emptyLiveState(), [
      { type: 'code', code: code('a@x', '2026-01-01T00:00:01Z') },
    ]);
    const read = withCodesRead(state, [
      code('A@x', '2026-01-01T00:00:01Z', { attempts_left: 4, used: true }),
      code('b@x', '2026-01-01T00:00:02Z'),
    ]);
    expect(read.codes.map((each) => [each.email, each.attempts_left, each.used])).toEqual([
      ['b@x', 5, false],
      ['A@x', 4, true],
    ]);
    expect(withCodesRead(read, read.codes)).toBe(read);
    // The event of a code read while it waited replaces it, rather than list it twice.
    const again = applyEvents(read, [{ type: 'code', code: code('b@x', '2026-01-01T00:00:02Z') }]);
    expect(again.codes.map((each) => each.email)).toEqual(['b@x', 'A@x']);
    // Of many, the newest are kept.
    const many = Array.from({ length: CODES_KEPT + 5 }, (_, index) =>
      code(`u${index}@x`, new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString()),
    );
    const kept = withCodesRead(emptyLiveState(), many).codes;
    expect([kept.length, kept[0]?.email]).toEqual([CODES_KEPT, `u${CODES_KEPT + 4}@x`]);
  });

  it('puts a code the server lists before one of the same time it no longer lists (a manual clock issues both at one instant)', () => {
    const code = (digits: string) => ({
      email: 'a@x',
      code: digits,
      merchant_id: 'm',
      issued_at: '2020-01-01T00:00:00.000Z',
      expires_at: '2020-01-01T00:10:00.000Z',
      attempts_left: 5,
      used: false,
    });
    // The page heard of 111111; 222222 replaced it while the page was not connected.
    const state = applyEvents(emptyLiveState(), [{ type: 'code', code: code('111111') }]);
    const read = withCodesRead(state, [code('222222')]);
    expect(read.codes.map((each) => each.code)).toEqual(['222222', '111111']);
  });

  it('counts the verify requests, after which the inbox reads the codes again', () => {
    const verify = (id: number) =>
      ({
        type: 'request',
        request: requestRecord({ id, operation: 'verify' }),
      }) as EmulatorEvent;
    const state = applyEvents(emptyLiveState(), [verify(1), verify(2)], 'count');
    expect(state.verifies).toBe(2);
    expect(applyEvents(state, [verify(2)], 'count').verifies).toBe(2);
  });
});

describe('seriesColumns and busiestBuckets', () => {
  it('fills the seconds without requests with zeros, over a fixed window ending now', () => {
    const [times, all, refused] = seriesColumns([[98, 3, 1]], 100);
    expect(times).toHaveLength(SERIES_SECONDS);
    expect(times.at(-1)).toBe(100);
    expect(all.slice(-3)).toEqual([3, 0, 0]);
    expect(refused.slice(-3)).toEqual([1, 0, 0]);
  });

  it('puts the buckets with the most requests first', () => {
    const buckets = new Map([
      ['a', { allowed: 1, refused: 0 }],
      ['b', { allowed: 1, refused: 5 }],
    ]);
    expect(busiestBuckets(buckets, 1)).toEqual([{ key: 'b', allowed: 1, refused: 5 }]);
  });
});
