import { z } from 'zod';
import { authenticate } from './service/auth.js';
import { levelOf, parseBucketKey, type Level } from './limits/bucket-key.js';
import { tokensAt } from './limits/token-bucket.js';
import { createBucketStore } from './limits/bucket-store.js';
import {
  createBucketSelection,
  viewBucket,
  type BucketSort,
  type BucketView,
} from './limits/bucket-view.js';
import type { Clock } from './time/clock.js';
import { applyConfigPatch, resolveConfig, type ResolvedConfig } from './config/config.js';
import { handleDevApi, DEV_API_PREFIX } from './admin/dev-api.js';
import { ConfigError } from './config/config-error.js';
import { describeIssues, userSchema } from './config/config-schema.js';
import { createDirectory, type Directory } from './signin/directory.js';
import { createEventHub } from './admin/event-hub.js';
import {
  headerValue,
  splitUrl,
  type EmulatorRequest,
  type EmulatorResponse,
} from './service/exchange.js';
import { createJournal } from './admin/journal.js';
import { countRequest, renderMetrics } from './admin/metrics.js';
import { createOtpStore, type OtpCode } from './signin/otp-codes.js';
import { createProblem, type Problem, type ProblemKind } from './service/problems.js';
import type { RandomSource } from './time/random.js';
import type { CodeRecord, EmulatorEvent, Outcome, RequestRecord } from './admin/records.js';
import {
  createInputSchemas,
  readBodyInput,
  readExistsInput,
  type InputSchemas,
} from './service/request-input.js';
import { matchServiceRoute } from './service/service-routes.js';
import {
  executeCall,
  type ServiceCall,
  type ServiceContext,
  type ServiceResult,
} from './service/service.js';
import { problemResponse as renderProblem, renderResult } from './service/service-response.js';

export type { ServiceCall, ServiceResult } from './service/service.js';

const usersSchema = z.array(userSchema).max(100_000, 'expected at most 100000 users at once');

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
}

/** Options of {@link Emulator.listBuckets}. */
export interface BucketQuery {
  level?: Level | undefined;
  clientId?: string | undefined;
  /** Keeps buckets whose key contains this text. */
  search?: string | undefined;
  sort?: BucketSort | undefined;
  limit?: number | undefined;
}

/** The emulated service: one instance holds all state; transports call {@link Emulator.handle}. */
export interface Emulator {
  /** Answers one request. Never throws for any request. */
  handle(request: EmulatorRequest): EmulatorResponse;
  /**
   * Runs an already authenticated and parsed call at the clock's time, without HTTP and without
   * journaling it: the fast path of the simulator.
   */
  execute(call: ServiceCall): ServiceResult;
  /** The running config. */
  readonly config: ResolvedConfig;
  /** Applies a live change of limits, behaviour or codes; throws a ConfigError and changes nothing when it does not fit. */
  configure(patch: unknown): ResolvedConfig;
  /** Listens to requests, codes, resets and config changes; returns the function that stops listening. */
  subscribe(listener: (event: EmulatorEvent) => void): () => void;
  listBuckets(query?: BucketQuery): { total: number; buckets: BucketView[] };
  getBucket(key: string): BucketView | undefined;
  /** Resets one bucket (true when it existed) or, without a key, all of them. */
  resetBuckets(key?: string): boolean;
  /** The latest code for an e-mail, at one merchant or at any. */
  latestCode(email: string, merchantId?: string): CodeRecord | undefined;
  listCodes(): CodeRecord[];
  /**
   * Adds users (or replaces those with the same e-mail); throws a ConfigError naming the bad
   * field and adds none when one does not fit.
   */
  addUsers(users: unknown): number;
  /** Requests, newest first. */
  journal(limit?: number): RequestRecord[];
  metrics(): string;
  readonly clock: Clock;
  readonly startedAt: number;
  readonly version: string;
  readonly devApi: Required<Pick<DevApiOptions, 'enabled'>> & DevApiOptions;
}

/** Creates an emulator over the given config, clock and random source. Throws a ConfigError for a bad config. */
export function createEmulator(options: CoreEmulatorOptions): Emulator {
  const { clock, random } = options;
  let config = resolveConfig(options.config);
  let schemas: InputSchemas = createInputSchemas(config.callerIdMaxLength);
  const directory: Directory = createDirectory(config);
  const store = createBucketStore({ maxBuckets: config.limits.maxBuckets });
  const otp = createOtpStore();
  const journalLog = createJournal<RequestRecord>(config.journalSize);
  const events = createEventHub<EmulatorEvent>();
  const requestCounts = new Map<string, Map<number, number>>();
  const startedAt = clock.now();
  let nextRequestId = 1;
  let codesIssued = 0;
  const devApi = {
    enabled: options.devApi?.enabled ?? true,
    adminToken: options.devApi?.adminToken,
  };

  const onCode = (code: OtpCode) => {
    codesIssued++;
    if (events.active) events.emit({ type: 'code', code: codeRecord(code) });
  };

  /** Starts the journal entry of a request; its fields are filled in as the request goes. */
  function entryFor(request: EmulatorRequest, path: string, now: number): RequestRecord {
    return {
      id: nextRequestId++,
      at: now,
      method: request.method,
      path,
      operation: undefined,
      clientId: undefined,
      callerId: undefined,
      bucket: undefined,
      level: undefined,
      status: 0,
      outcome: 'unrouted',
      remaining: undefined,
      problem: undefined,
    };
  }

  /** Completes the entry with the answer, journals it, counts it and announces it. */
  function finish(
    entry: RequestRecord,
    response: EmulatorResponse,
    outcome: Outcome,
  ): EmulatorResponse {
    entry.status = response.status;
    entry.outcome = outcome;
    if (response.status === 429) entry.problem = 'quota-exceeded';
    else if (response.status >= 400) entry.problem = problemKindOf((response.body as Problem).type);
    countRequest(requestCounts, entry.operation ?? 'none', response.status);
    journalLog.push(entry);
    if (events.active) events.emit({ type: 'request', request: entry });
    return response;
  }

  const problemResponse = (problem: Problem, headers: Record<string, string> = {}) =>
    renderProblem(config, random, problem, headers);

  function handleService(
    request: EmulatorRequest,
    path: string,
    query: string,
    now: number,
  ): EmulatorResponse {
    const entry = entryFor(request, path, now);
    const route = matchServiceRoute(request.method, path);
    if (route.kind === 'not-found') {
      const problem = createProblem('not-found', `there is no resource at ${path}`, {
        instance: path,
      });
      return finish(entry, problemResponse(problem), 'unrouted');
    }
    if (route.kind === 'method-not-allowed') {
      const detail = `${path} accepts ${route.allow}, not ${request.method}`;
      const problem = createProblem('method-not-allowed', detail, { instance: path });
      return finish(entry, problemResponse(problem, { allow: route.allow }), 'unrouted');
    }
    const { operation } = route;
    entry.operation = operation;
    const auth = authenticate(headerValue(request.headers, 'authorization'), directory);
    if (!auth.ok) {
      const problem = createProblem('unauthorized', auth.detail, { instance: path });
      const headers = { 'www-authenticate': auth.challenge };
      return finish(entry, problemResponse(problem, headers), 'unauthenticated');
    }
    const input =
      operation === 'exists'
        ? readExistsInput(query, schemas, path)
        : readBodyInput(request, operation, schemas, config.maxBodyBytes, path);
    const call: ServiceCall = {
      operation,
      clientId: auth.clientId,
      callerId: input.callerId,
      merchantId: route.merchantId,
      input,
    };
    const result = execute(call, now, path);
    entry.clientId = call.clientId;
    entry.callerId = call.callerId;
    entry.bucket = result.bucket;
    entry.level = result.level;
    entry.remaining = result.state.remaining;
    return finish(entry, render(result, path), result.outcome);
  }

  const context: ServiceContext = {
    get config() {
      return config;
    },
    store,
    directory,
    otp,
    random,
    onCode,
  };
  const execute = (call: ServiceCall, now: number, instance: string) =>
    executeCall(context, call, now, instance);
  const render = (result: ServiceResult, path: string) =>
    renderResult(config, random, result, path);

  const emulator: Emulator = {
    execute(call) {
      const now = clock.now();
      const result = execute(call, now, '');
      if (events.active) {
        // Announced (for a watching screen) but not journaled: this is the simulator's fast path.
        const entry = entryFor(
          { method: call.operation === 'exists' ? 'GET' : 'POST', url: '', headers: {} },
          `(${call.operation})`,
          now,
        );
        entry.operation = call.operation;
        entry.clientId = call.clientId;
        entry.callerId = call.callerId;
        entry.bucket = result.bucket;
        entry.level = result.level;
        entry.remaining = result.state.remaining;
        entry.status = result.status;
        entry.outcome = result.outcome;
        events.emit({ type: 'request', request: entry });
      }
      return result;
    },
    handle(request) {
      const now = clock.now();
      const { path, query } = splitUrl(request.url);
      try {
        if (path === DEV_API_PREFIX || path.startsWith(`${DEV_API_PREFIX}/`))
          return handleDevApi(emulator, request, path, query);
        return handleService(request, path, query, now);
      } catch (error) {
        // Nothing may crash a transport: answer 500 with what failed, so it can be reported.
        const problem = createProblem(
          'internal-error' satisfies ProblemKind,
          `the emulator failed on this request: ${(error as Error).message}`,
          { instance: path },
        );
        return finish(entryFor(request, path, now), problemResponse(problem), 'unrouted');
      }
    },
    get config() {
      return config;
    },
    configure(patch) {
      const next = applyConfigPatch(config.source, patch);
      config = next;
      schemas = createInputSchemas(next.callerIdMaxLength);
      store.setMaxBuckets(next.limits.maxBuckets);
      if (events.active)
        events.emit({
          type: 'config',
          limits: next.source.limits,
          behavior: next.source.behavior,
          otp: next.source.otp,
        });
      return next;
    },
    subscribe: (listener) => events.subscribe(listener),
    listBuckets(query = {}) {
      const now = clock.now();
      const selection = createBucketSelection(query.sort ?? 'pressure', query.limit ?? 100);
      let total = 0;
      for (const [key, bucket] of store.entries()) {
        const level = levelOf(key);
        if (query.level !== undefined && level !== query.level) continue;
        if (query.search !== undefined && !key.includes(query.search)) continue;
        if (query.clientId !== undefined && parseBucketKey(key)?.clientId !== query.clientId)
          continue;
        total++;
        const limits = config.limits[level];
        selection.offer({ key, bucket, fill: tokensAt(bucket, now, limits) / limits.burst });
      }
      const buckets = selection
        .result()
        .map(({ key, bucket }) => viewBucket(key, bucket, config.limits[levelOf(key)], now));
      return { total, buckets };
    },
    getBucket(key) {
      const bucket = store.get(key);
      return bucket === undefined
        ? undefined
        : viewBucket(key, bucket, config.limits[levelOf(key)], clock.now());
    },
    resetBuckets(key) {
      const existed = key === undefined ? (store.clear(), true) : store.delete(key);
      if (existed && events.active) events.emit({ type: 'reset', bucket: key });
      return existed;
    },
    latestCode(email, merchantId) {
      const code = otp.latest(email, merchantId);
      return code === undefined ? undefined : codeRecord(code);
    },
    listCodes: () => otp.list().map(codeRecord),
    addUsers(users) {
      const parsed = usersSchema.safeParse(users);
      if (!parsed.success) throw new ConfigError(describeIssues(parsed.error));
      directory.addUsers(parsed.data);
      return parsed.data.length;
    },
    journal: (limit) => journalLog.list(limit),
    metrics() {
      let client = 0;
      for (const [key] of store.entries()) if (levelOf(key) === 'client') client++;
      return renderMetrics({
        requests: requestCounts,
        buckets: { client, caller: store.size - client },
        evictions: store.evictions,
        codesIssued,
      });
    },
    clock,
    startedAt,
    version: options.version ?? '0.0.0',
    devApi,
  };
  return emulator;
}

/** The short name of a problem type: `code-invalid`, `quota-exceeded`, ... */
function problemKindOf(type: string): string {
  const hash = type.lastIndexOf('#');
  return hash >= 0 ? type.slice(hash + 1) : type.slice(type.lastIndexOf(':') + 1);
}

function codeRecord(code: OtpCode): CodeRecord {
  return {
    merchant_id: code.merchantId,
    email: code.email,
    code: code.code,
    issued_at: new Date(code.issuedAt).toISOString(),
    expires_at: new Date(code.expiresAt).toISOString(),
    attempts_left: code.attemptsLeft,
    used: code.used,
  };
}
