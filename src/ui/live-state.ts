import type {
  CodeRecord,
  EmulatorEvent,
  RequestRecord,
  RequestSummary,
} from '../core/records/records.js';

/** Seconds of history the overview's chart keeps. */
export const SERIES_SECONDS = 120;
/** Requests the Requests page keeps in memory (the journal holds 1,000 by default). */
export const REQUESTS_KEPT = 20_000;
/** Codes the inbox keeps, the newest. */
export const CODES_KEPT = 1000;

/** Allowed and refused counts. */
export interface Counts {
  allowed: number;
  refused: number;
}

/** What the dashboard knows from the event stream and the journal, as one value. */
export interface LiveState {
  /** Requests seen, newest last, at most {@link REQUESTS_KEPT}: whole records only. */
  requests: RequestRecord[];
  /**
   * Requests counted: those this instance's journal held when the dashboard opened (or the last
   * reset), and every one since, of every instance sharing the store.
   */
  total: number;
  /**
   * The highest id of this instance's requests counted: its ids only grow, so a request the
   * journal and the stream both bring is counted once. (Another instance's requests come only
   * on the stream, once each: they are not compared by id, which restart at a reset.)
   */
  lastId: number;
  /** The highest id of this instance's requests held in {@link requests}, likewise. */
  listId: number;
  /** Per second of the emulator's clock: [second, requests, 429s], oldest first. */
  series: Array<[number, number, number]>;
  levels: { client: Counts; caller: Counts };
  /** Per bucket key: its counts since the dashboard opened (or the last reset). */
  buckets: ReadonlyMap<string, Counts>;
  /** Codes issued, newest first. */
  codes: CodeRecord[];
  /** Resets of the whole emulator seen; the page says so once each. */
  resets: number;
  /** The other instances sharing the store that answered requests (their opaque ids). */
  instances: ReadonlySet<string>;
  /** The latest config event's limits, behaviour and OTP settings. */
  config: { limits: unknown; behavior: unknown; otp: unknown } | undefined;
  /** Changes of users seen (`users` events): a page that lists users reads again when it moves. */
  userChanges: number;
  /**
   * Verify requests counted: a verify changes a code (attempts left, verified) without a code
   * event, so the inbox reads the codes again when it moves.
   */
  verifies: number;
}

/** The state before anything is known. */
export function emptyLiveState(): LiveState {
  return {
    requests: [],
    total: 0,
    lastId: 0,
    listId: 0,
    series: [],
    levels: { client: { allowed: 0, refused: 0 }, caller: { allowed: 0, refused: 0 } },
    buckets: new Map(),
    codes: [],
    resets: 0,
    instances: new Set(),
    config: undefined,
    userChanges: 0,
    verifies: 0,
  };
}

/** Whether a request was refused for its rate (a real, shadowed-out or injected 429). */
export function isRefused(request: Pick<RequestRecord, 'status' | 'outcome'>): boolean {
  return request.status === 429;
}

/**
 * Whether a request took a token of its bucket (or would have, with `--enforce shadow`): an
 * invalid or unauthenticated request, or an injected fault, was neither allowed nor refused.
 */
export function isAllowed(request: Pick<RequestRecord, 'status' | 'outcome'>): boolean {
  return request.outcome === 'allowed' || request.outcome === 'shadow-limited';
}

/**
 * What a batch of events does to the state: `count` (the stream of summaries: counts, codes,
 * config, resets), `list` (the stream of whole records: requests listed, nothing else), or `both`
 * (the journal, read at a (re)connection).
 */
export type ApplyMode = 'count' | 'list' | 'both';

/**
 * The state after a batch of events (those of one animation frame), in order. Pure: the
 * returned state shares nothing it changed with the one given. This instance's requests are
 * counted and listed once each (by id: the journal and the stream may both bring one).
 */
export function applyEvents(
  state: LiveState,
  events: readonly EmulatorEvent[],
  mode: ApplyMode = 'both',
): LiveState {
  let next = state;
  const counted: RequestSummary[] = [];
  const listed: RequestRecord[] = [];
  let { lastId, listId } = state;
  for (const event of events) {
    if (event.type === 'request') {
      const { id } = event.request;
      const { from } = event;
      const here = from === undefined;
      if (!here && !next.instances.has(from))
        next = { ...next, instances: new Set(next.instances).add(from) };
      if (mode !== 'list' && (!here || id > lastId)) {
        if (here) lastId = id;
        counted.push(event.request);
      }
      if (mode !== 'count' && (!here || id > listId)) {
        if (here) listId = id;
        listed.push(event.request);
      }
    } else if (mode === 'list') continue;
    else if (event.type === 'reset') {
      if (event.emulator) {
        next = { ...emptyLiveState(), resets: next.resets + 1, config: next.config };
        counted.length = 0;
        listed.length = 0;
        lastId = listId = 0;
      } else next = { ...next, buckets: withoutBuckets(next.buckets, event.bucket) };
    } else if (event.type === 'code') {
      // A code the page read from the server while its event waited is not listed twice.
      const key = codeKey(event.code);
      const others = next.codes.filter((code) => codeKey(code) !== key);
      next = { ...next, codes: [event.code, ...others].slice(0, CODES_KEPT) };
    } else if (event.type === 'config') {
      next = {
        ...next,
        config: { limits: event.limits, behavior: event.behavior, otp: event.otp },
      };
    } else if (event.type === 'users') {
      if (event.removed !== undefined) next = withoutCodesOf(next, event.removed);
      next = { ...next, userChanges: next.userChanges + 1 };
    }
  }
  const verifies = counted.filter((request) => request.operation === 'verify').length;
  if (verifies > 0) next = { ...next, verifies: next.verifies + verifies };
  if (counted.length > 0) next = withCounts(next, counted);
  if (listed.length > 0) next = withListed(next, listed);
  return lastId === next.lastId && listId === next.listId ? next : { ...next, lastId, listId };
}

/** Adds requests first read from the journal (oldest first), as if their events had come. */
export function addJournal(state: LiveState, requests: readonly RequestRecord[]): LiveState {
  return applyEvents(
    state,
    requests.map((request) => ({ type: 'request', request })),
  );
}

/**
 * Without the codes of `email` (compared case-insensitively, as the server keeps them): removing
 * a user drops its codes (the `users` event of the removal says which user).
 */
export function withoutCodesOf(state: LiveState, email: string): LiveState {
  const gone = email.toLowerCase();
  const codes = state.codes.filter((code) => code.email.toLowerCase() !== gone);
  return codes.length === state.codes.length ? state : { ...state, codes };
}

/** What tells one code from another: its merchant, e-mail, time of issue and digits. */
function codeKey(code: CodeRecord): string {
  return `${code.merchant_id}|${code.email.toLowerCase()}|${code.issued_at}|${code.code}`;
}

/**
 * The codes held, as the server lists them now (`GET /__uas/codes`): the stream says when a code
 * is issued, not when a verify takes an attempt or verifies it, so a code the server lists takes
 * its place (attempts left, verified); one the page had not heard of is added, newest first.
 */
export function withCodesRead(state: LiveState, read: readonly CodeRecord[]): LiveState {
  const fresh = new Map(read.map((code) => [codeKey(code), code]));
  const codes = state.codes.map((code) => {
    const now = fresh.get(codeKey(code));
    fresh.delete(codeKey(code));
    return now ?? code;
  });
  if (fresh.size === 0 && codes.every((code, index) => code === state.codes[index])) return state;
  // Of codes issued at one instant (a manual clock does not move between two starts), the one the
  // server lists comes first: it lists only the latest code of a sign-in, so it is the newer one.
  const listed = new Set(read);
  const all = [...codes, ...fresh.values()].sort(
    (a, b) =>
      b.issued_at.localeCompare(a.issued_at) || Number(listed.has(b)) - Number(listed.has(a)),
  );
  return { ...state, codes: all.slice(0, CODES_KEPT) };
}

function withCounts(state: LiveState, added: readonly RequestSummary[]): LiveState {
  const levels = {
    client: { ...state.levels.client },
    caller: { ...state.levels.caller },
  };
  const buckets = new Map(state.buckets);
  const series = state.series.slice();
  for (const request of added) {
    const refused = isRefused(request);
    addToSeries(series, Math.floor(request.at / 1000), refused);
    if (!refused && !isAllowed(request)) continue;
    if (request.level !== undefined) count(levels[request.level], refused);
    if (request.bucket !== undefined) {
      const counts = { ...(buckets.get(request.bucket) ?? { allowed: 0, refused: 0 }) };
      count(counts, refused);
      buckets.set(request.bucket, counts);
    }
  }
  return { ...state, total: state.total + added.length, levels, buckets, series };
}

function withListed(state: LiveState, added: readonly RequestRecord[]): LiveState {
  let requests = state.requests.concat(added);
  if (requests.length > REQUESTS_KEPT) requests = requests.slice(requests.length - REQUESTS_KEPT);
  return { ...state, requests };
}

function count(counts: Counts, refused: boolean): void {
  if (refused) counts.refused++;
  else counts.allowed++;
}

/** Counts a request in its second, keeping {@link SERIES_SECONDS} seconds up to the latest. */
function addToSeries(series: Array<[number, number, number]>, second: number, refused: boolean) {
  const last = series[series.length - 1];
  let row = last !== undefined && last[0] === second ? last : undefined;
  if (row === undefined) {
    row = series.find((entry) => entry[0] === second);
    if (row === undefined) {
      row = [second, 0, 0];
      series.push(row);
      series.sort((a, b) => a[0] - b[0]);
    } else series[series.indexOf(row)] = row = [row[0], row[1], row[2]];
  } else series[series.length - 1] = row = [row[0], row[1], row[2]];
  row[1]++;
  if (refused) row[2]++;
  const newest = series[series.length - 1]?.[0] ?? second;
  while ((series[0]?.[0] ?? newest) <= newest - SERIES_SECONDS) series.shift();
}

function withoutBuckets(
  buckets: ReadonlyMap<string, Counts>,
  bucket: string | undefined,
): ReadonlyMap<string, Counts> {
  if (bucket === undefined) return new Map();
  const next = new Map(buckets);
  next.delete(bucket);
  return next;
}

/** The busiest buckets: the most requests first, then the most refused. */
export function busiestBuckets(
  buckets: ReadonlyMap<string, Counts>,
  count: number,
): Array<{ key: string } & Counts> {
  return [...buckets]
    .map(([key, counts]) => ({ key, ...counts }))
    .sort((a, b) => b.allowed + b.refused - (a.allowed + a.refused) || b.refused - a.refused)
    .slice(0, count);
}

/**
 * The chart's columns from the series: each of the {@link SERIES_SECONDS} seconds up to
 * `nowSecond` (seconds without a request count zero), as uPlot takes them.
 */
export function seriesColumns(
  series: ReadonlyArray<readonly [number, number, number]>,
  nowSecond: number,
): [number[], number[], number[]] {
  const times: number[] = [];
  const all: number[] = [];
  const refused: number[] = [];
  const first = nowSecond - SERIES_SECONDS + 1;
  const bySecond = new Map(series.map((row) => [row[0], row]));
  for (let second = first; second <= nowSecond; second++) {
    const row = bySecond.get(second);
    times.push(second);
    all.push(row?.[1] ?? 0);
    refused.push(row?.[2] ?? 0);
  }
  return [times, all, refused];
}
