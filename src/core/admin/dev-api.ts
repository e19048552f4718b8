import type { Level } from '../limits/bucket-key.js';
import type { BucketSort } from '../limits/bucket-view.js';
import { isConfigError, type ConfigError } from '../config/config-error.js';
import type { AnyEmulator } from '../emulator.js';
import { andThen, recover, type MaybePromise } from '../async/maybe-promise.js';
import {
  headerValue,
  type EmulatorRequest,
  type EmulatorResponse,
  type GiveWay,
} from '../service/exchange.js';
import { createProblem, type FieldError, type Problem } from '../service/problems.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../config/json-depth.js';
import { constantTimeEqual } from '../signin/constant-time.js';
import type { Operation } from '../config/config.js';
import { CLOCK_RANGE, isClockTime, isKeptClock, isManualClock, type Clock } from '../time/clock.js';
import { checkAnswer } from './check-answer.js';
import { readFaultBody } from '../service/faults.js';
import { OUTCOMES, type Outcome } from '../records/records.js';
import { redactSecret, redactUrlPassword } from '../records/redact.js';
import { SERVED_DOCUMENTS, servedDocument } from '../../contract/served-document.js';

/** Where the dev API lives. */
export const DEV_API_PREFIX = '/__uas';

/** Whether a path is the dev API's. */
export function isDevApiPath(path: string): boolean {
  return path.startsWith(DEV_API_PREFIX) && (path.length === 6 || path.charCodeAt(6) === 47);
}

/** The most buckets one page of `GET /__uas/buckets` holds. */
export const BUCKET_PAGE_MAX = 1000;

/** A request to the dev API, as a route sees it. */
interface DevRequest {
  emulator: AnyEmulator;
  request: EmulatorRequest;
  path: string;
  params: URLSearchParams;
  /** The part after the resource, decoded (a bucket key, an e-mail). */
  item: string | undefined;
  /** The transport's, when it gave one: long work awaits it between steps. */
  giveWay: GiveWay | undefined;
}

/** A route of the dev API: a method on a resource, with or without an item after it. */
interface DevRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  resource: string;
  item: boolean;
  /** As listed by `GET /__uas`. */
  usage: string;
  /** Whether it reads a JSON body (which must then be `application/json`). */
  body?: boolean;
  /**
   * Whether it shows traffic (requests, codes) or costs much to answer: then a read from a web
   * page of another origin is refused too, as writes are.
   */
  showsTraffic?: boolean;
  handle(request: DevRequest, body: unknown): MaybePromise<EmulatorResponse>;
}

const NO_STORE = { 'cache-control': 'no-store' };

const json = (status: number, body: unknown): EmulatorResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...NO_STORE },
  body,
  delayMs: 0,
});

const problem = (value: Problem, headers: Record<string, string> = {}): EmulatorResponse => ({
  status: value.status,
  headers: { ...headers, 'content-type': 'application/problem+json', ...NO_STORE },
  body: value,
  delayMs: 0,
});

const ROUTES: DevRoute[] = [
  {
    method: 'GET',
    resource: '',
    item: false,
    usage: '',
    handle: () => json(200, { routes: DEV_API_ROUTES }),
  },
  {
    method: 'GET',
    resource: 'health',
    item: false,
    usage: '',
    handle: ({ emulator }) =>
      andThen(emulator.storeHealth(), (store) =>
        json(200, {
          status: 'ok',
          version: emulator.version,
          started_at: new Date(emulator.startedAt).toISOString(),
          uptime_ms: emulator.clock.now() - emulator.startedAt,
          // The process answers; how its shared store is is said here (a 503 otherwise).
          store,
        }),
      ),
  },
  {
    method: 'GET',
    resource: 'buckets',
    item: false,
    usage: `?level=client|caller&client=ID&search=TEXT&sort=pressure|recent|key|rejected&offset=N&limit=1..${BUCKET_PAGE_MAX}`,
    handle: listBuckets,
  },
  {
    method: 'DELETE',
    resource: 'buckets',
    item: false,
    usage: '',
    handle: ({ emulator }) =>
      andThen(emulator.listBuckets({ limit: 0 }), ({ total }) =>
        andThen(emulator.resetBuckets(), () => json(200, { reset: 'all', count: total })),
      ),
  },
  {
    method: 'GET',
    resource: 'buckets',
    item: true,
    usage: '',
    handle: ({ emulator, item, path }) =>
      andThen(emulator.getBucket(item as string), (view) =>
        view === undefined ? bucketNotFound(item as string, path) : json(200, view),
      ),
  },
  {
    method: 'DELETE',
    resource: 'buckets',
    item: true,
    usage: '',
    handle: ({ emulator, item, path }) =>
      andThen(emulator.resetBuckets(item), (existed) =>
        existed ? json(200, { reset: [item] }) : bucketNotFound(item as string, path),
      ),
  },
  {
    method: 'GET',
    resource: 'codes',
    item: false,
    showsTraffic: true,
    usage: '?email=E&merchant_id=M',
    handle: (request) => {
      const email = readText(request.params, 'email', request.path);
      if (isResponse(email)) return email;
      return email === undefined
        ? andThen(request.emulator.listCodes(), (codes) => json(200, { codes }))
        : latestCode(request, email);
    },
  },
  {
    method: 'GET',
    resource: 'codes',
    item: true,
    showsTraffic: true,
    usage: '?merchant_id=M',
    handle: (request) => latestCode(request, request.item as string),
  },
  {
    method: 'GET',
    resource: 'journal',
    item: false,
    showsTraffic: true,
    usage: '?limit=N',
    handle: ({ emulator, params, path }) => {
      const limit = readWhole(params, 'limit', 1, 100_000, 1000, path);
      return typeof limit === 'number' ? json(200, { requests: emulator.journal(limit) }) : limit;
    },
  },
  {
    method: 'GET',
    resource: 'requests',
    item: false,
    showsTraffic: true,
    usage:
      '?operation=&email=&caller_id=(empty: none)&status=&outcome=&client_id=&merchant_id=&after_id=&limit=',
    handle: listRequests,
  },
  {
    method: 'GET',
    resource: 'check',
    item: false,
    showsTraffic: true,
    usage: '',
    handle: ({ emulator, giveWay }) =>
      andThen(checkAnswer(emulator, giveWay), (answer) => json(200, answer)),
  },
  {
    method: 'POST',
    resource: 'reset',
    item: false,
    usage: '',
    handle: ({ emulator }) => andThen(emulator.reset(), () => json(200, { reset: 'emulator' })),
  },
  {
    method: 'GET',
    resource: 'faults',
    item: false,
    usage: '',
    handle: ({ emulator }) => json(200, { faults: emulator.faults() }),
  },
  {
    method: 'POST',
    resource: 'faults',
    item: false,
    usage: '',
    body: true,
    handle: ({ emulator, path }, body) => {
      try {
        return json(201, { fault: emulator.failNext(readFaultBody(body)) });
      } catch (error) {
        if (!isConfigError(error)) throw error;
        return configProblem('invalid-request', error, path, '');
      }
    },
  },
  {
    method: 'DELETE',
    resource: 'faults',
    item: false,
    usage: '',
    handle: ({ emulator }) => {
      const count = emulator.faults().length;
      emulator.clearFaults();
      return json(200, { cleared: count });
    },
  },
  {
    method: 'GET',
    resource: 'clock',
    item: false,
    usage: '',
    handle: ({ emulator }) => json(200, clockView(emulator.clock)),
  },
  {
    method: 'POST',
    resource: 'clock',
    item: false,
    usage: '',
    body: true,
    handle: moveClock,
  },
  {
    method: 'POST',
    resource: 'users',
    item: false,
    usage: '',
    body: true,
    handle: addUsers,
  },
  {
    method: 'GET',
    resource: 'config',
    item: false,
    usage: '',
    handle: ({ emulator }) => json(200, publicConfig(emulator)),
  },
  {
    method: 'PATCH',
    resource: 'config',
    item: false,
    usage: '',
    body: true,
    handle: ({ emulator, path }, body) =>
      unlessInvalid(
        () => emulator.configure(body),
        () => json(200, publicConfig(emulator)),
        (error) => configProblem('invalid-config', error, path, ''),
      ),
  },
  {
    method: 'GET',
    resource: 'events',
    item: false,
    showsTraffic: true,
    usage: '',
    handle: ({ emulator, path }) => {
      const stream = emulator.openEventStream();
      if (stream === undefined)
        return problem(
          createProblem(
            'too-many-event-readers',
            'the most event readers allowed at once are reading; try again when one has gone',
            { instance: path },
          ),
          { 'retry-after': '5' },
        );
      return {
        status: 200,
        headers: { 'content-type': 'text/event-stream', ...NO_STORE },
        stream,
        delayMs: 0,
      };
    },
  },
  {
    method: 'GET',
    resource: 'metrics',
    item: false,
    usage: '',
    handle: ({ emulator }) =>
      andThen(emulator.metrics(), (text) => ({
        status: 200,
        headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', ...NO_STORE },
        text,
        delayMs: 0,
      })),
  },
  {
    method: 'GET',
    resource: 'openapi.json',
    item: false,
    usage: `?document=${SERVED_DOCUMENTS.join('|')}`,
    handle: ({ emulator, params, path, request }) => {
      const which = readChoice(params, 'document', SERVED_DOCUMENTS, path) ?? 'service';
      if (isResponse(which)) return which;
      const host = headerValue(request.headers, 'host');
      return json(200, servedDocument(emulator.config, which, host, request.localOrigin));
    },
  },
];

/** The routes of the dev API, as listed by `GET /__uas`. */
export const DEV_API_ROUTES: readonly string[] = ROUTES.map(
  (route) =>
    `${route.method.padEnd(6)} ${DEV_API_PREFIX}${route.resource === '' ? '' : `/${route.resource}`}${route.item ? `/{${route.resource === 'codes' ? 'email' : 'key'}}` : ''}${route.usage}`,
);

/**
 * The routes (`METHOD /__uas/...`, items as `{key}` or `{email}`) that refuse reads from a web
 * page of another origin: they show traffic, or cost much to answer.
 */
export const TRAFFIC_ROUTES: readonly string[] = ROUTES.filter(
  (route) => route.showsTraffic === true,
).map(
  (route) =>
    `${route.method} ${DEV_API_PREFIX}/${route.resource}${route.item ? `/{${route.resource === 'codes' ? 'email' : 'key'}}` : ''}`,
);

/**
 * Answers a request under `/__uas`. Never rate limited. Guarded by the admin token when one is
 * set; writes from another origin (a web page the developer happens to visit) are refused, and a
 * body must be JSON, so a cross-site form or `text/plain` post cannot change anything.
 */
export function handleDevApi(
  emulator: AnyEmulator,
  request: EmulatorRequest,
  path: string,
  query: string,
  giveWay?: GiveWay,
): MaybePromise<EmulatorResponse> {
  const refusal = guard(emulator, request, path);
  if (refusal !== undefined) return refusal;
  const rest = path.slice(DEV_API_PREFIX.length + 1);
  const slash = rest.indexOf('/');
  const resource = slash === -1 ? rest : rest.slice(0, slash);
  let item: string | undefined;
  try {
    item =
      slash === -1 || slash === rest.length - 1
        ? undefined
        : decodeURIComponent(rest.slice(slash + 1));
  } catch {
    return problem(
      createProblem('invalid-request', `the path ${path} is not validly percent-encoded`, {
        instance: path,
      }),
    );
  }
  const candidates = ROUTES.filter(
    (route) => route.resource === resource && route.item === (item !== undefined),
  );
  if (candidates.length === 0) return notFound(path);
  const route = candidates.find((candidate) => candidate.method === request.method);
  if (route === undefined) {
    const allow = candidates.map((candidate) => candidate.method).join(', ');
    return problem(
      createProblem('method-not-allowed', `${path} accepts ${allow}, not ${request.method}`, {
        instance: path,
      }),
      { allow },
    );
  }
  if (route.showsTraffic === true) {
    const foreign = foreignOrigin(request);
    if (foreign !== undefined) return crossOrigin(path, foreign, 'read');
  }
  const devRequest: DevRequest = {
    emulator,
    request,
    path,
    params: new URLSearchParams(query),
    item,
    giveWay,
  };
  if (route.body !== true) {
    // A write that reads no body still refuses one that is not JSON: a cross-site form or
    // text/plain post (no preflight) must not reset the emulator either. (A GET's body is
    // ignored, as the Fetch API of the msw engine drops it.)
    const write = request.method !== 'GET' && request.method !== 'HEAD';
    const sent = write && ((request.bodyBytes ?? 0) > 0 || (request.body ?? '') !== '');
    return (sent ? notJson(request, path) : undefined) ?? route.handle(devRequest, undefined);
  }
  const body = readJsonBody(request, path);
  return body.ok ? route.handle(devRequest, body.value) : body.response;
}

/**
 * What the dev API answers a request before looking at its body (off, no admin token, a write
 * from another origin), or undefined when it may go on: a transport asks first, so that a body
 * nobody may send is never read.
 */
export function refuseDevApi(
  emulator: AnyEmulator,
  request: EmulatorRequest,
  path: string,
): EmulatorResponse | undefined {
  return guard(emulator, request, path);
}

/** The admin token, and the origin of writes. */
function guard(
  emulator: AnyEmulator,
  request: EmulatorRequest,
  path: string,
): EmulatorResponse | undefined {
  if (!emulator.devApi.enabled) {
    return problem(
      createProblem(
        'not-found',
        'the dev API is off: the server listens beyond loopback and no --admin-token was given',
        { instance: path },
      ),
    );
  }
  const adminToken = emulator.devApi.adminToken;
  if (adminToken !== undefined) {
    const header = headerValue(request.headers, 'authorization') ?? '';
    const token = /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? '';
    if (!constantTimeEqual(token, adminToken)) {
      return problem(
        createProblem(
          'admin-token-required',
          'send Authorization: Bearer <admin token> (the --admin-token of uas serve)',
          { instance: path },
        ),
        { 'www-authenticate': 'Bearer realm="uas-dev-api"' },
      );
    }
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const foreign = foreignOrigin(request);
    if (foreign !== undefined) return crossOrigin(path, foreign, 'write');
  }
  return undefined;
}

/** The refusal of a write, or of a read of traffic, sent by a web page of another origin. */
function crossOrigin(path: string, foreign: string, what: 'write' | 'read'): EmulatorResponse {
  const refused =
    what === 'write' ? 'changes sent by' : 'to show traffic (requests, codes, the check) to';
  return problem(
    createProblem(
      'cross-origin-refused',
      `the dev API refuses ${refused} a web page of another origin (${foreign}); call it from a terminal, a test or a page on the same origin`,
      { instance: path },
    ),
  );
}

/**
 * The origin of a request sent by a page of another origin, or undefined. Browsers send `Origin`
 * (and `Sec-Fetch-Site`) on cross-origin writes, even those that need no preflight; tools and
 * tests send neither.
 */
function foreignOrigin(request: EmulatorRequest): string | undefined {
  const site = headerValue(request.headers, 'sec-fetch-site');
  const origin = headerValue(request.headers, 'origin');
  if (site === 'cross-site' || site === 'same-site') return origin ?? site;
  if (origin === undefined) return undefined;
  const host = headerValue(request.headers, 'host');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return origin; // "null" (a sandboxed frame, a file) or junk
  }
  return host !== undefined && originHost.toLowerCase() === host.toLowerCase() ? undefined : origin;
}

function notFound(path: string): EmulatorResponse {
  return problem(
    createProblem(
      'not-found',
      `there is no dev API resource at ${path}; GET ${DEV_API_PREFIX} lists them`,
      { instance: path },
    ),
  );
}

function bucketNotFound(key: string, path: string): EmulatorResponse {
  return problem(
    createProblem(
      'bucket-not-found',
      `no bucket has the key ${JSON.stringify(key)} (an unused bucket is full and not listed)`,
      { instance: path },
    ),
  );
}

function invalid(path: string, errors: FieldError[]): EmulatorResponse {
  return problem(
    createProblem('invalid-request', errors.map((error) => error.detail).join('; '), {
      instance: path,
      errors,
    }),
  );
}

/** A whole number parameter within bounds, its default when absent, or the problem to answer. */
function readWhole(
  params: URLSearchParams,
  name: string,
  min: number,
  max: number,
  fallback: number,
  path: string,
): number | EmulatorResponse {
  const texts = params.getAll(name);
  if (texts.length > 1) return repeated(path, name, texts.length);
  const text = texts[0];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    return invalid(path, [
      {
        detail: `${name} must be a whole number from ${min} to ${max}; got ${JSON.stringify(text)}`,
        pointer: `#/${name}`,
        parameter: name,
      },
    ]);
  }
  return value;
}

function readChoice<T extends string>(
  params: URLSearchParams,
  name: string,
  choices: readonly T[],
  path: string,
): T | undefined | EmulatorResponse {
  const texts = params.getAll(name);
  if (texts.length > 1) return repeated(path, name, texts.length);
  const text = texts[0];
  if (text === undefined) return undefined;
  if ((choices as readonly string[]).includes(text)) return text as T;
  return invalid(path, [
    {
      detail: `${name} must be one of ${choices.join(', ')}; got ${JSON.stringify(text)}`,
      pointer: `#/${name}`,
      parameter: name,
    },
  ]);
}

/** A free-text parameter (a filter), undefined when absent, or the problem to answer. */
function readText(
  params: URLSearchParams,
  name: string,
  path: string,
): string | undefined | EmulatorResponse {
  const texts = params.getAll(name);
  return texts.length > 1 ? repeated(path, name, texts.length) : texts[0];
}

/** A query parameter given more than once: which one to use would be a guess. */
function repeated(path: string, name: string, count: number): EmulatorResponse {
  const detail = `${name} is given ${count} times; give it once`;
  return problem(
    createProblem('duplicate-parameter', detail, {
      instance: path,
      errors: [{ detail, pointer: `#/${name}`, parameter: name }],
    }),
  );
}

const isResponse = (value: unknown): value is EmulatorResponse =>
  typeof value === 'object' && value !== null && 'status' in value;

function listBuckets({ emulator, params, path }: DevRequest): MaybePromise<EmulatorResponse> {
  const level = readChoice<Level>(params, 'level', ['client', 'caller'], path);
  if (isResponse(level)) return level;
  const sort = readChoice<BucketSort>(
    params,
    'sort',
    ['pressure', 'recent', 'key', 'rejected'],
    path,
  );
  if (isResponse(sort)) return sort;
  const limit = readWhole(params, 'limit', 1, BUCKET_PAGE_MAX, 100, path);
  if (isResponse(limit)) return limit;
  const offset = readWhole(params, 'offset', 0, Number.MAX_SAFE_INTEGER, 0, path);
  if (isResponse(offset)) return offset;
  const clientId = readText(params, 'client', path);
  if (isResponse(clientId)) return clientId;
  const search = readText(params, 'search', path);
  if (isResponse(search)) return search;
  const query = { level, sort, offset, limit, clientId, search };
  return andThen(emulator.listBuckets(query), (page) => {
    const next = offset + page.buckets.length;
    return json(200, {
      total: page.total,
      offset,
      buckets: page.buckets,
      next_offset: next < page.total ? next : null,
    });
  });
}

function latestCode(
  { emulator, params, path }: DevRequest,
  email: string,
): MaybePromise<EmulatorResponse> {
  const merchantId = readText(params, 'merchant_id', path);
  if (isResponse(merchantId)) return merchantId;
  return andThen(emulator.latestCode(email, merchantId), (code) => {
    if (code !== undefined) return json(200, code);
    const where = merchantId === undefined ? '' : ` at merchant ${merchantId}`;
    return problem(
      createProblem('code-not-found', `no code was issued for ${email}${where}; call start first`, {
        instance: path,
      }),
    );
  });
}

/** The running config without secrets: client tokens are redacted. */
export function publicConfig(emulator: AnyEmulator): unknown {
  const source = emulator.config.source;
  return {
    ...source,
    clients: source.clients.map((client) => ({ ...client, token: redactSecret(client.token) })),
    ...(source.store === undefined
      ? {}
      : { store: { ...source.store, url: redactUrlPassword(source.store.url ?? 'memory') } }),
  };
}

/** The 415 for a body that is not `application/json`, or undefined. */
function notJson(request: EmulatorRequest, path: string): EmulatorResponse | undefined {
  const type = headerValue(request.headers, 'content-type');
  const media = (type?.split(';')[0] ?? '').trim().toLowerCase();
  if (media === 'application/json') return undefined;
  const given = type === undefined ? 'no Content-Type' : `Content-Type ${JSON.stringify(type)}`;
  const detail = `the dev API takes JSON bodies with Content-Type: application/json; got ${given}`;
  return problem(createProblem('unsupported-media-type', detail, { instance: path }));
}

/** The parsed JSON body, or the problem to answer: it must be `application/json` and valid. */
function readJsonBody(
  request: EmulatorRequest,
  path: string,
): { ok: true; value: unknown } | { ok: false; response: EmulatorResponse } {
  const refused = notJson(request, path);
  if (refused !== undefined) return { ok: false, response: refused };
  const text = (request.body ?? '').replace(/^\uFEFF/, '');
  if (nestsDeeperThan(text))
    return {
      ok: false,
      response: invalid(path, [
        { detail: `the body nests deeper than ${MAX_JSON_DEPTH} levels`, pointer: '#' },
      ]),
    };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const detail = `the body is not valid JSON: ${(error as Error).message}`;
    return {
      ok: false,
      response: problem(createProblem('malformed-json', detail, { instance: path })),
    };
  }
}

/** A problem that lists each issue of a config error with a JSON pointer under `prefix`. */
function configProblem(
  kind: 'invalid-config' | 'invalid-request',
  error: ConfigError,
  path: string,
  prefix: string,
): EmulatorResponse {
  const errors = error.issues.map((issue) => ({
    detail: issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`,
    pointer: `#${prefix}${issue.pointer}`,
  }));
  return problem(
    createProblem(kind, errors.map((entry) => entry.detail).join('; '), {
      instance: path,
      errors,
    }),
  );
}

function addUsers({ emulator, path }: DevRequest, body: unknown): MaybePromise<EmulatorResponse> {
  const users =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as { users?: unknown }).users
      : undefined;
  if (!Array.isArray(users)) {
    return invalid(path, [
      { detail: 'the body must be {"users": [{"email": ...}, ...]}', pointer: '#/users' },
    ]);
  }
  return unlessInvalid(
    () => emulator.addUsers(users),
    (added) => json(200, added),
    (error) => configProblem('invalid-request', error, path, '/users'),
  );
}

/**
 * The answer of a change (`run`) that throws a ConfigError (at once, or later from a shared
 * emulator) when it does not fit: `ok` of its result, or `invalid` of the error.
 */
function unlessInvalid<T>(
  run: () => MaybePromise<T>,
  ok: (value: T) => EmulatorResponse,
  invalid: (error: ConfigError) => EmulatorResponse,
): MaybePromise<EmulatorResponse> {
  const fail = (error: unknown): EmulatorResponse => {
    if (!isConfigError(error)) throw error;
    return invalid(error);
  };
  try {
    return recover(andThen(run(), ok), fail);
  } catch (error) {
    return fail(error);
  }
}

function clockView(clock: Clock): { mode: 'manual' | 'system'; now: string; now_ms: number } {
  const now = clock.now();
  return {
    mode: isManualClock(clock) ? 'manual' : 'system',
    now: new Date(now).toISOString(),
    now_ms: now,
  };
}

/** `POST /__uas/clock` with `{"advance_ms": N}` or `{"set": ISO time or ms}`: a manual clock only. */
function moveClock({ emulator, path }: DevRequest, body: unknown): MaybePromise<EmulatorResponse> {
  const clock = emulator.clock;
  if (!isManualClock(clock))
    return problem(
      createProblem(
        'clock-not-manual',
        'the emulator runs on the system clock; start it with uas serve --clock manual (or pass createManualClock()) to move it',
        { instance: path },
      ),
    );
  const fields =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  const keys = Object.keys(fields);
  const advance = fields.advance_ms;
  const set = fields.set;
  const bad = (detail: string, pointer: string) => invalid(path, [{ detail, pointer }]);
  if (keys.length !== 1 || (advance === undefined && set === undefined))
    return bad('send {"advance_ms": <ms>} or {"set": "<ISO time>" | <ms since the epoch>}', '#');
  const range = `${new Date(CLOCK_RANGE.min).toISOString()} to ${new Date(CLOCK_RANGE.max).toISOString()}`;
  if (advance !== undefined) {
    if (typeof advance !== 'number' || !Number.isFinite(advance) || advance < 0)
      return bad('advance_ms must be a number of ms, 0 or more', '#/advance_ms');
    if (!isClockTime(clock.now() + advance))
      return bad(
        `advance_ms would move the clock past ${new Date(CLOCK_RANGE.max).toISOString()}`,
        '#/advance_ms',
      );
    // Kept in the shared store first: a move Redis cannot keep is a 503, made nowhere.
    if (isKeptClock(clock))
      return clock.move({ advanceMs: advance }).then(() => json(200, clockView(clock)));
    clock.advance(advance);
  } else {
    const target = typeof set === 'string' ? Date.parse(set) : set;
    if (typeof target !== 'number' || !isClockTime(target))
      return bad(`set must be an ISO 8601 time or ms since the epoch, from ${range}`, '#/set');
    if (isKeptClock(clock))
      return clock.move({ setMs: target }).then(() => json(200, clockView(clock)));
    clock.set(target);
  }
  return json(200, clockView(clock));
}

function listRequests({ emulator, params, path }: DevRequest): EmulatorResponse {
  const limit = readWhole(params, 'limit', 1, 100_000, 100_000, path);
  if (isResponse(limit)) return limit;
  const status = readWhole(params, 'status', 100, 599, 0, path);
  if (isResponse(status)) return status;
  const afterId = readWhole(params, 'after_id', 0, Number.MAX_SAFE_INTEGER, 0, path);
  if (isResponse(afterId)) return afterId;
  const operation = readChoice<Operation>(params, 'operation', ['exists', 'start', 'verify'], path);
  if (isResponse(operation)) return operation;
  const outcome = readChoice<Outcome>(params, 'outcome', OUTCOMES, path);
  if (isResponse(outcome)) return outcome;
  const texts: Record<string, string | undefined> = {};
  for (const name of ['email', 'caller_id', 'client_id', 'merchant_id']) {
    const text = readText(params, name, path);
    if (isResponse(text)) return text;
    texts[name] = text;
  }
  const callerId = texts.caller_id;
  // One more than asked for tells whether the page was cut short.
  const requests = emulator.requests(
    {
      operation,
      outcome,
      status: params.has('status') ? status : undefined,
      email: texts.email,
      callerId: callerId === '' ? null : callerId,
      clientId: texts.client_id,
      merchantId: texts.merchant_id,
      afterId: params.has('after_id') ? afterId : undefined,
    },
    limit + 1,
  );
  const more = requests.length > limit;
  if (more) requests.pop();
  return json(200, {
    requests,
    dropped: emulator.requestsDropped,
    next_after_id: more ? (requests.at(-1)?.id ?? null) : null,
  });
}
