import { createAdmin, codeRecord, type Admin, type Announcer } from './admin/admin.js';
import { handleDevApi, isDevApiPath } from './admin/dev-api.js';
import { createEventHub } from './admin/event-hub.js';
import { MAX_EVENT_READERS, openEventStream } from './admin/event-stream.js';
import { countRequest } from './admin/metrics.js';
import type { EmulatorEvent, RequestRecord } from './records/records.js';
import { blankRecord, completeRecord } from './service/request-facts.js';
import { resolveConfig, type ResolvedConfig } from './config/config.js';
import { ConfigError, configIssue } from './config/config-error.js';
import { createState, type InstanceCounters } from './service/emulator-state.js';
import { isStoreUnavailable, type EmulatorStore } from './store/emulator-store.js';
import { createMemoryStore } from './store/memory-store.js';
import {
  splitUrl,
  type EmulatorRequest,
  type EmulatorResponse,
  type GiveWay,
} from './service/exchange.js';
import { runServiceRequest, serviceContext, type PipelineContext } from './service/pipeline.js';
import { createProblem } from './service/problems.js';
import {
  andThen,
  recover,
  type Answer,
  type SyncOrAsync,
  type MaybePromise,
} from './async/maybe-promise.js';
import { executeCall, type ServiceCall, type ServiceResult } from './service/service.js';
import { problemResponse } from './service/service-response.js';
import type { OtpCode } from './signin/otp-codes.js';
import type { Clock } from './time/clock.js';
import type { RandomSource } from './time/random.js';

export type { ServiceCall, ServiceResult } from './service/service.js';
export type { BucketQuery } from './store/emulator-store.js';

/** Who may use the dev API under `/__uas/`. */
export interface DevApiOptions {
  /**
   * Whether the dev API answers at all.
   * @default true
   */
  enabled?: boolean;
  /** When set, dev API requests must send `Authorization: Bearer <adminToken>`. */
  adminToken?: string | undefined;
}

/** Options of the core {@link createEmulator}: everything it needs is injected. */
export interface CoreEmulatorOptions {
  /** The config, in config-file form (see `fixtures/uas.config.json`). */
  config: unknown;
  clock: Clock;
  random: RandomSource;
  devApi?: DevApiOptions;
  /** Reported by `GET /__uas/health`. */
  version?: string;
  /**
   * Bytes of events a reader of `GET /__uas/events` may leave unread before it is cut off.
   * @default 1_048_576
   */
  eventQueueBytes?: number;
  /**
   * Readers of `GET /__uas/events` at once; more are answered 503 (each holds a queue).
   * @default 32
   */
  maxEventReaders?: number;
  /**
   * More metric families for `GET /__uas/metrics`, in the Prometheus text format, each line
   * ending in a newline: counters of what runs beside the emulator (`uas serve --record`'s).
   */
  moreMetrics?: (() => string) | undefined;
}

/**
 * The emulated service: transports call {@link Emulator.handle}. `M` says when its answers come:
 * at once (`createEmulator` over the memory store, the default), or later (over a shared store).
 */
export interface Emulator<out M extends Answer = 'sync'> extends Admin<M> {
  /** Answers one request. Never throws (nor rejects) for any request. */
  handle(request: EmulatorRequest): SyncOrAsync<M, EmulatorResponse>;
  /**
   * The same, for a transport: long dev-API work (`GET /__uas/check`) awaits `giveWay` between
   * its steps, so other requests are answered meanwhile, and its answer then comes later.
   */
  handle(request: EmulatorRequest, giveWay: GiveWay): MaybePromise<EmulatorResponse>;
  /**
   * Runs an already authenticated and parsed call at the clock's time, without HTTP and without
   * journaling it: the fast path of the simulator.
   */
  execute(call: ServiceCall): SyncOrAsync<M, ServiceResult>;
  /** Listens to this instance's requests, codes, resets and config changes; returns the function that stops listening. */
  subscribe(listener: (event: EmulatorEvent) => void): () => void;
  /**
   * A stream of server-sent events (what `GET /__uas/events` sends): this instance's, and those
   * of every instance sharing its store. A reader that falls more than its queue behind is cut
   * off and counted in the metrics. Undefined when the most readers allowed at once are already
   * reading.
   */
  openEventStream(): ReadableStream<Uint8Array> | undefined;
  /** The most bytes of body read for a request to `path` (more is answered 413). */
  bodyLimit(path: string): number;
  /** Where buckets and codes are: this process's memory, or a store shared by instances. */
  readonly storeKind: EmulatorStore['kind'];
  /** `memory`; or whether a shared store answered its last call (`up`) or not (`down`). */
  readonly storeState: 'memory' | 'up' | 'down';
  /**
   * What `GET /__uas/health` says of the store: `memory`; or, of a shared store asked now, `up`,
   * `down`, or `degraded` (keys of its own hold junk that a reset repairs).
   */
  storeHealth(): MaybePromise<StoreHealth>;
  readonly clock: Clock;
  readonly startedAt: number;
  readonly version: string;
  readonly devApi: Required<Pick<DevApiOptions, 'enabled'>> & DevApiOptions;
}

/** What `GET /__uas/health` says of the store (see {@link Emulator.storeHealth}). */
export type StoreHealth = 'memory' | 'up' | 'down' | 'degraded';

/** An emulator over a store shared with other instances (Redis): every answer comes later. */
export type SharedEmulator = Emulator<'async'>;

/** An emulator over any store, as transports take it. */
export type AnyEmulator = Emulator<Answer>;

/** Options of {@link createSharedEmulator}: those of {@link createEmulator}, and the store. */
export interface SharedEmulatorOptions extends CoreEmulatorOptions {
  /** A store shared with other instances, connected (see `uas/node`'s `connectRedisStore`). */
  store: EmulatorStore;
}

/** The largest dev-API body: 100,000 users fit. */
export const DEV_API_MAX_BODY_BYTES = 16 * 1_048_576;

/**
 * Creates an emulator over the given config, clock and random source, its buckets and codes in
 * this process's memory. Throws a ConfigError for a bad config.
 */
export function createEmulator(options: CoreEmulatorOptions): Emulator {
  const config = resolveConfig(options.config);
  // The memory store answers every call at once: this emulator is synchronous throughout.
  return assemble(options, config, createMemoryStore(config)) as Emulator;
}

/**
 * Creates an emulator whose buckets and codes are in a store shared with other instances: they
 * behave as one emulator (buckets exact across them, a code verifies on any, a config change or
 * reset reaches all). Every answer is a promise. Throws a ConfigError for a bad config.
 */
export function createSharedEmulator(options: SharedEmulatorOptions): SharedEmulator {
  const emulator = assemble(options, resolveConfig(options.config), options.store);
  const later =
    <A extends unknown[], T>(call: (...args: A) => MaybePromise<T>) =>
    async (...args: A): Promise<T> =>
      call(...args);
  return Object.defineProperties(
    {
      ...emulator,
      handle: later(emulator.handle),
      execute: later(emulator.execute),
      listBuckets: later(emulator.listBuckets),
      getBucket: later(emulator.getBucket),
      resetBuckets: later(emulator.resetBuckets),
      latestCode: later(emulator.latestCode),
      listCodes: later(emulator.listCodes),
      reset: later(emulator.reset),
      metrics: later(emulator.metrics),
      configure: later(emulator.configure),
      addUsers: later(emulator.addUsers),
    },
    {
      config: { get: () => emulator.config, enumerable: true },
      requestsDropped: { get: () => emulator.requestsDropped, enumerable: true },
      storeState: { get: () => emulator.storeState, enumerable: true },
    },
  ) as SharedEmulator;
}

/** An emulator over a store, answering at once or later as the store does. */
function assemble(
  options: CoreEmulatorOptions,
  initialConfig: ResolvedConfig,
  store: EmulatorStore,
): AnyEmulator {
  const { clock, random } = options;
  const state = createState(initialConfig, store);
  const counters: InstanceCounters = { readers: 0, dropped: 0, storeErrors: 0 };
  // Tokens a client may send where they do not belong; records never show them.
  const secrets = [
    ...initialConfig.clients.map((client) => client.token),
    ...(options.devApi?.adminToken === undefined ? [] : [options.devApi.adminToken]),
  ];
  const channel = store.channel;
  // This instance's listeners (its log, an in-process screen) hear its own events; event readers
  // (GET /__uas/events) hear those of every instance sharing the store.
  const local = createEventHub<EmulatorEvent>();
  const readers = createEventHub<EmulatorEvent>(undefined, (active) => channel?.watching(active));
  const announce: Announcer['all'] = {
    get active() {
      return local.active || readers.active || channel?.watched === true;
    },
    emit(event) {
      local.emit(event);
      readers.emit(event);
      if (channel?.watched === true) void channel.send({ type: 'event', event });
    },
  };
  const events: Announcer = { all: announce, here: local };
  const startedAt = clock.now();
  const devApi = {
    enabled: options.devApi?.enabled ?? true,
    adminToken: checkAdminToken(options.devApi?.adminToken),
  };
  const pipeline: PipelineContext = {
    state,
    random,
    onCode(code: OtpCode) {
      state.counters.codesIssued++;
      if (announce.active) announce.emit({ type: 'code', code: codeRecord(code) });
    },
  };
  const service = serviceContext(pipeline);
  const bodyLimit = (path: string) =>
    isDevApiPath(path) ? DEV_API_MAX_BODY_BYTES : state.config.maxBodyBytes;

  /**
   * A body over the limit is refused first, whatever the path, method or token: a transport stops
   * reading it (and closes the connection), so nothing else can be judged.
   */
  function oversized(request: EmulatorRequest, path: string): EmulatorResponse | undefined {
    const bytes = request.bodyBytes ?? request.body?.length ?? 0;
    const limit = bodyLimit(path);
    if (bytes <= limit) return undefined;
    const problem = createProblem(
      'payload-too-large',
      `the body has ${bytes} bytes or more; at most ${limit} are accepted`,
      { instance: path },
    );
    const response = problemResponse(state.config, random, problem);
    response.delayMs = 0;
    response.close = true;
    return response;
  }

  /** Journals, counts and announces a finished request. */
  function record(entry: RequestRecord): void {
    countRequest(state.counters.requests, entry.operation ?? 'none', entry.status);
    state.journal.push(entry);
    if (announce.active)
      announce.emit({ type: 'request', request: completeRecord(entry, secrets) });
  }

  /**
   * What a request gets when answering it failed: 503 when the shared store could not be
   * reached, 500 (with what failed, so it can be reported) for anything else. Nothing may crash
   * a transport.
   */
  function failure(error: unknown, method: string, path: string, now: number): EmulatorResponse {
    const unavailable = isStoreUnavailable(error);
    if (unavailable) counters.storeErrors++;
    const problem = unavailable
      ? createProblem(
          'store-unavailable',
          `the shared store did not answer: ${(error as Error).message}; nothing was changed`,
          { instance: path },
        )
      : createProblem(
          'internal-error',
          `the emulator failed on this request: ${(error as Error).message}`,
          { instance: path },
        );
    const response = problemResponse(state.config, random, problem);
    if (unavailable) {
      response.headers['retry-after'] = '1';
      response.delayMs = 0;
    }
    if (!isDevApiPath(path)) {
      const entry = blankRecord(state.nextRequestId++, now, method, path);
      entry.status = problem.status;
      entry.problem = unavailable ? 'store-unavailable' : 'internal-error';
      record(entry);
    }
    return response;
  }

  const { admin, hear } = createAdmin(state, clock, events, counters, initialConfig, (entry) =>
    completeRecord(entry, secrets),
  );
  const { moreMetrics } = options;
  const emulator: AnyEmulator = {
    ...admin,
    metrics:
      moreMetrics === undefined
        ? admin.metrics
        : () => andThen(admin.metrics(), (text) => text + moreMetrics()),
    execute(call) {
      const now = clock.now();
      return andThen(executeCall(service, call, now, ''), (result) => {
        // Announced (for a watching screen) but not journaled: this is the simulator's fast path.
        if (announce.active)
          announce.emit({ type: 'request', request: simulatedRecord(call, result, now) });
        return result;
      });
    },
    handle(request: EmulatorRequest, giveWay?: GiveWay) {
      const now = clock.now();
      const { path, query } = splitUrl(request.url);
      const failed = (error: unknown) => failure(error, request.method, path, now);
      try {
        const tooLarge = oversized(request, path);
        if (tooLarge !== undefined) return tooLarge;
        if (isDevApiPath(path))
          return recover(handleDevApi(emulator, request, path, query, giveWay), failed);
        return recover(
          andThen(runServiceRequest(pipeline, service, request, path, query, now), (answer) => {
            // A record keeps its request's fields, parsed, until it is read: for a large query
            // or body (thousands of parameters, say) that is many times its size for as long as
            // the journal holds it. Such a record is completed now (at most 32 fields, clipped).
            if (query.length + (request.body?.length ?? 0) > EAGER_RECORD_CHARS)
              completeRecord(answer.record, secrets);
            record(answer.record);
            return answer.response;
          }),
          failed,
        );
      } catch (error) {
        return failed(error);
      }
    },
    subscribe: (listener) => local.subscribe(listener),
    openEventStream: () =>
      counters.readers >= (options.maxEventReaders ?? MAX_EVENT_READERS)
        ? undefined
        : openEventStream(readers, counters, options.eventQueueBytes),
    bodyLimit,
    storeKind: store.kind,
    get storeState() {
      return store.health === undefined ? 'memory' : store.health().up ? 'up' : 'down';
    },
    storeHealth() {
      const state = emulator.storeState;
      return state !== 'up' || store.check === undefined ? state : store.check();
    },
    clock,
    startedAt,
    version: options.version ?? '0.0.0',
    devApi,
  };
  // Getters do not survive the spread above.
  Object.defineProperty(emulator, 'config', { get: () => state.config, enumerable: true });
  Object.defineProperty(emulator, 'requestsDropped', {
    get: () => state.journal.dropped,
    enumerable: true,
  });
  channel?.listen((change) => {
    if (change.type === 'event') readers.emit(change.event);
    else hear(change);
  });
  return emulator;
}

/** Characters of query and body past which a request's record is completed at once. */
const EAGER_RECORD_CHARS = 2_048;

/**
 * An admin token a client can send: an empty one would let every request through (an empty
 * header matches it), and one with a space could never be sent in a Bearer header.
 */
function checkAdminToken(token: string | undefined): string | undefined {
  if (token === undefined || /^[\x21-\x7e]{1,512}$/.test(token)) return token;
  throw new ConfigError([
    configIssue(
      ['devApi', 'adminToken'],
      token === ''
        ? 'the admin token is empty; give one, or none'
        : 'expected 1 to 512 printable ASCII characters without spaces',
    ),
  ]);
}

/** The record of a simulated call, for a watching screen. */
function simulatedRecord(call: ServiceCall, result: ServiceResult, now: number): RequestRecord {
  const record = blankRecord(
    0,
    now,
    call.operation === 'exists' ? 'GET' : 'POST',
    `(${call.operation})`,
  );
  record.operation = call.operation;
  record.client_id = call.clientId;
  record.merchant_id = call.merchantId;
  record.caller_id = call.callerId;
  record.bucket = result.bucket;
  record.level = result.level;
  record.status = result.status;
  record.outcome = result.outcome;
  record.remaining = result.state.remaining;
  record.retry_after = result.status === 429 ? result.resetSeconds : undefined;
  return record;
}
