import type { Fault, FaultSpec } from '../core/service/faults.js';
import { faultBody } from '../core/service/faults.js';
import type { CodeRecord, RequestRecord } from '../core/records/records.js';
import type { RequestFilter } from '../core/admin/request-filter.js';
import type { BucketSort, BucketView } from '../core/limits/bucket-view.js';
import type { Level } from '../core/limits/bucket-key.js';
import { readBody } from '../client/response-body.js';
import { checkBaseUrl } from '../transport/base-url.js';
import { DevApiError } from './dev-api-error.js';
import { readRefusal } from './refusal-body.js';
import { readRequestLog } from './read-request-log.js';
import { routeTarget } from './route-target.js';

/** Options of {@link createDevClient}. */
export interface DevClientOptions {
  /** The dev API's admin token (`uas serve --admin-token`), when it has one. */
  adminToken?: string | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /**
   * Milliseconds before a call is abandoned.
   * @default 10_000
   */
  timeoutMs?: number | undefined;
  /**
   * The most bytes of an answer read, counted as they arrive (a refusal: 64 KiB at most); a longer
   * answer is not read further, and is a {@link DevApiError} (`bad-answer`).
   * @default 67_108_864 (64 MiB: 100,000 recorded requests fit)
   */
  maxResponseBytes?: number | undefined;
}

/** Default of {@link DevClientOptions.maxResponseBytes}. */
const MAX_RESPONSE_BYTES = 64 * 1_048_576;

/** A page of buckets. */
export interface BucketPage {
  total: number;
  offset: number;
  next_offset: number | null;
  buckets: BucketView[];
}

/** The emulator's clock. */
export interface ClockView {
  mode: 'manual' | 'system';
  now: string;
  now_ms: number;
}

/** What `GET /__uas/health` says. */
export interface Health {
  status: 'ok';
  version: string;
  started_at: string;
  uptime_ms: number;
}

/**
 * Whether `value` is what the health route of a uas dev API answers: an object with status "ok",
 * and version, started_at and uptime_ms of their types. Those three may be missing (a stand-in dev
 * API of a test may answer `{"status":"ok"}` alone), never of another type.
 */
function isHealth(value: unknown): value is Health {
  if (typeof value !== 'object' || value === null) return false;
  const health = value as Partial<Record<keyof Health, unknown>>;
  const absentOr = (field: unknown, fits: (field: unknown) => boolean) =>
    field === undefined || fits(field);
  return (
    health.status === 'ok' &&
    absentOr(health.version, (version) => typeof version === 'string') &&
    absentOr(
      health.started_at,
      (startedAt) => typeof startedAt === 'string' && !Number.isNaN(Date.parse(startedAt)),
    ) &&
    absentOr(health.uptime_ms, (uptime) => typeof uptime === 'number' && Number.isFinite(uptime))
  );
}

/** A typed client of a running emulator's dev API (`/__uas`), for tests in any runner. */
export interface DevClient {
  /** The base URL, without a trailing slash. */
  readonly url: string;
  /**
   * The emulator's version and uptime; a server that answers anything else (another JSON, a page)
   * is a {@link DevApiError} (`unavailable`) saying it is not a uas dev API.
   */
  health(): Promise<Health>;
  /** The latest code issued for an e-mail (at one merchant), or undefined when none was. */
  latestCode(email: string, merchantId?: string): Promise<CodeRecord | undefined>;
  codes(): Promise<CodeRecord[]>;
  /**
   * Recorded requests matching `filter`, oldest first: every one the journal holds, read a page
   * of 10,000 at a time.
   */
  requests(filter?: RequestFilter): Promise<RequestRecord[]>;
  /** The same, and how many requests the journal let go to keep its size (those are not in it). */
  requestLog(filter?: RequestFilter): Promise<{ requests: RequestRecord[]; dropped: number }>;
  /** Requests, newest first. */
  journal(limit?: number): Promise<RequestRecord[]>;
  buckets(query?: {
    level?: Level;
    client?: string;
    search?: string;
    sort?: BucketSort;
    offset?: number;
    limit?: number;
  }): Promise<BucketPage>;
  bucket(key: string): Promise<BucketView | undefined>;
  /** Resets one bucket, or every bucket without a key. */
  resetBuckets(key?: string): Promise<void>;
  /** Returns the emulator to its initial state (buckets, codes, journal, users, config, faults, clock). */
  reset(): Promise<void>;
  /** Changes limits, behaviour or codes live (`PATCH /__uas/config`); returns the config. */
  configure(patch: unknown): Promise<unknown>;
  config(): Promise<unknown>;
  /** Adds users, or replaces those with the same e-mail: how many of each. */
  addUsers(
    users: Array<{ email: string; phone_number?: string; token_count?: number }>,
  ): Promise<{ added: number; replaced: number }>;
  failNext(fault: FaultSpec): Promise<Fault>;
  faults(): Promise<Fault[]>;
  clearFaults(): Promise<void>;
  clock(): Promise<ClockView>;
  /** Moves a manual clock forward (`uas serve --clock manual`). */
  advanceClock(ms: number): Promise<ClockView>;
  /** Sets a manual clock to a time (a Date, ISO text or ms since the epoch). */
  setClock(time: Date | string | number): Promise<ClockView>;
  metrics(): Promise<string>;
}

/**
 * Creates a client of the dev API of the emulator at `url`, an http(s) URL such as
 * `http://127.0.0.1:4010` (with a path prefix where the emulator is mounted under one); another
 * scheme, credentials, a query or text that is no URL is a TypeError naming the value. Every
 * failure of a call is a {@link DevApiError} that says what was called and why it failed (an
 * admin token missing, the server unreachable, a refusal with its problem).
 */
export function createDevClient(url: string, options: DevClientOptions = {}): DevClient {
  const base = checkBaseUrl(url, 'createDevClient: url', '; give the admin token as adminToken');
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)
    throw new TypeError(
      `createDevClient: maxResponseBytes must be a whole number of bytes above 0; got ${String(maxBytes)}`,
    );
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const auth: Record<string, string> =
    options.adminToken === undefined ? {} : { authorization: `Bearer ${options.adminToken}` };

  async function call(
    method: string,
    path: string,
    body?: unknown,
    /** The problem a 404 of this call carries when there is nothing to give (undefined then). */
    none?: 'code-not-found' | 'bucket-not-found',
  ): Promise<Response | undefined> {
    const where = `${method} /__uas${path}`;
    let answer: Response;
    try {
      answer = await doFetch(`${base}/__uas${path}`, {
        method,
        headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw DevApiError.network(where, base, error);
    }
    if (answer.ok) return answer;
    if (answer.status === 404 && none !== undefined) {
      // Read, not cancelled: msw's interceptor settles a cancel only once the body is consumed.
      const text = await readRefusal(answer);
      // Only the dev API's own "none" means none: any other 404 (no dev API there, a proxy's
      // page) would otherwise read as "no code was issued".
      if (problemType(text) === `urn:uas:problem:${none}`) return undefined;
      throw DevApiError.notDevApi(where, 404, `the answer is not its ${none} problem`, text);
    }
    throw await DevApiError.refused(where, answer, options.adminToken !== undefined);
  }
  const text = async (answer: Response, where: string): Promise<string> => {
    const reading = await readBody(answer, maxBytes);
    if (reading.kind === 'too-large')
      throw DevApiError.badAnswer(where, `${reading.error} (maxResponseBytes)`);
    if (reading.kind !== 'complete') throw DevApiError.badAnswer(where, reading.error);
    return reading.text;
  };
  const parse = async <T>(answer: Response, where: string): Promise<T> => {
    const body = await text(answer, where);
    try {
      return JSON.parse(body) as T;
    } catch {
      throw DevApiError.badAnswer(where, 'the answer is not JSON');
    }
  };
  /** Calls a route of the dev API, as its table declares it, and reads its JSON answer. */
  const read = async <T>(target: { method: string; path: string }, body?: unknown): Promise<T> =>
    parse<T>(
      (await call(target.method, target.path, body))!,
      `${target.method} /__uas${target.path}`,
    );
  /** Calls a route that answers 404 `none` when there is nothing: undefined then. */
  const readOrNone = async <T>(
    target: { method: string; path: string },
    none: 'code-not-found' | 'bucket-not-found',
  ): Promise<T | undefined> => {
    const answer = await call(target.method, target.path, undefined, none);
    return answer === undefined
      ? undefined
      : parse<T>(answer, `${target.method} /__uas${target.path}`);
  };

  return {
    url: base,
    async health() {
      const { method, path } = routeTarget('health');
      const where = `${method} /__uas${path}`;
      const answer = (await call(method, path))!;
      const body = await text(answer, where);
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        throw DevApiError.notDevApi(where, answer.status, 'its answer is not JSON', body);
      }
      if (!isHealth(value))
        throw DevApiError.notDevApi(
          where,
          answer.status,
          'its answer is not { status: "ok", version, started_at, uptime_ms }',
          body,
        );
      return value;
    },
    latestCode: (email, merchantId) =>
      readOrNone<CodeRecord>(
        routeTarget('latestCode', { item: email, query: { merchant_id: merchantId } }),
        'code-not-found',
      ),
    codes: async () => (await read<{ codes: CodeRecord[] }>(routeTarget('listCodes'))).codes,
    async requests(filter = {}) {
      return (await this.requestLog(filter)).requests;
    },
    requestLog: (filter = {}) => readRequestLog(read, filter),
    journal: async (limit = 1000) =>
      (await read<{ requests: RequestRecord[] }>(routeTarget('journal', { query: { limit } })))
        .requests,
    buckets: (query = {}) => read<BucketPage>(routeTarget('listBuckets', { query })),
    bucket: (key) =>
      readOrNone<BucketView>(routeTarget('getBucket', { item: key }), 'bucket-not-found'),
    async resetBuckets(key) {
      const target =
        key === undefined ? routeTarget('resetBuckets') : routeTarget('resetBucket', { item: key });
      await call(target.method, target.path);
    },
    async reset() {
      const { method, path } = routeTarget('reset');
      await call(method, path);
    },
    configure: (patch) => read(routeTarget('changeConfig'), patch),
    config: () => read(routeTarget('getConfig')),
    addUsers: (users) =>
      read<{ added: number; replaced: number }>(routeTarget('addUsers'), { users }),
    failNext: async (fault) =>
      (await read<{ fault: Fault }>(routeTarget('failNext'), faultBody(fault))).fault,
    faults: async () => (await read<{ faults: Fault[] }>(routeTarget('listFaults'))).faults,
    async clearFaults() {
      const { method, path } = routeTarget('clearFaults');
      await call(method, path);
    },
    clock: () => read<ClockView>(routeTarget('getClock')),
    advanceClock: (ms) => read<ClockView>(routeTarget('moveClock'), { advance_ms: ms }),
    setClock: (time) =>
      read<ClockView>(routeTarget('moveClock'), {
        set: time instanceof Date ? time.toISOString() : time,
      }),
    async metrics() {
      const { method, path } = routeTarget('metrics');
      return text((await call(method, path))!, `${method} /__uas${path}`);
    },
  };
}

/** The `type` of a problem+json text; undefined when it is not one. */
function problemType(text: string): unknown {
  try {
    return (JSON.parse(text) as { type?: unknown } | null)?.type;
  } catch {
    return undefined;
  }
}
