import { BUCKET_PAGE_MAX, DEV_API_ROUTES, TRAFFIC_ROUTES } from '../core/admin/dev-api.js';
import { OUTCOMES } from '../core/records/records.js';
import type { ResolvedConfig } from '../core/config/config.js';
import { PROBLEM_KINDS, type ProblemKind } from '../core/service/problems.js';
import { VERSION } from '../version.js';
import { devApiSchemas } from './dev-api-schemas.js';
import { DEFAULT_SERVER_URL, type OpenApiDocumentOptions } from './openapi-document.js';
import type {
  JsonSchema,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  ResponseObject,
} from './openapi-types.js';
import { problemSchemaName, problemSchemas, schemaRef } from './problem-schemas.js';

/** What the document says of one route of the dev API, besides what its table entry says. */
interface RouteDoc {
  operationId: string;
  summary: string;
  tag: string;
  /** @default 200 */
  status?: number;
  /** The answer's schema (a component name), or a media type that is not JSON. */
  answer: string | { media: string; description: string };
  /** The schema of the JSON body it takes. */
  body?: string;
  /** Problems besides those of every route. */
  problems?: ProblemKind[];
}

/**
 * The routes of the dev API, keyed by `METHOD /path` as its route table lists them
 * (`DEV_API_ROUTES`). A route the table gains without an entry here stops the document from
 * being written, and the tests with it.
 */
const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /__uas': {
    operationId: 'listRoutes',
    summary: 'List the routes of the dev API',
    tag: 'server',
    answer: 'RouteList',
  },
  'GET /__uas/health': {
    operationId: 'health',
    summary: 'Status, version and uptime',
    tag: 'server',
    answer: 'Health',
  },
  'GET /__uas/buckets': {
    operationId: 'listBuckets',
    summary: 'One page of buckets',
    tag: 'buckets',
    answer: 'BucketPage',
    problems: ['invalid-request', 'store-unavailable'],
  },
  'DELETE /__uas/buckets': {
    operationId: 'resetBuckets',
    summary: 'Reset every bucket',
    tag: 'buckets',
    answer: 'Reset',
    problems: ['store-unavailable'],
  },
  'GET /__uas/buckets/{key}': {
    operationId: 'getBucket',
    summary: 'One bucket (an unused bucket is full and not listed)',
    tag: 'buckets',
    answer: 'Bucket',
    problems: ['bucket-not-found', 'invalid-request', 'store-unavailable'],
  },
  'DELETE /__uas/buckets/{key}': {
    operationId: 'resetBucket',
    summary: 'Reset one bucket',
    tag: 'buckets',
    answer: 'Reset',
    problems: ['bucket-not-found', 'invalid-request', 'store-unavailable'],
  },
  'GET /__uas/codes': {
    operationId: 'listCodes',
    summary: 'Every live code, or with `email` the latest code of that user',
    tag: 'codes',
    answer: 'CodesAnswer',
    problems: ['code-not-found', 'store-unavailable'],
  },
  'GET /__uas/codes/{email}': {
    operationId: 'latestCode',
    summary: 'The latest code of a user',
    tag: 'codes',
    answer: 'Code',
    problems: ['code-not-found', 'invalid-request', 'store-unavailable'],
  },
  'GET /__uas/journal': {
    operationId: 'journal',
    summary: 'The last requests, newest first',
    tag: 'requests',
    answer: 'RequestList',
    problems: ['invalid-request'],
  },
  'GET /__uas/requests': {
    operationId: 'listRequests',
    summary: 'The recorded requests that match a filter, oldest first',
    tag: 'requests',
    answer: 'RequestList',
    problems: ['invalid-request'],
  },
  'GET /__uas/check': {
    operationId: 'check',
    summary: 'uas check on what the emulator has seen: does the integration follow the spec?',
    tag: 'requests',
    answer: 'CheckReport',
  },
  'POST /__uas/reset': {
    operationId: 'reset',
    summary: 'Back to the initial state',
    tag: 'server',
    answer: 'Reset',
    problems: ['store-unavailable'],
  },
  'GET /__uas/faults': {
    operationId: 'listFaults',
    summary: 'The scripted faults still to apply',
    tag: 'faults',
    answer: 'FaultList',
  },
  'POST /__uas/faults': {
    operationId: 'failNext',
    summary: 'Script what the next calls get (429, 500, 503, latency)',
    tag: 'faults',
    status: 201,
    answer: 'FaultCreated',
    body: 'FaultSpec',
    problems: ['invalid-request'],
  },
  'DELETE /__uas/faults': {
    operationId: 'clearFaults',
    summary: 'Drop every scripted fault',
    tag: 'faults',
    answer: 'Counts',
  },
  'GET /__uas/clock': {
    operationId: 'getClock',
    summary: "The emulator's clock",
    tag: 'clock',
    answer: 'Clock',
  },
  'POST /__uas/clock': {
    operationId: 'moveClock',
    summary: 'Advance or set a manual clock',
    tag: 'clock',
    answer: 'Clock',
    body: 'ClockMove',
    problems: ['invalid-request', 'clock-not-manual'],
  },
  'POST /__uas/users': {
    operationId: 'addUsers',
    summary: 'Add users, or replace those with the same e-mail',
    tag: 'config',
    answer: 'Counts',
    body: 'Users',
    problems: ['invalid-request'],
  },
  'GET /__uas/config': {
    operationId: 'getConfig',
    summary: 'The running config (tokens redacted)',
    tag: 'config',
    answer: 'Config',
  },
  'PATCH /__uas/config': {
    operationId: 'changeConfig',
    summary: 'Change limits, behavior or otp live',
    tag: 'config',
    answer: 'Config',
    body: 'ConfigPatch',
    problems: ['invalid-config'],
  },
  'GET /__uas/events': {
    operationId: 'events',
    summary: 'Server-sent events: request, code, reset, config',
    tag: 'server',
    answer: { media: 'text/event-stream', description: 'An endless stream of server-sent events.' },
    problems: ['too-many-event-readers'],
  },
  'GET /__uas/metrics': {
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    tag: 'server',
    answer: { media: 'text/plain', description: 'Prometheus text exposition format 0.0.4.' },
    problems: ['store-unavailable'],
  },
  'GET /__uas/openapi.json': {
    operationId: 'openapi',
    summary: 'The OpenAPI document of the service (or, with `document=dev-api`, of the dev API)',
    tag: 'server',
    answer: 'Document',
  },
};

/** Problems any route of the dev API can answer with. */
const EVERY_ROUTE: ProblemKind[] = ['admin-token-required', 'host-not-allowed', 'not-found'];
/** Problems of the routes that change something, and of the reads that show traffic. */
const WRITES: ProblemKind[] = ['cross-origin-refused'];
/** Problems of the routes that read a JSON body. */
const BODIES: ProblemKind[] = ['malformed-json', 'unsupported-media-type', 'payload-too-large'];

/** Query parameters the route table's usage text does not type by itself. */
const PARAMETERS: Record<string, { schema: JsonSchema; description: string }> = {
  client: { schema: { type: 'string' }, description: 'Only the buckets of this client id.' },
  search: {
    schema: { type: 'string' },
    description: 'Only the buckets whose key contains this text.',
  },
  email: { schema: { type: 'string' }, description: 'An e-mail (compared case-insensitively).' },
  merchant_id: { schema: { type: 'string' }, description: 'A merchant id.' },
  client_id: { schema: { type: 'string' }, description: 'A client id.' },
  caller_id: {
    schema: { type: 'string' },
    description: 'A caller_id; empty for the requests sent without one.',
  },
  operation: { schema: { enum: ['exists', 'start', 'verify'] }, description: 'An operation.' },
  outcome: { schema: { enum: [...OUTCOMES] }, description: 'How the limiter treated the request.' },
  status: {
    schema: { type: 'integer', minimum: 100, maximum: 599 },
    description: 'An HTTP status.',
  },
  after_id: {
    schema: { type: 'integer', minimum: 0 },
    description: 'Only requests after this id.',
  },
  limit: {
    schema: { type: 'integer', minimum: 1, maximum: 100_000 },
    description: 'At most this many.',
  },
  offset: { schema: { type: 'integer', minimum: 0 }, description: 'Skip this many.' },
  document: {
    schema: { enum: ['service', 'dev-api'] },
    description: 'Which document: the service (default) or the dev API.',
  },
};

/** A route of the table: `GET    /__uas/buckets?level=client|caller&...`. */
interface ParsedRoute {
  method: string;
  path: string;
  query: Array<{ name: string; usage: string }>;
}

function parseRoute(line: string): ParsedRoute {
  const [method = '', target = ''] = line.split(/\s+/);
  const mark = target.indexOf('?');
  const path = mark === -1 ? target : target.slice(0, mark);
  const query = (mark === -1 ? '' : target.slice(mark + 1))
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      return { name: part.slice(0, equals), usage: part.slice(equals + 1) };
    });
  return { method, path, query };
}

/** A query parameter, typed from its usage text (`a|b`, `1..1000`, `N`) or from {@link PARAMETERS}. */
function queryParameter(name: string, usage: string): ParameterObject {
  const known = PARAMETERS[name];
  const range = /^(\d+)\.\.(\d+)$/.exec(usage);
  const schema: JsonSchema = usage.includes('|')
    ? { enum: usage.split('|') }
    : range !== null
      ? { type: 'integer', minimum: Number(range[1]), maximum: Number(range[2]) }
      : usage === 'N'
        ? { type: 'integer', minimum: 0 }
        : (known?.schema ?? { type: 'string' });
  return {
    name,
    in: 'query',
    required: false,
    description: known?.description ?? `As the route table says: \`${name}=${usage}\`.`,
    schema,
  };
}

/**
 * The OpenAPI 3.1 document of the dev API under `/__uas` (emulator only): its paths and
 * parameters are read from the dev API's route table, so a route cannot be added without the
 * document knowing. Apart from the service's document because the dev API is not part of the
 * interface a merchant integrates against (a client generated from the service's document must
 * not gain it), is never rate limited (the rate-limit rules of the service's document do not
 * apply to it), and has its own guard (an admin token, or loopback only).
 */
export function createDevApiDocument(
  config: ResolvedConfig,
  options: OpenApiDocumentOptions = {},
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const kinds = new Set<ProblemKind>();
  for (const line of DEV_API_ROUTES) {
    const route = parseRoute(line);
    const key = `${route.method} ${route.path}`;
    const doc = ROUTE_DOCS[key];
    if (doc === undefined) throw new Error(`the dev API route ${key} is not described`);
    const write = route.method !== 'GET' || TRAFFIC_ROUTES.includes(key);
    const problems = [
      ...EVERY_ROUTE,
      ...(write ? WRITES : []),
      ...(doc.body === undefined ? [] : BODIES),
      ...(doc.problems ?? []),
    ];
    problems.forEach((kind) => kinds.add(kind));
    const parameters: ParameterObject[] = [
      ...[...route.path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => ({
        name,
        in: 'path' as const,
        required: true,
        description:
          name === 'key'
            ? 'A bucket key, percent-encoded: `caller%3Ademo%3A203.0.113.7`.'
            : 'An e-mail address, percent-encoded.',
        schema: { type: 'string' },
      })),
      ...route.query.map(({ name, usage }) =>
        name === 'limit' && key === 'GET /__uas/buckets'
          ? { ...queryParameter(name, `1..${BUCKET_PAGE_MAX}`), description: 'Buckets per page.' }
          : queryParameter(name, usage),
      ),
    ];
    const operation: OperationObject = {
      operationId: doc.operationId,
      summary: doc.summary,
      description: `${doc.summary}. \`${line.replace(/\s+/, ' ')}\``,
      tags: [doc.tag],
      ...(parameters.length === 0 ? {} : { parameters }),
      ...(doc.body === undefined
        ? {}
        : {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: schemaRef(doc.body) } },
            },
          }),
      responses: {
        [doc.status ?? 200]: answer(doc),
        ...problemResponses(problems),
      },
    };
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  const tags = [...new Set(Object.values(ROUTE_DOCS).map((doc) => doc.tag))].sort();
  return {
    openapi: '3.1.0',
    info: {
      title: 'uas dev API',
      version: VERSION,
      summary:
        'Inspect and steer the uas emulator: buckets, codes, requests, faults, clock, config.',
      description: `The dev API of the uas emulator, under \`/__uas\`: never rate limited and not part of the emulated service. Open on loopback; with \`--admin-token\` every call needs \`Authorization: Bearer <admin token>\`; on another address without one it is off (404). Writes from web pages of another origin are refused. The running config has ${config.clients.length} client(s) and ${config.users.length} user(s).`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: options.serverUrl ?? DEFAULT_SERVER_URL,
        description: 'The uas emulator on the local machine.',
        'x-internal': true,
      },
    ],
    tags: tags.map((name) => ({ name, description: `The dev API: ${name}.` })),
    security: [{}, { adminToken: [] }],
    paths,
    components: {
      schemas: { ...devApiSchemas(), ...problemSchemas([...kinds], false) },
      securitySchemes: {
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The `--admin-token` of `uas serve` (`UAS_ADMIN_TOKEN`), when it has one.',
        },
      },
    },
  };
}

function answer(doc: RouteDoc): ResponseObject {
  if (typeof doc.answer !== 'string')
    return {
      description: doc.answer.description,
      content: { [doc.answer.media]: { schema: { type: 'string' } } },
    };
  return {
    description: doc.summary,
    headers: {
      'Cache-Control': {
        description: 'Dev API answers are never cached.',
        required: true,
        schema: { const: 'no-store' },
      },
    },
    content: { 'application/json': { schema: schemaRef(doc.answer) } },
  };
}

function problemResponses(kinds: ProblemKind[]): Record<string, ResponseObject> {
  const byStatus = new Map<number, ProblemKind[]>();
  for (const kind of new Set(kinds)) {
    const status = PROBLEM_KINDS[kind].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), kind]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const list = byStatus.get(status) ?? [];
    responses[status] = {
      description: list.map((kind) => `\`${kind}\`: ${PROBLEM_KINDS[kind].title}`).join('; '),
      content: {
        'application/problem+json': {
          schema:
            list.length === 1
              ? schemaRef(problemSchemaName(list[0] as ProblemKind))
              : { oneOf: list.map((kind) => schemaRef(problemSchemaName(kind))) },
        },
      },
    };
  }
  return responses;
}
