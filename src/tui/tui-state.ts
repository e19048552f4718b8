import type { BucketSort, BucketView } from '../core/limits/bucket-view.js';
import type { CodeRecord, RequestRecord } from '../core/records/records.js';
import { pluralize } from '../text/pluralize.js';
import { addRates, moveRateWindow, rejectedIn, type RateSlot } from './rate-window.js';

export { completeSeconds, currentRates, RATE_WINDOW, type RateSlot } from './rate-window.js';

/** Orders the bucket table cycles through with `s`. */
export const SORTS: BucketSort[] = ['pressure', 'recent', 'rejected', 'key'];

/** Requests kept in the recent list: enough to fill a tall terminal. */
export const RECENT_LIMIT = 200;

/** Ticks a notice stays for: 5 s at one tick every 200 ms (`TICK_MS`). */
export const NOTICE_TICKS = 25;

/** The longest filter kept: a paste of more is cut there. */
export const FILTER_MAX = 100;

/** The bucket list as last polled. */
export interface BucketList {
  readonly total: number;
  readonly buckets: readonly BucketView[];
}

/** Everything the screen shows. Changed only by {@link reduce}, which never changes a state it is given. */
export interface TuiState {
  readonly connection: 'connecting' | 'connected' | 'lost';
  /** Why the connection was lost, when it was. */
  readonly problem: string | undefined;
  /** Whether the problem is the admin token (missing or wrong), which waiting does not fix. */
  readonly needsAdminToken: boolean;
  /** Whether the server has as many event readers as it allows: the problem says what to do. */
  readonly readersFull: boolean;
  readonly buckets: readonly BucketView[];
  readonly totalBuckets: number;
  /** Whether a bucket list has been read and shown: until then, none is known, not zero. */
  readonly bucketsRead: boolean;
  /** Why the last reading of the bucket list failed; undefined once one succeeds. */
  readonly bucketsProblem: string | undefined;
  /** The bucket list polled while paused, shown on resume. */
  readonly heldBuckets: BucketList | undefined;
  /** How long the target has been up, as of the last poll. */
  readonly uptimeMs: number | undefined;
  /** The latest requests shown, newest first. */
  readonly recent: readonly RequestRecord[];
  /** Requests that came while paused, newest first: shown on resume. */
  readonly held: readonly RequestRecord[];
  /**
   * Requests and 429s per second of the screen's clock, oldest first, without gaps; the last slot
   * is the second in progress. Moved on by ticks, so the figures fall to zero when traffic stops.
   */
  readonly rates: readonly RateSlot[];
  readonly totals: { readonly requests: number; readonly rejected: number };
  /**
   * The id of the first request the totals count when the journal no longer held the ones before
   * it as the screen attached; undefined when they count every request.
   */
  readonly countedFrom: number | undefined;
  /** Requests that happened while the screen was disconnected and had left the journal since. */
  readonly missed: number;
  readonly selected: number;
  readonly sort: BucketSort;
  readonly filter: string;
  readonly editingFilter: boolean;
  readonly paused: boolean;
  readonly help: boolean;
  /** A short notice in the footer, such as "reset caller:demo:x"; it goes after {@link NOTICE_TICKS}. */
  readonly notice: string | undefined;
  /** Ticks since the notice was set. */
  readonly noticeTicks: number;
  /** The latest one-time code the target issued, when the source tells codes. */
  readonly code: CodeRecord | undefined;
}

/** What can happen to the screen. Times come in the actions: the reducer reads no clock. */
export type TuiAction =
  | { type: 'connected' }
  | {
      type: 'lost';
      problem: string;
      needsAdminToken?: boolean | undefined;
      /** The server's event readers are all taken (a 503): the problem says what to do. */
      readersFull?: boolean | undefined;
    }
  | { type: 'buckets'; total: number; buckets: BucketView[]; uptimeMs?: number | undefined }
  /** The bucket list could not be read. */
  | { type: 'buckets-failed'; problem: string }
  /** The requests the target held when the screen attached (or after a reset), oldest first. */
  | { type: 'seed'; records: RequestRecord[]; missed: number }
  /** Requests that arrived at `now` (ms on the screen's clock), oldest first. */
  | { type: 'requests'; records: RequestRecord[]; now: number }
  /** Time passed: the rates move on to the second of `now`. */
  | { type: 'tick'; now: number }
  /** Requests missed while disconnected that the journal no longer holds. */
  | { type: 'gap'; missed: number }
  /** The emulator was reset: its journal and request ids start again. */
  | { type: 'restart' }
  /** The target issued a one-time code. */
  | { type: 'code'; code: CodeRecord }
  | { type: 'move'; by: number }
  | { type: 'sort' }
  /** Pauses or resumes the screen; `run`: the target's traffic is held too (a simulation). */
  | { type: 'pause'; run?: boolean | undefined }
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
    needsAdminToken: false,
    readersFull: false,
    buckets: [],
    totalBuckets: 0,
    bucketsRead: false,
    bucketsProblem: undefined,
    heldBuckets: undefined,
    uptimeMs: undefined,
    recent: [],
    held: [],
    rates: [],
    totals: { requests: 0, rejected: 0 },
    countedFrom: undefined,
    missed: 0,
    selected: 0,
    sort: 'pressure',
    filter: '',
    editingFilter: false,
    paused: false,
    help: false,
    notice: undefined,
    noticeTicks: 0,
    code: undefined,
  };
}

/**
 * The pure transition of the screen's state: a new state, the given one untouched. A notice
 * goes after {@link NOTICE_TICKS} ticks, so none stays on the screen for good.
 */
export function reduce(state: TuiState, action: TuiAction): TuiState {
  const next = step(state, action);
  if (next.notice !== state.notice) return { ...next, noticeTicks: 0 };
  if (action.type !== 'tick' || next.notice === undefined) return next;
  return next.noticeTicks + 1 >= NOTICE_TICKS
    ? { ...next, notice: undefined, noticeTicks: 0 }
    : { ...next, noticeTicks: next.noticeTicks + 1 };
}

/** What the keys do: the screen's own controls, over no data. */
type ControlAction = Extract<
  TuiAction,
  {
    type:
      | 'move'
      | 'sort'
      | 'pause'
      | 'help'
      | 'filter-start'
      | 'filter-type'
      | 'filter-erase'
      | 'filter-end'
      | 'notice';
  }
>;

function step(state: TuiState, action: TuiAction): TuiState {
  switch (action.type) {
    case 'move':
    case 'sort':
    case 'pause':
    case 'help':
    case 'filter-start':
    case 'filter-type':
    case 'filter-erase':
    case 'filter-end':
    case 'notice':
      return stepControl(state, action);
    default:
      return stepFeed(state, action);
  }
}

/** What the emulator tells: connection, buckets, requests, time, a reset, a code. */
function stepFeed(state: TuiState, action: Exclude<TuiAction, ControlAction>): TuiState {
  switch (action.type) {
    case 'connected':
      return {
        ...state,
        connection: 'connected',
        problem: undefined,
        needsAdminToken: false,
        readersFull: false,
      };
    case 'lost':
      return {
        ...state,
        connection: 'lost',
        problem: action.problem,
        needsAdminToken: action.needsAdminToken ?? false,
        readersFull: action.readersFull ?? false,
      };
    case 'buckets': {
      const uptimeMs = action.uptimeMs ?? state.uptimeMs;
      const list = { total: action.total, buckets: action.buckets };
      return state.paused
        ? { ...state, uptimeMs, heldBuckets: list, bucketsProblem: undefined }
        : showBuckets(state, list, uptimeMs);
    }
    case 'buckets-failed':
      // The rows read before are not shown as if they were current (their counts, their next
      // token): the table says the buckets are not known, and why. A paused screen stays as it was.
      return state.paused
        ? { ...state, bucketsProblem: action.problem, heldBuckets: undefined }
        : {
            ...state,
            bucketsProblem: action.problem,
            buckets: [],
            totalBuckets: 0,
            bucketsRead: false,
          };
    case 'seed':
      return {
        ...count(addRecent(state, action.records), action.records),
        countedFrom: action.missed > 0 ? action.missed + 1 : undefined,
        notice:
          action.missed > 0
            ? `the journal no longer holds the ${pluralize(action.missed, 'oldest request', 'oldest requests')}: totals count from #${action.missed + 1}`
            : state.notice,
      };
    case 'requests': {
      if (action.records.length === 0) return tick(state, action.now);
      const counted = count(addRecent(tick(state, action.now), action.records), action.records);
      return { ...counted, rates: addRates(counted.rates, action.now, action.records) };
    }
    case 'tick':
      return tick(state, action.now);
    case 'gap':
      return action.missed <= 0
        ? state
        : {
            ...state,
            missed: state.missed + action.missed,
            notice: `${pluralize(action.missed, 'request')} came while disconnected and left the journal: not counted`,
          };
    case 'restart':
      return {
        ...state,
        recent: [],
        held: [],
        totals: { requests: 0, rejected: 0 },
        countedFrom: undefined,
        missed: 0,
        code: undefined,
        notice: 'the emulator was reset: totals start again',
      };
    case 'code':
      return { ...state, code: action.code };
  }
}

/** What the keys ask: select, sort, pause, help, filter, and notices. */
function stepControl(state: TuiState, action: ControlAction): TuiState {
  switch (action.type) {
    case 'move':
      return { ...state, selected: clamp(state.selected + action.by, state.buckets.length) };
    case 'sort':
      return {
        ...state,
        sort: SORTS[(SORTS.indexOf(state.sort) + 1) % SORTS.length] as BucketSort,
        selected: 0,
      };
    case 'pause':
      return state.paused
        ? {
            ...(state.heldBuckets === undefined
              ? state
              : showBuckets(state, state.heldBuckets, state.uptimeMs)),
            paused: false,
            heldBuckets: undefined,
            recent: [...state.held, ...state.recent].slice(0, RECENT_LIMIT),
            held: [],
            notice: 'resumed',
          }
        : {
            ...state,
            paused: true,
            notice: action.run
              ? 'paused: the simulation waits (no requests, simulated time stopped), p to resume'
              : 'paused: the screen is frozen, p to resume',
          };
    case 'help':
      return { ...state, help: !state.help };
    case 'filter-start':
      return { ...state, editingFilter: true };
    case 'filter-type':
      // By characters (code points): a cut or an erase never leaves half of a surrogate pair,
      // which the screen shows as U+FFFD and the search matches against nothing.
      return {
        ...state,
        filter: Array.from(state.filter + action.text)
          .slice(0, FILTER_MAX)
          .join(''),
      };
    case 'filter-erase':
      return { ...state, filter: Array.from(state.filter).slice(0, -1).join('') };
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

function showBuckets(state: TuiState, list: BucketList, uptimeMs: number | undefined): TuiState {
  return {
    ...state,
    buckets: list.buckets,
    totalBuckets: list.total,
    bucketsRead: true,
    bucketsProblem: undefined,
    uptimeMs,
    selected: clamp(state.selected, list.buckets.length),
  };
}

/** Adds records (oldest first) to the recent list, or to the held ones while paused. */
function addRecent(state: TuiState, records: readonly RequestRecord[]): TuiState {
  if (records.length === 0) return state;
  const newest = records.slice(-RECENT_LIMIT).reverse();
  return state.paused
    ? { ...state, held: [...newest, ...state.held].slice(0, RECENT_LIMIT) }
    : { ...state, recent: [...newest, ...state.recent].slice(0, RECENT_LIMIT) };
}

function count(state: TuiState, records: readonly RequestRecord[]): TuiState {
  return {
    ...state,
    totals: {
      requests: state.totals.requests + records.length,
      rejected: state.totals.rejected + rejectedIn(records),
    },
  };
}

/** Moves the rate window on to the second of `now`. */
function tick(state: TuiState, now: number): TuiState {
  const rates = moveRateWindow(state.rates, now);
  return rates === state.rates ? state : { ...state, rates };
}

function clamp(index: number, length: number): number {
  return Math.max(0, Math.min(index, length - 1));
}
