import type { Level } from '../limits/bucket-key.js';
import type { BucketSort } from '../limits/bucket-view.js';
import { isConfigError } from '../config/config-error.js';
import { constantTimeEqual } from '../signin/constant-time.js';
import type { Emulator } from '../emulator.js';
import { headerValue, type EmulatorRequest, type EmulatorResponse } from '../service/exchange.js';
import { createProblem, type FieldError, type Problem } from '../service/problems.js';

/** Where the dev API lives. */
export const DEV_API_PREFIX = '/__uas';

/** The routes of the dev API, as listed by `GET /__uas`. */
export const DEV_API_ROUTES = [
  'GET    /__uas/health',
  'GET    /__uas/buckets?level=client|caller&client=ID&search=TEXT&sort=pressure|recent|key|rejected&limit=N',
  'GET    /__uas/buckets/{key}',
  'DELETE /__uas/buckets',
  'DELETE /__uas/buckets/{key}',
  'GET    /__uas/codes?email=E&merchant_id=M',
  'GET    /__uas/codes/{email}?merchant_id=M',
  'GET    /__uas/journal?limit=N',
  'POST   /__uas/users',
  'GET    /__uas/config',
  'PATCH  /__uas/config',
  'GET    /__uas/events',
  'GET    /__uas/metrics',
] as const;

const json = (status: number, body: unknown): EmulatorResponse => ({
  status,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  body,
  delayMs: 0,
});
const problem = (value: Problem, headers: Record<string, string> = {}): EmulatorResponse => ({
  status: value.status,
  headers: { ...headers, 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
  body: value,
  delayMs: 0,
});

/** Answers a request under `/__uas`. Never rate limited; guarded by the admin token when one is set. */
export function handleDevApi(
  emulator: Emulator,
  request: EmulatorRequest,
  path: string,
  query: string,
): EmulatorResponse {
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
        {
          'www-authenticate': 'Bearer realm="uas-dev-api"',
        },
      );
    }
  }
  const params = new URLSearchParams(query);
  const rest = path.slice(DEV_API_PREFIX.length).replace(/^\/+/, '');
  const [resource = '', ...tail] = rest.split('/');
  let item: string | undefined;
  try {
    item = tail.length === 0 ? undefined : decodeURIComponent(tail.join('/'));
  } catch {
    return problem(
      createProblem('invalid-request', `the path ${path} is not validly percent-encoded`, {
        instance: path,
      }),
    );
  }
  const method = request.method;
  const allow = (methods: string) =>
    problem(
      createProblem('method-not-allowed', `${path} accepts ${methods}, not ${method}`, {
        instance: path,
      }),
      { allow: methods },
    );

  // A resource with no sub-paths that only answers GET: journal, metrics, events.
  const refuseGetOnly = () => (item !== undefined ? notFound(path) : allow('GET'));

  switch (resource) {
    case '':
      return method === 'GET' ? json(200, { routes: DEV_API_ROUTES }) : allow('GET');
    case 'health':
      if (method !== 'GET') return allow('GET');
      return json(200, {
        status: 'ok',
        version: emulator.version,
        started_at: new Date(emulator.startedAt).toISOString(),
        uptime_ms: emulator.clock.now() - emulator.startedAt,
      });
    case 'buckets':
      return buckets(emulator, method, item, params, path, allow);
    case 'codes':
      return codes(emulator, method, item, params, path, allow);
    case 'journal': {
      if (method !== 'GET' || item !== undefined) return refuseGetOnly();
      const limit = readLimit(params, 1000, path);
      if (typeof limit !== 'number') return limit;
      return json(200, { requests: emulator.journal(limit) });
    }
    case 'config':
      if (item !== undefined) return notFound(path);
      if (method === 'GET') return json(200, publicConfig(emulator));
      if (method === 'PATCH') return patchConfig(emulator, request, path);
      return allow('GET, PATCH');
    case 'users':
      if (item !== undefined) return notFound(path);
      if (method !== 'POST') return allow('POST');
      return addUsers(emulator, request, path);
    case 'metrics':
      if (method !== 'GET' || item !== undefined) return refuseGetOnly();
      return {
        status: 200,
        headers: {
          'content-type': 'text/plain; version=0.0.4; charset=utf-8',
          'cache-control': 'no-store',
        },
        text: emulator.metrics(),
        delayMs: 0,
      };
    case 'events':
      if (method !== 'GET' || item !== undefined) return refuseGetOnly();
      return {
        status: 200,
        headers: {
          'content-type': 'text/event-stream',
          'cache-control': 'no-store',
          connection: 'keep-alive',
        },
        stream: true,
        delayMs: 0,
      };
    default:
      return notFound(path);
  }
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

function invalid(path: string, errors: FieldError[]): EmulatorResponse {
  return problem(
    createProblem('invalid-request', errors.map((error) => error.detail).join('; '), {
      instance: path,
      errors,
    }),
  );
}

function readLimit(params: URLSearchParams, max: number, path: string): number | EmulatorResponse {
  const text = params.get('limit');
  if (text === null) return max;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > max) {
    return invalid(path, [
      {
        detail: `limit must be a whole number from 1 to ${max}; got ${JSON.stringify(text)}`,
        pointer: '#/limit',
        parameter: 'limit',
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
  const text = params.get(name);
  if (text === null) return undefined;
  if ((choices as readonly string[]).includes(text)) return text as T;
  return invalid(path, [
    {
      detail: `${name} must be one of ${choices.join(', ')}; got ${JSON.stringify(text)}`,
      pointer: `#/${name}`,
      parameter: name,
    },
  ]);
}

const isResponse = (value: unknown): value is EmulatorResponse =>
  typeof value === 'object' && value !== null && 'status' in value;

function buckets(
  emulator: Emulator,
  method: string,
  key: string | undefined,
  params: URLSearchParams,
  path: string,
  allow: (methods: string) => EmulatorResponse,
): EmulatorResponse {
  if (key !== undefined) {
    if (method === 'GET' || method === 'DELETE') {
      const view = emulator.getBucket(key);
      if (view === undefined) {
        return problem(
          createProblem(
            'bucket-not-found',
            `no bucket has the key ${JSON.stringify(key)} (an unused bucket is full and not listed)`,
            { instance: path },
          ),
        );
      }
      if (method === 'GET') return json(200, view);
      emulator.resetBuckets(key);
      return json(200, { reset: [key] });
    }
    return allow('GET, DELETE');
  }
  if (method === 'DELETE') {
    const count = emulator.listBuckets({ limit: 1 }).total;
    emulator.resetBuckets();
    return json(200, { reset: 'all', count });
  }
  if (method !== 'GET') return allow('GET, DELETE');
  const level = readChoice<Level>(params, 'level', ['client', 'caller'], path);
  if (isResponse(level)) return level;
  const sort = readChoice<BucketSort>(
    params,
    'sort',
    ['pressure', 'recent', 'key', 'rejected'],
    path,
  );
  if (isResponse(sort)) return sort;
  const limit = readLimit(params, 100_000, path);
  if (isResponse(limit)) return limit;
  const result = emulator.listBuckets({
    level,
    sort,
    limit: params.has('limit') ? limit : 100,
    clientId: params.get('client') ?? undefined,
    search: params.get('search') ?? undefined,
  });
  return json(200, result);
}

function codes(
  emulator: Emulator,
  method: string,
  email: string | undefined,
  params: URLSearchParams,
  path: string,
  allow: (methods: string) => EmulatorResponse,
): EmulatorResponse {
  if (method !== 'GET') return allow('GET');
  const wanted = email ?? params.get('email') ?? undefined;
  if (wanted === undefined) return json(200, { codes: emulator.listCodes() });
  const merchantId = params.get('merchant_id') ?? undefined;
  const code = emulator.latestCode(wanted, merchantId);
  if (code === undefined) {
    const where = merchantId === undefined ? '' : ` at merchant ${merchantId}`;
    return problem(
      createProblem(
        'code-not-found',
        `no code was issued for ${wanted}${where}; call start first`,
        { instance: path },
      ),
    );
  }
  return json(200, code);
}

/** The running config without secrets: client tokens are redacted. */
export function publicConfig(emulator: Emulator): unknown {
  const source = emulator.config.source;
  return {
    ...source,
    clients: source.clients.map((client) => ({ ...client, token: redact(client.token) })),
  };
}

/** Shows the first four characters of a secret and hides the rest. */
export function redact(secret: string): string {
  return `${secret.slice(0, 4)}…(${secret.length} chars)`;
}

/** The parsed JSON body, or the malformed-json problem to answer. */
function readJsonBody(
  request: EmulatorRequest,
  path: string,
): { ok: true; value: unknown } | { ok: false; response: EmulatorResponse } {
  try {
    return { ok: true, value: JSON.parse(request.body ?? '') };
  } catch (error) {
    const detail = `the body is not valid JSON: ${(error as Error).message}`;
    return {
      ok: false,
      response: problem(createProblem('malformed-json', detail, { instance: path })),
    };
  }
}

function patchConfig(emulator: Emulator, request: EmulatorRequest, path: string): EmulatorResponse {
  const patch = readJsonBody(request, path);
  if (!patch.ok) return patch.response;
  try {
    emulator.configure(patch.value);
  } catch (error) {
    if (!isConfigError(error)) throw error;
    return problem(
      createProblem('invalid-config', error.issues.join('; '), {
        instance: path,
        errors: error.issues.map((issue) => ({
          detail: issue,
          pointer: `#/${(issue.split(':')[0] ?? '').replaceAll('.', '/')}`,
        })),
      }),
    );
  }
  return json(200, publicConfig(emulator));
}

function addUsers(emulator: Emulator, request: EmulatorRequest, path: string): EmulatorResponse {
  const read = readJsonBody(request, path);
  if (!read.ok) return read.response;
  const body = read.value;
  const users =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as { users?: unknown }).users
      : undefined;
  if (!Array.isArray(users)) {
    return invalid(path, [
      { detail: 'the body must be {"users": [{"email": ...}, ...]}', pointer: '#/users' },
    ]);
  }
  try {
    return json(200, { added: emulator.addUsers(users) });
  } catch (error) {
    if (!isConfigError(error)) throw error;
    const errors = error.issues.map((issue) => ({
      detail: issue,
      pointer: `#/users/${(issue.split(':')[0] ?? '').replace(/^\[(\d+)\]\.?/, '$1/').replaceAll('.', '/')}`,
    }));
    return invalid(path, errors);
  }
}
