import type { BucketSort, BucketView } from '../core/limits/bucket-view.js';
import type { RequestRecord } from '../core/admin/records.js';

/** Orders the bucket table cycles through with `s`. */
export const SORTS: BucketSort[] = ['pressure', 'recent', 'rejected', 'key'];

/** Seconds of request rates kept for the sparkline. */
export const RATE_WINDOW = 30;

/** Requests kept in the recent list. */
export const RECENT_LIMIT = 50;

/** Everything the screen shows. Changed only by {@link reduce}. */
export interface TuiState {
  connection: 'connecting' | 'connected' | 'lost';
  /** Why the connection was lost, when it was. */
  problem: string | undefined;
  buckets: BucketView[];
  totalBuckets: number;
  /** How long the target has been up, as of the last poll. */
  uptimeMs: number | undefined;
  recent: RequestRecord[];
  /** Requests and 429s per second (by the time the server stamped them), oldest first. */
  rates: Array<{ second: number; requests: number; rejected: number }>;
  totals: { requests: number; rejected: number };
  selected: number;
  sort: BucketSort;
  filter: string;
  editingFilter: boolean;
  paused: boolean;
  help: boolean;
  /** A short notice in the footer, such as "reset caller:demo:x". */
  notice: string | undefined;
}

/** What can happen to the screen. */
export type TuiAction =
  | { type: 'connected' }
  | { type: 'lost'; problem: string }
  | { type: 'buckets'; total: number; buckets: BucketView[]; uptimeMs?: number | undefined }
  | { type: 'requests'; records: RequestRecord[] }
  | { type: 'move'; by: number }
  | { type: 'sort' }
  | { type: 'pause' }
  | { type: 'help' }
  | { type: 'filter-start' }
  | { type: 'filter-type'; text: string }
  | { type: 'filter-erase' }
  | { type: 'filter-end'; keep: boolean }
  | { type: 'notice'; text: string | undefined };

/** The screen before anything is known. */
export function initialState(): TuiState {
  return {
    connection: 'connecting',
    problem: undefined,
    buckets: [],
    totalBuckets: 0,
    uptimeMs: undefined,
    recent: [],
    rates: [],
    totals: { requests: 0, rejected: 0 },
    selected: 0,
    sort: 'pressure',
    filter: '',
    editingFilter: false,
    paused: false,
    help: false,
    notice: undefined,
  };
}

/** The pure transition of the screen's state. Reads no clock: times come in the actions. */
export function reduce(state: TuiState, action: TuiAction): TuiState {
  switch (action.type) {
    case 'connected':
      return { ...state, connection: 'connected', problem: undefined };
    case 'lost':
      return { ...state, connection: 'lost', problem: action.problem };
    case 'buckets':
      if (state.paused) return { ...state, uptimeMs: action.uptimeMs ?? state.uptimeMs };
      return {
        ...state,
        buckets: action.buckets,
        totalBuckets: action.total,
        uptimeMs: action.uptimeMs ?? state.uptimeMs,
        selected: clamp(state.selected, action.buckets.length),
      };
    case 'requests':
      return addRequests(state, action.records);
    case 'move':
      return { ...state, selected: clamp(state.selected + action.by, state.buckets.length) };
    case 'sort':
      return {
        ...state,
        sort: SORTS[(SORTS.indexOf(state.sort) + 1) % SORTS.length] as BucketSort,
        selected: 0,
      };
    case 'pause':
      return {
        ...state,
        paused: !state.paused,
        notice: state.paused ? 'resumed' : 'paused: the screen is frozen, p to resume',
      };
    case 'help':
      return { ...state, help: !state.help };
    case 'filter-start':
      return { ...state, editingFilter: true };
    case 'filter-type':
      return { ...state, filter: state.filter + action.text };
    case 'filter-erase':
      return { ...state, filter: state.filter.slice(0, -1) };
    case 'filter-end':
      return {
        ...state,
        editingFilter: false,
        filter: action.keep ? state.filter : '',
        selected: 0,
      };
    case 'notice':
      return { ...state, notice: action.text };
  }
}

function addRequests(state: TuiState, records: RequestRecord[]): TuiState {
  if (records.length === 0) return state;
  const rates = [...state.rates];
  let requests = state.totals.requests;
  let rejected = state.totals.rejected;
  for (const record of records) {
    const second = Math.floor(record.at / 1000);
    const limited = record.status === 429;
    requests++;
    if (limited) rejected++;
    let slot = rates[rates.length - 1];
    if (slot === undefined || slot.second < second) {
      // Seconds without requests count as zero, so the sparkline keeps time.
      for (let missing = (slot?.second ?? second - 1) + 1; missing <= second; missing++)
        rates.push({ second: missing, requests: 0, rejected: 0 });
      slot = rates[rates.length - 1] as (typeof rates)[number];
    } else if (slot.second > second) {
      slot = rates.find((entry) => entry.second === second) ?? slot;
    }
    slot.requests++;
    if (limited) slot.rejected++;
  }
  const recent = state.paused
    ? state.recent
    : [...records.slice(-RECENT_LIMIT).reverse(), ...state.recent].slice(0, RECENT_LIMIT);
  return {
    ...state,
    rates: rates.slice(-RATE_WINDOW).map((entry) => ({ ...entry })),
    totals: { requests, rejected },
    recent,
  };
}

function clamp(index: number, length: number): number {
  return Math.max(0, Math.min(index, length - 1));
}

/** Requests and 429s in the last complete second. */
export function currentRates(state: TuiState): { requests: number; rejected: number } {
  const last = state.rates[state.rates.length - 2] ?? state.rates[state.rates.length - 1];
  return { requests: last?.requests ?? 0, rejected: last?.rejected ?? 0 };
}
