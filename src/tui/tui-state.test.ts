import { describe, expect, it } from 'vitest';
import { bucketView } from '../../test/helpers/bucket-view.js';
import { codeRecord } from '../../test/helpers/code-record.js';
import { requestRecord } from '../../test/helpers/request-record.js';
import type { RequestRecord } from '../core/records/records.js';
import {
  completeSeconds,
  currentRates,
  FILTER_MAX,
  initialState,
  NOTICE_TICKS,
  RATE_WINDOW,
  reduce,
  RECENT_LIMIT,
  type TuiAction,
  type TuiState,
} from './tui-state.js';

const record = (id: number, status = 200): RequestRecord =>
  requestRecord({
    id,
    at: id,
    caller_id: 'x',
    bucket: 'caller:demo:x',
    level: 'caller',
    status,
    outcome: status === 429 ? 'rate-limited' : 'allowed',
    remaining: 1,
  });

const bucket = (key: string) => bucketView(key);

const CODE = codeRecord();

const apply = (...actions: TuiAction[]): TuiState => actions.reduce(reduce, initialState());

/** Freezes a value and everything it holds, so a reducer that changes it throws. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}

describe('reduce', () => {
  it('shows no rows read before once the bucket list cannot be read: they are not known, and the header counts ? buckets', () => {
    const read = apply({ type: 'buckets', total: 1, buckets: [bucket('client:demo')] });
    const failed = reduce(read, { type: 'buckets-failed', problem: 'admin token refused' });
    expect(failed.buckets).toEqual([]);
    expect(failed.bucketsRead).toBe(false);
    expect(failed.bucketsProblem).toBe('admin token refused');
    // Read again: shown again.
    const again = reduce(failed, { type: 'buckets', total: 1, buckets: [bucket('client:demo')] });
    expect(again.buckets.map((row) => row.key)).toEqual(['client:demo']);
    expect(again.bucketsRead).toBe(true);
    // Paused, the screen stays as it was; a list read before the failure is not shown on resume.
    const paused = reduce(
      reduce(reduce(read, { type: 'pause' }), {
        type: 'buckets',
        total: 2,
        buckets: [bucket('client:demo'), bucket('caller:demo:x')],
      }),
      { type: 'buckets-failed', problem: 'gone' },
    );
    expect(paused.buckets.map((row) => row.key)).toEqual(['client:demo']);
    expect(paused.heldBuckets).toBeUndefined();
  });

  it('counts requests and 429s in the second they arrive, with empty seconds in between', () => {
    const state = apply(
      { type: 'requests', records: [record(1), record(2, 429)], now: 1000 },
      { type: 'requests', records: [record(3)], now: 1500 },
      { type: 'requests', records: [record(4)], now: 3200 },
    );
    expect(state.rates).toEqual([
      { second: 1, requests: 3, rejected: 1 },
      { second: 2, requests: 0, rejected: 0 },
      { second: 3, requests: 1, rejected: 0 },
    ]);
    expect(state.totals).toEqual({ requests: 4, rejected: 1 });
    expect(currentRates(state)).toEqual({ requests: 0, rejected: 0 });
    expect(state.recent.map((entry) => entry.id)).toEqual([4, 3, 2, 1]);
  });

  it('drops the rate to zero and scrolls the sparkline on ticks alone, with no request', () => {
    const busy = apply(
      { type: 'tick', now: 10_000 },
      { type: 'requests', records: [record(1), record(2), record(3)], now: 10_100 },
      { type: 'tick', now: 11_000 },
    );
    expect(currentRates(busy)).toEqual({ requests: 3, rejected: 0 });
    expect(completeSeconds(busy)).toEqual([3]);
    const idle = reduce(busy, { type: 'tick', now: 12_000 });
    expect(currentRates(idle)).toEqual({ requests: 0, rejected: 0 });
    expect(completeSeconds(idle)).toEqual([3, 0]);
    const later = reduce(idle, { type: 'tick', now: 15_500 });
    expect(completeSeconds(later)).toEqual([3, 0, 0, 0, 0]);
    expect(later.totals.requests).toBe(3);
    // A tick within the same second changes nothing (no new frame).
    expect(reduce(later, { type: 'tick', now: 15_900 })).toBe(later);
  });

  it('keeps only the rate window when the clock jumps far ahead', () => {
    const state = apply({ type: 'tick', now: 0 }, { type: 'tick', now: 3_600_000 });
    expect(state.rates).toHaveLength(RATE_WINDOW + 1);
    expect(state.rates.at(-1)?.second).toBe(3600);
    expect(completeSeconds(state)).toEqual(Array.from({ length: RATE_WINDOW }, () => 0));
  });

  it('never changes the state it is given, whatever the action', () => {
    const actions: TuiAction[] = [
      { type: 'connected' },
      { type: 'tick', now: 1000 },
      { type: 'buckets', total: 2, buckets: [bucket('a'), bucket('b')], uptimeMs: 5 },
      { type: 'seed', records: [record(3), record(4, 429)], missed: 2 },
      { type: 'requests', records: [record(5), record(6, 429)], now: 1200 },
      { type: 'requests', records: [record(7)], now: 1300 },
      { type: 'tick', now: 2500 },
      { type: 'requests', records: [record(8)], now: 2600 },
      { type: 'move', by: 1 },
      { type: 'pause' },
      { type: 'requests', records: [record(9)], now: 2700 },
      { type: 'buckets', total: 1, buckets: [bucket('c')] },
      { type: 'pause' },
      { type: 'gap', missed: 3 },
      { type: 'sort' },
      { type: 'filter-start' },
      { type: 'filter-type', text: 'ab' },
      { type: 'filter-erase' },
      { type: 'filter-end', keep: true },
      { type: 'help' },
      { type: 'notice', text: 'hello' },
      { type: 'tick', now: 2800 },
      { type: 'code', code: CODE },
      { type: 'lost', problem: 'ECONNREFUSED' },
      { type: 'restart' },
      { type: 'requests', records: [record(1)], now: 3000 },
    ];
    let state = deepFreeze(initialState());
    for (const action of actions) {
      const copy = structuredClone(state);
      const next = reduce(state, deepFreeze(action));
      expect(state).toEqual(copy);
      state = deepFreeze(next);
    }
    expect(state.totals).toEqual({ requests: 1, rejected: 0 });
    expect(state.rates.at(-1)).toEqual({ second: 3, requests: 1, rejected: 0 });
  });

  it('keeps at most the recent limit of requests', () => {
    const records = Array.from({ length: RECENT_LIMIT + 10 }, (_, index) => record(index + 1));
    const state = apply({ type: 'requests', records, now: 0 });
    expect(state.recent).toHaveLength(RECENT_LIMIT);
    expect(state.recent[0]?.id).toBe(RECENT_LIMIT + 10);
    expect(state.totals.requests).toBe(RECENT_LIMIT + 10);
  });

  it('seeds the totals and recent requests from the journal, and says when it had let some go', () => {
    const full = apply({ type: 'seed', records: [record(1), record(2, 429)], missed: 0 });
    expect(full).toMatchObject({ totals: { requests: 2, rejected: 1 }, countedFrom: undefined });
    expect(full.recent.map((entry) => entry.id)).toEqual([2, 1]);
    expect(full.rates).toEqual([]);
    const partial = apply({ type: 'seed', records: [record(8), record(9)], missed: 7 });
    expect(partial).toMatchObject({ totals: { requests: 2, rejected: 0 }, countedFrom: 8 });
    expect(partial.notice).toBe(
      'the journal no longer holds the 7 oldest requests: totals count from #8',
    );
  });

  it('starts the totals again when the emulator is reset, and counts what was missed', () => {
    const state = apply(
      { type: 'seed', records: [record(5)], missed: 4 },
      { type: 'gap', missed: 2 },
    );
    expect(state).toMatchObject({ missed: 2, countedFrom: 5 });
    expect(reduce(state, { type: 'restart' })).toMatchObject({
      totals: { requests: 0, rejected: 0 },
      recent: [],
      missed: 0,
      countedFrom: undefined,
    });
  });

  it('freezes buckets and recent requests while paused, counts on, and shows both on resume', () => {
    const paused = apply(
      { type: 'buckets', total: 1, buckets: [bucket('a')] },
      { type: 'requests', records: [record(1)], now: 0 },
      { type: 'pause' },
      { type: 'buckets', total: 2, buckets: [bucket('b'), bucket('c')] },
      { type: 'requests', records: [record(2), record(3)], now: 0 },
      { type: 'requests', records: [record(4)], now: 0 },
    );
    expect(paused.buckets.map((entry) => entry.key)).toEqual(['a']);
    expect(paused.recent.map((entry) => entry.id)).toEqual([1]);
    expect(paused.totals.requests).toBe(4);
    const resumed = reduce(paused, { type: 'pause' });
    expect(resumed.paused).toBe(false);
    expect(resumed.recent.map((entry) => entry.id)).toEqual([4, 3, 2, 1]);
    expect(resumed.buckets.map((entry) => entry.key)).toEqual(['b', 'c']);
    expect(resumed.totalBuckets).toBe(2);
    expect(resumed.held).toEqual([]);
  });

  it('keeps the selection within the list', () => {
    const state = apply(
      { type: 'buckets', total: 2, buckets: [bucket('a'), bucket('b')] },
      { type: 'move', by: 5 },
    );
    expect(state.selected).toBe(1);
    expect(reduce(state, { type: 'move', by: -9 }).selected).toBe(0);
    expect(reduce(state, { type: 'buckets', total: 1, buckets: [bucket('a')] }).selected).toBe(0);
  });

  it('cycles the sort and edits, keeps or clears the filter', () => {
    expect(apply({ type: 'sort' }).sort).toBe('recent');
    expect(apply({ type: 'sort' }, { type: 'sort' }, { type: 'sort' }, { type: 'sort' }).sort).toBe(
      'pressure',
    );
    const typed = apply(
      { type: 'filter-start' },
      { type: 'filter-type', text: 'bo' },
      { type: 'filter-type', text: 'tt' },
      { type: 'filter-erase' },
    );
    expect(typed).toMatchObject({ editingFilter: true, filter: 'bot' });
    expect(reduce(typed, { type: 'filter-end', keep: true })).toMatchObject({
      editingFilter: false,
      filter: 'bot',
    });
    expect(reduce(typed, { type: 'filter-end', keep: false }).filter).toBe('');
  });

  it('tracks the connection and whether the admin token is the problem', () => {
    const lost = apply({ type: 'connected' }, { type: 'lost', problem: 'ECONNREFUSED' });
    expect(lost).toMatchObject({ connection: 'lost', problem: 'ECONNREFUSED' });
    expect(reduce(lost, { type: 'connected' })).toMatchObject({
      connection: 'connected',
      problem: undefined,
    });
    expect(
      reduce(lost, { type: 'lost', problem: 'needs a token', needsAdminToken: true }),
    ).toMatchObject({ needsAdminToken: true });
  });

  it('drops a notice after NOTICE_TICKS ticks, counted from the last time it changed', () => {
    let state = apply({ type: 'tick', now: 0 }, { type: 'notice', text: 'reset all buckets' });
    for (let tick = 1; tick < NOTICE_TICKS; tick++) state = reduce(state, { type: 'tick', now: 0 });
    expect(state.notice).toBe('reset all buckets');
    // A new notice starts again.
    state = reduce(state, { type: 'notice', text: 'reset caller:demo:x' });
    for (let tick = 1; tick < NOTICE_TICKS; tick++) state = reduce(state, { type: 'tick', now: 0 });
    expect(state.notice).toBe('reset caller:demo:x');
    state = reduce(state, { type: 'tick', now: 0 });
    expect(state.notice).toBeUndefined();
  });

  it('keeps the latest code until the emulator is reset, and a filter of at most FILTER_MAX', () => {
    const state = apply({ type: 'code', code: CODE });
    expect(state.code).toEqual(CODE);
    expect(reduce(state, { type: 'restart' }).code).toBeUndefined();
    const long = apply({ type: 'filter-start' }, { type: 'filter-type', text: 'x'.repeat(500) });
    expect(long.filter).toHaveLength(FILTER_MAX);
  });

  it('erases and caps the filter by characters, never leaving half of one', () => {
    const typed = apply({ type: 'filter-start' }, { type: 'filter-type', text: 'ab😀' });
    expect(reduce(typed, { type: 'filter-erase' }).filter).toBe('ab');
    const long = apply({ type: 'filter-start' }, { type: 'filter-type', text: 'x😀'.repeat(80) });
    expect(Array.from(long.filter)).toHaveLength(FILTER_MAX);
    expect(long.filter).toBe('x😀'.repeat(50));
  });
});
