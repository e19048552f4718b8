import { authenticate } from './auth.js';
import { bucketKey, levelOf, type Level } from './bucket-key.js';
import { createBucketStore, type StoredBucket } from './bucket-store.js';
import { sortBuckets, viewBucket, type BucketSort, type BucketView } from './bucket-view.js';
import type { Clock } from './clock.js';
import { applyConfigPatch, resolveConfig, type Operation, type ResolvedConfig } from './config.js';
import { handleDevApi, DEV_API_PREFIX } from './dev-api.js';
import { ConfigError } from './config-error.js';
import { describeIssues, userSchema } from './config-schema.js';
import { createDirectory, type Directory } from './directory.js';
import { z } from 'zod';

const usersSchema = z.array(userSchema).max(100_000, 'expected at most 100000 users at once');
import { createEventHub } from './event-hub.js';
import { headerValue, splitUrl, type EmulatorRequest, type EmulatorResponse } from './exchange.js';
import { createJournal } from './journal.js';
import { countRequest, renderMetrics } from './metrics.js';
import { checkMerchant, runOperation } from './operations.js';
import { createOtpStore, type OtpCode } from './otp-codes.js';
import { createProblem, QUOTA_EXCEEDED_TYPE, type Problem, type ProblemKind } from './problems.js';
import type { RandomSource } from './random.js';
import { BUCKET_HEADER, secondsUp, writeRateLimitHeaders } from './rate-limit-headers.js';
import type { CodeRecord, EmulatorEvent, Outcome, RequestRecord } from './records.js';
import {
  createInputSchemas,
  readBodyInput,
  readExistsInput,
  type InputResult,
  type InputSchemas,
} from './request-input.js';
import { matchServiceRoute } from './service-routes.js';
import { takeTokens, tokensAt, type BucketDecision } from './token-bucket.js';

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

/** A call after routing, authentication and input parsing. */
export interface ServiceCall {
  operation: Operation;
  clientId: string;
  /** The caller_id that selects the bucket; undefined for the client bucket. */
  callerId: string | undefined;
  merchantId: string | undefined;
  input: InputResult;
}

/** What a call came to, before it is rendered as HTTP. */
export interface ServiceResult {
  status: number;
  outcome: Outcome;
  bucket: string;
  level: Level;
  /** The bucket after the call. */
  state: BucketDecision;
  /** Seconds to the next token, or (on 429) until the call can pass. */
  resetSeconds: number;
  /** The answer (a problem on errors); undefined on 429, whose body is made when rendered. */
  body: unknown;
}

const JSON_TYPE = 'application/json';
const QUOTA_EXCEEDED_TITLE = 'Request cannot be satisfied as assigned quota has been exceeded';
const PROBLEM_TYPE = 'application/problem+json';

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

  function delay(): number {
    const { minMs, maxMs } = config.behavior.latency;
    return maxMs === 0 ? 0 : minMs + (maxMs - minMs) * random.next();
  }

  function problemResponse(
    problem: Problem,
    headers: Record<string, string> = {},
  ): EmulatorResponse {
    headers['content-type'] = PROBLEM_TYPE;
    return { status: problem.status, headers, body: problem, delayMs: delay() };
  }

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

  /**
   * Runs an authenticated call: the bucket first, then validation, then the operation. Renders
   * no HTTP, so the simulator can drive it directly.
   */
  function execute(call: ServiceCall, now: number, instance: string): ServiceResult {
    const { operation, clientId, callerId } = call;
    const bucket = bucketKey(clientId, callerId, config.limits.callerScope);
    const level: Level = callerId === undefined ? 'client' : 'caller';
    const limits = config.limits[level];
    const stored = store.get(bucket);
    const decision = takeTokens(stored, now, limits, config.limits.cost[operation]);

    const injected = config.behavior.chaos > 0 && random.next() < config.behavior.chaos;
    if (injected || (!decision.allowed && !config.behavior.shadow)) {
      const state = injected ? takeTokens(stored, now, limits, 0) : decision;
      keep(bucket, stored, state.tokens, now).rejected++;
      // An injected 429 on a bucket that had a token asks for a one-second pause.
      const wait = decision.allowed ? 1 : secondsUp(decision.retryAfterMs);
      const outcome = injected ? 'injected-429' : 'rate-limited';
      return { status: 429, outcome, bucket, level, state, resetSeconds: wait, body: undefined };
    }
    const shadowLimited = !decision.allowed;

    const { input } = call;
    const refusal = !input.ok
      ? input.problem
      : call.merchantId !== undefined
        ? checkMerchant(call.merchantId, clientId, directory, instance)
        : undefined;
    if (refusal !== undefined) {
      // A refused request changes no state unless the config says invalid requests count.
      const counted = config.limits.countInvalid && decision.allowed;
      const state = counted
        ? commit(bucket, stored, decision, now)
        : takeTokens(stored, now, limits, 0);
      const resetSeconds = secondsUp(state.nextTokenMs);
      return {
        status: refusal.status,
        outcome: 'invalid',
        bucket,
        level,
        state,
        resetSeconds,
        body: refusal,
      };
    }
    if (!input.ok) throw new Error('unreachable: invalid input passed the refusal check');

    const context = { config, directory, otp, random, now, onCode };
    const result = runOperation(input.input, call.merchantId ?? '', context, instance);
    if (shadowLimited) keep(bucket, stored, decision.tokens, now).shadowRejected++;
    else commit(bucket, stored, decision, now);
    const resetSeconds = secondsUp(decision.nextTokenMs);
    const outcome = shadowLimited ? 'shadow-limited' : 'allowed';
    if ('problem' in result) {
      return {
        status: result.problem.status,
        outcome,
        bucket,
        level,
        state: decision,
        resetSeconds,
        body: result.problem,
      };
    }
    return {
      status: result.status,
      outcome,
      bucket,
      level,
      state: decision,
      resetSeconds,
      body: result.body,
    };
  }

  /** Turns the result of a call into HTTP: rate-limit headers, and the body or problem. */
  function render(result: ServiceResult, path: string): EmulatorResponse {
    const headers = rateLimitHeaders(
      result.bucket,
      result.level,
      result.state,
      result.resetSeconds,
    );
    if (result.status === 429) return tooManyRequests(result, headers, path);
    if (result.outcome === 'shadow-limited') headers['uas-shadow-limited'] = 'true';
    if (result.status >= 400) return problemResponse(result.body as Problem, headers);
    headers['content-type'] = JSON_TYPE;
    return { status: result.status, headers, body: result.body, delayMs: delay() };
  }

  /** Stores the bucket's state at `now` without taking a token; returns the stored entry. */
  function keep(
    key: string,
    stored: StoredBucket | undefined,
    tokens: number,
    now: number,
  ): StoredBucket {
    const bucket = stored ?? { tokens, updatedAt: now, allowed: 0, rejected: 0, shadowRejected: 0 };
    bucket.tokens = tokens;
    bucket.updatedAt = now;
    store.set(key, bucket, stored === undefined);
    return bucket;
  }

  function commit(
    key: string,
    stored: StoredBucket | undefined,
    decision: BucketDecision,
    now: number,
  ): BucketDecision {
    const bucket = stored ?? {
      tokens: 0,
      updatedAt: now,
      allowed: 0,
      rejected: 0,
      shadowRejected: 0,
    };
    bucket.tokens = decision.tokens;
    bucket.updatedAt = now;
    bucket.allowed++;
    store.set(key, bucket, stored === undefined);
    if (stored === undefined) sweepFullBuckets(now);
    return decision;
  }

  /**
   * A full bucket is the same as no bucket. Past `keepFullBuckets` buckets (below it they stay,
   * with their counters, for the dev API), each new bucket looks at two others, in turn, and
   * drops them if they have refilled: a flood of one-off caller_ids then holds only the buckets
   * that are still refilling, instead of growing to `maxBuckets`.
   */
  function sweepFullBuckets(now: number): void {
    if (store.size <= config.limits.keepFullBuckets) return;
    store.sweep((key, bucket) => {
      const limits = config.limits[levelOf(key)];
      return tokensAt(bucket, now, limits) >= limits.burst;
    }, 2);
  }

  function rateLimitHeaders(
    key: string,
    level: Level,
    decision: BucketDecision,
    resetSeconds: number,
  ): Record<string, string> {
    const headers: Record<string, string> = { [BUCKET_HEADER]: key };
    writeRateLimitHeaders(
      headers,
      config.behavior.headers,
      level,
      config.limits[level],
      decision,
      resetSeconds,
    );
    return headers;
  }

  function tooManyRequests(
    result: ServiceResult,
    headers: Record<string, string>,
    path: string,
  ): EmulatorResponse {
    const { bucket, level, resetSeconds } = result;
    const injected = result.outcome === 'injected-429';
    const retryAfter = config.behavior.retryAfter;
    const seconds =
      retryAfter.mode === 'fixed' ? Math.max(retryAfter.seconds, resetSeconds) : resetSeconds;
    headers['cache-control'] = 'no-store';
    if (retryAfter.mode !== 'absent') headers['retry-after'] = String(seconds);
    const detail = injected
      ? `a 429 injected by the chaos setting (probability ${config.behavior.chaos}); the ${level} bucket was not charged`
      : `the ${level} bucket ${bucket} is empty; a token is back in ${resetSeconds} s`;
    // Serialised here rather than by the transport: in a flood, this is the hot path. Strings that
    // come from the request (the path, the bucket with its caller_id) go through JSON.stringify.
    const text =
      `{"type":"${QUOTA_EXCEEDED_TYPE}","title":"${QUOTA_EXCEEDED_TITLE}","status":429,` +
      `"detail":${JSON.stringify(detail)},"instance":${JSON.stringify(path)},` +
      `"violated-policies":["${level}"],"bucket":${JSON.stringify(bucket)},"level":"${level}",` +
      `"retry_after":${retryAfter.mode === 'absent' ? 'null' : seconds},"injected":${injected}}`;
    headers['content-type'] = PROBLEM_TYPE;
    return { status: 429, headers, text, delayMs: delay() };
  }

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
      const views: BucketView[] = [];
      for (const [key, bucket] of store.entries()) {
        const level = levelOf(key);
        if (query.level !== undefined && level !== query.level) continue;
        if (query.search !== undefined && !key.includes(query.search)) continue;
        const view = viewBucket(key, bucket, config.limits[level], now);
        if (query.clientId !== undefined && view.client_id !== query.clientId) continue;
        views.push(view);
      }
      const sorted = sortBuckets(views, query.sort ?? 'pressure');
      return { total: views.length, buckets: sorted.slice(0, query.limit ?? 100) };
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
