import { createAdmin, codeRecord, type Admin } from './admin/admin.js';
import { handleDevApi, isDevApiPath } from './admin/dev-api.js';
import { createEventHub } from './admin/event-hub.js';
import { MAX_EVENT_READERS, openEventStream } from './admin/event-stream.js';
import { countRequest } from './admin/metrics.js';
import type { EmulatorEvent, RequestRecord } from './admin/records.js';
import { blankRecord, completeRecord } from './admin/request-facts.js';
import { resolveConfig } from './config/config.js';
import { ConfigError, configIssue } from './config/config-error.js';
import { createState, type StreamCounters } from './emulator-state.js';
import { splitUrl, type EmulatorRequest, type EmulatorResponse } from './service/exchange.js';
import { runServiceRequest, serviceContext, type PipelineContext } from './service/pipeline.js';
import { createProblem } from './service/problems.js';
import { sync } from './store/maybe-promise.js';
import { executeCall, type ServiceCall, type ServiceResult } from './service/service.js';
import { problemResponse } from './service/service-response.js';
import type { OtpCode } from './signin/otp-codes.js';
import type { Clock } from './time/clock.js';
import type { RandomSource } from './time/random.js';

export type { ServiceCall, ServiceResult } from './service/service.js';
export type { BucketQuery } from './admin/admin.js';

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
}

/** The emulated service: one instance holds all state; transports call {@link Emulator.handle}. */
export interface Emulator extends Admin {
  /** Answers one request. Never throws for any request. */
  handle(request: EmulatorRequest): EmulatorResponse;
  /**
   * Runs an already authenticated and parsed call at the clock's time, without HTTP and without
   * journaling it: the fast path of the simulator.
   */
  execute(call: ServiceCall): ServiceResult;
  /** Listens to requests, codes, resets and config changes; returns the function that stops listening. */
  subscribe(listener: (event: EmulatorEvent) => void): () => void;
  /**
   * A stream of server-sent events (what `GET /__uas/events` sends): a reader that falls more
   * than its queue behind is cut off and counted in the metrics. Undefined when the most readers
   * allowed at once are already reading.
   */
  openEventStream(): ReadableStream<Uint8Array> | undefined;
  /** The most bytes of body read for a request to `path` (more is answered 413). */
  bodyLimit(path: string): number;
  readonly clock: Clock;
  readonly startedAt: number;
  readonly version: string;
  readonly devApi: Required<Pick<DevApiOptions, 'enabled'>> & DevApiOptions;
}

/** The largest dev-API body: 100,000 users fit. */
export const DEV_API_MAX_BODY_BYTES = 16 * 1_048_576;

/** Creates an emulator over the given config, clock and random source. Throws a ConfigError for a bad config. */
export function createEmulator(options: CoreEmulatorOptions): Emulator {
  const { clock, random } = options;
  const initialConfig = resolveConfig(options.config);
  const state = createState(initialConfig);
  const streams: StreamCounters = { readers: 0, dropped: 0 };
  // Tokens a client may send where they do not belong; records never show them.
  const secrets = [
    ...initialConfig.clients.map((client) => client.token),
    ...(options.devApi?.adminToken === undefined ? [] : [options.devApi.adminToken]),
  ];
  const events = createEventHub<EmulatorEvent>();
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
      if (events.active) events.emit({ type: 'code', code: codeRecord(code) });
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
    if (events.active) events.emit({ type: 'request', request: completeRecord(entry, secrets) });
  }

  const emulator: Emulator = {
    ...createAdmin(state, clock, events, streams, initialConfig, (record) =>
      completeRecord(record, secrets),
    ),
    execute(call) {
      const now = clock.now();
      const result = sync(executeCall(service, call, now, ''));
      // Announced (for a watching screen) but not journaled: this is the simulator's fast path.
      if (events.active)
        events.emit({ type: 'request', request: simulatedRecord(call, result, now) });
      return result;
    },
    handle(request) {
      const now = clock.now();
      const { path, query } = splitUrl(request.url);
      try {
        const tooLarge = oversized(request, path);
        if (tooLarge !== undefined) return tooLarge;
        if (isDevApiPath(path)) return handleDevApi(emulator, request, path, query);
        const { response, record: entry } = sync(
          runServiceRequest(pipeline, service, request, path, query, now),
        );
        record(entry);
        return response;
      } catch (error) {
        // Nothing may crash a transport: answer 500 with what failed, so it can be reported.
        const problem = createProblem(
          'internal-error',
          `the emulator failed on this request: ${(error as Error).message}`,
          { instance: path },
        );
        const response = problemResponse(state.config, random, problem);
        const entry = blankRecord(state.nextRequestId++, now, request.method, path);
        entry.status = 500;
        entry.problem = 'internal-error';
        record(entry);
        return response;
      }
    },
    subscribe: (listener) => events.subscribe(listener),
    openEventStream: () =>
      streams.readers >= (options.maxEventReaders ?? MAX_EVENT_READERS)
        ? undefined
        : openEventStream(events, streams, options.eventQueueBytes),
    bodyLimit,
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
  return emulator;
}

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
