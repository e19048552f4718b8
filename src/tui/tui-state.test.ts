import { describe, expect, it } from 'vitest';
import { bucketView } from '../../test/helpers/bucket-view.js';
import { requestRecord } from '../../test/helpers/request-record.js';
import type { RequestRecord } from '../core/admin/records.js';
import {
  currentRates,
  initialState,
  reduce,
  RECENT_LIMIT,
  type TuiAction,
  type TuiState,
} from './tui-state.js';

const record = (id: number, at: number, status = 200): RequestRecord =>
  requestRecord({
    id,
    at,
    caller_id: 'x',
    bucket: 'caller:demo:x',
    level: 'caller',
    status,
    outcome: status === 429 ? 'rate-limited' : 'allowed',
    remaining: 1,
  });

const bucket = (key: string) => bucketView(key);

const apply = (...actions: TuiAction[]): TuiState => actions.reduce(reduce, initialState());

describe('reduce', () => {
  it('counts requests and 429s per second of server time, with empty seconds in between', () => {
    const state = apply({
      type: 'requests',
      records: [record(1, 1000), record(2, 1500, 429), record(3, 3200)],
    });
    expect(state.rates).toEqual([
      { second: 1, requests: 2, rejected: 1 },
      { second: 2, requests: 0, rejected: 0 },
      { second: 3, requests: 1, rejected: 0 },
    ]);
    expect(state.totals).toEqual({ requests: 3, rejected: 1 });
    expect(currentRates(state)).toEqual({ requests: 0, rejected: 0 });
    expect(state.recent.map((entry) => entry.id)).toEqual([3, 2, 1]);
  });

  it('keeps at most the recent limit of requests', () => {
    const records = Array.from({ length: RECENT_LIMIT + 10 }, (_, index) => record(index, index));
    expect(apply({ type: 'requests', records }).recent).toHaveLength(RECENT_LIMIT);
  });

  it('freezes buckets and recent requests while paused, but keeps counting', () => {
    const paused = apply(
      { type: 'buckets', total: 1, buckets: [bucket('a')] },
      { type: 'pause' },
      { type: 'buckets', total: 2, buckets: [bucket('b'), bucket('c')] },
      { type: 'requests', records: [record(1, 0)] },
    );
    expect(paused.buckets.map((entry) => entry.key)).toEqual(['a']);
    expect(paused.recent).toEqual([]);
    expect(paused.totals.requests).toBe(1);
    expect(reduce(paused, { type: 'pause' }).paused).toBe(false);
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

  it('tracks the connection', () => {
    const lost = apply({ type: 'connected' }, { type: 'lost', problem: 'ECONNREFUSED' });
    expect(lost).toMatchObject({ connection: 'lost', problem: 'ECONNREFUSED' });
    expect(reduce(lost, { type: 'connected' })).toMatchObject({
      connection: 'connected',
      problem: undefined,
    });
  });
});
