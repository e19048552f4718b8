import { BOUNDS, CLIENT_ID_MAX_LENGTH } from '../config/config-schema.js';
import { OUTCOMES, RECORD_TEXT_MAX } from '../records/records.js';
import {
  BUCKET_KEY_MAX_LENGTH,
  BUCKET_PAGE_MAX,
  COUNT_MAX,
  MAX_USERS,
  MERCHANT_ID_LENGTH,
  REQUEST_PAGE_MAX,
  USER_PAGE_MAX,
} from './dev-api-bounds.js';
import {
  choiceParam,
  textParam,
  wholeParam,
  type DevRoute,
  type QueryParam,
} from './dev-api-route.js';

/** The documents `GET /__uas/openapi.json` serves, by its `document` parameter. */
export const SERVED_DOCUMENTS = ['service', 'dev-api'] as const;

/** A document `GET /__uas/openapi.json` serves. */
export type ServedDocument = (typeof SERVED_DOCUMENTS)[number];

const BUCKET_KEY = {
  maxLength: BUCKET_KEY_MAX_LENGTH,
  description: 'A bucket key, percent-encoded: `caller%3Ademo%3A203.0.113.7`.',
};
const EMAIL = { maxLength: BOUNDS.emailLength, description: 'An e-mail address, percent-encoded.' };
const MERCHANT = textParam(MERCHANT_ID_LENGTH, 'A merchant id.', 'M');

/** A filter on a text a record holds: records cut texts to 256 characters, so no longer one matches. */
const recordFilter = (description: string, usage?: string) =>
  textParam(RECORD_TEXT_MAX, description, usage);

/**
 * The routes of the dev API under `/__uas`, by operation id, each declared once: the router
 * reads its parameters and body as declared here, `GET /__uas` lists it, the dev API's OpenAPI
 * document describes it, the shared emulator makes its store call a promise, and the dev client
 * calls it (a type test holds each of them to this table).
 */
export const DEV_API_TABLE = {
  listRoutes: {
    method: 'GET',
    path: '/__uas',
    summary: 'List the routes of the dev API',
    tag: 'server',
    answer: 'RouteList',
  },
  health: {
    method: 'GET',
    path: '/__uas/health',
    summary: 'Status, version and uptime',
    tag: 'server',
    answer: 'Health',
  },
  listBuckets: {
    method: 'GET',
    path: '/__uas/buckets',
    summary: 'One page of buckets',
    tag: 'buckets',
    answer: 'BucketPage',
    admin: 'listBuckets',
    store: true,
    query: {
      level: choiceParam(['client', 'caller'], 'Only the buckets of this level.'),
      sort: choiceParam(
        ['pressure', 'recent', 'key', 'rejected'],
        'The order: the emptiest first (default), the latest used, by key, the most rejected.',
      ),
      limit: wholeParam(1, BUCKET_PAGE_MAX, 'Buckets per page.', 100),
      offset: wholeParam(0, COUNT_MAX, 'Skip this many.', 0),
      after: textParam(
        BUCKET_KEY_MAX_LENGTH,
        'With sort=key: only the buckets whose key sorts after this one (the next_after of the page before).',
        'KEY',
      ),
      client: textParam(CLIENT_ID_MAX_LENGTH, 'Only the buckets of this client id.', 'ID'),
      search: textParam(
        BUCKET_KEY_MAX_LENGTH,
        'Only the buckets whose key contains this text.',
        'TEXT',
      ),
    },
  },
  resetBuckets: {
    method: 'DELETE',
    path: '/__uas/buckets',
    summary: 'Reset every bucket',
    tag: 'buckets',
    answer: 'Reset',
    admin: 'resetBuckets',
    store: true,
  },
  getBucket: {
    method: 'GET',
    path: '/__uas/buckets/{key}',
    summary: 'One bucket (an unused bucket is full and not listed)',
    tag: 'buckets',
    item: BUCKET_KEY,
    answer: 'Bucket',
    admin: 'getBucket',
    store: true,
    problems: ['bucket-not-found'],
  },
  resetBucket: {
    method: 'DELETE',
    path: '/__uas/buckets/{key}',
    summary: 'Reset one bucket',
    tag: 'buckets',
    item: BUCKET_KEY,
    answer: 'Reset',
    admin: 'resetBuckets',
    store: true,
    problems: ['bucket-not-found'],
  },
  listCodes: {
    method: 'GET',
    path: '/__uas/codes',
    summary: 'Every live code, or with `email` the latest code of that user',
    tag: 'codes',
    answer: 'CodesAnswer',
    admin: 'listCodes',
    store: true,
    showsTraffic: true,
    query: {
      email: textParam(BOUNDS.emailLength, 'An e-mail (compared case-insensitively).', 'E'),
      merchant_id: MERCHANT,
    },
    problems: ['code-not-found', 'codes-not-seen'],
  },
  latestCode: {
    method: 'GET',
    path: '/__uas/codes/{email}',
    summary: 'The latest code of a user',
    tag: 'codes',
    item: EMAIL,
    answer: 'Code',
    admin: 'latestCode',
    store: true,
    showsTraffic: true,
    query: { merchant_id: MERCHANT },
    problems: ['code-not-found', 'codes-not-seen'],
  },
  journal: {
    method: 'GET',
    path: '/__uas/journal',
    summary: 'The last requests, newest first',
    tag: 'requests',
    answer: 'RequestList',
    admin: 'journal',
    showsTraffic: true,
    query: { limit: wholeParam(1, REQUEST_PAGE_MAX, 'At most this many.', 1000) },
  },
  listRequests: {
    method: 'GET',
    path: '/__uas/requests',
    summary: 'The recorded requests that match a filter, oldest first',
    tag: 'requests',
    answer: 'RequestList',
    admin: 'requests',
    showsTraffic: true,
    query: {
      limit: wholeParam(1, REQUEST_PAGE_MAX, 'At most this many.', REQUEST_PAGE_MAX),
      status: wholeParam(100, 599, 'An HTTP status.'),
      after_id: wholeParam(0, COUNT_MAX, 'Only requests after this id.'),
      operation: choiceParam(['exists', 'start', 'verify'], 'An operation.'),
      outcome: choiceParam(OUTCOMES, 'How the limiter treated the request.'),
      email: recordFilter('An e-mail (compared case-insensitively).'),
      caller_id: recordFilter(
        'A caller_id; empty for the requests sent without one.',
        '(empty: none)',
      ),
      client_id: recordFilter('A client id.'),
      merchant_id: recordFilter('A merchant id (compared case-insensitively).'),
    },
  },
  check: {
    method: 'GET',
    path: '/__uas/check',
    summary: 'uas check on what the emulator has seen: does the integration follow the spec?',
    tag: 'requests',
    answer: 'CheckReport',
    showsTraffic: true,
  },
  reset: {
    method: 'POST',
    path: '/__uas/reset',
    summary: 'Back to the initial state',
    tag: 'server',
    answer: 'Reset',
    admin: 'reset',
    store: true,
  },
  listFaults: {
    method: 'GET',
    path: '/__uas/faults',
    summary: 'The scripted faults still to apply',
    tag: 'faults',
    answer: 'FaultList',
    admin: 'faults',
  },
  failNext: {
    method: 'POST',
    path: '/__uas/faults',
    summary: 'Script what the next calls get (429, 500, 503, latency)',
    tag: 'faults',
    status: 201,
    body: 'FaultSpec',
    answer: 'FaultCreated',
    admin: 'failNext',
    problems: ['invalid-request', 'faults-not-applied'],
  },
  clearFaults: {
    method: 'DELETE',
    path: '/__uas/faults',
    summary: 'Drop every scripted fault',
    tag: 'faults',
    answer: 'Cleared',
    admin: 'clearFaults',
  },
  getClock: {
    method: 'GET',
    path: '/__uas/clock',
    summary: "The emulator's clock",
    tag: 'clock',
    answer: 'Clock',
  },
  moveClock: {
    method: 'POST',
    path: '/__uas/clock',
    summary: 'Advance or set a manual clock',
    tag: 'clock',
    body: 'ClockMove',
    answer: 'Clock',
    problems: ['invalid-request', 'clock-not-manual', 'store-unavailable'],
  },
  listUsers: {
    method: 'GET',
    path: '/__uas/users',
    summary: 'One page of the users the emulator has now, in the order they were added',
    tag: 'config',
    answer: 'UserPage',
    admin: 'listUsers',
    // E-mail addresses and phone numbers, up to a million: not for a page of another origin.
    showsTraffic: true,
    query: {
      limit: wholeParam(1, USER_PAGE_MAX, 'Users per page.', 1000),
      offset: wholeParam(0, MAX_USERS, 'Skip this many.', 0),
      email: textParam(
        BOUNDS.emailLength,
        'Only the user with this e-mail (compared case-insensitively): a page of one, or none.',
        'E',
      ),
    },
  },
  addUsers: {
    method: 'POST',
    path: '/__uas/users',
    summary: 'Add users, or replace those with the same e-mail',
    tag: 'config',
    body: 'Users',
    answer: 'UsersAdded',
    admin: 'addUsers',
    store: true,
    problems: ['invalid-request', 'users-not-applied'],
  },
  removeUser: {
    method: 'DELETE',
    path: '/__uas/users/{email}',
    summary: 'Remove a user and drop its one-time codes',
    tag: 'config',
    item: EMAIL,
    answer: 'UserRemoved',
    admin: 'removeUser',
    store: true,
    problems: ['invalid-request', 'user-not-found', 'users-not-applied'],
  },
  getConfig: {
    method: 'GET',
    path: '/__uas/config',
    summary: 'The running config (tokens redacted)',
    tag: 'config',
    answer: 'Config',
  },
  changeConfig: {
    method: 'PATCH',
    path: '/__uas/config',
    summary: 'Change limits, behavior or otp live',
    tag: 'config',
    body: 'ConfigPatch',
    answer: 'Config',
    admin: 'configure',
    store: true,
    problems: ['invalid-config'],
  },
  events: {
    method: 'GET',
    path: '/__uas/events',
    summary: 'Server-sent events: request, code, reset, config, users',
    tag: 'server',
    query: {
      requests: choiceParam(
        ['full', 'summary'],
        'What request events carry: the whole record (default), or its summary (id, at, operation, status, outcome, level, bucket), which costs the server a small part as much.',
      ),
    },
    answer: { media: 'text/event-stream', description: 'An endless stream of server-sent events.' },
    showsTraffic: true,
    problems: ['too-many-event-readers'],
  },
  metrics: {
    method: 'GET',
    path: '/__uas/metrics',
    summary: 'Prometheus metrics',
    tag: 'server',
    answer: { media: 'text/plain', description: 'Prometheus text exposition format 0.0.4.' },
    admin: 'metrics',
    store: true,
  },
  openapi: {
    method: 'GET',
    path: '/__uas/openapi.json',
    summary: 'The OpenAPI document of the service (or, with `document=dev-api`, of the dev API)',
    tag: 'server',
    answer: 'Document',
    query: {
      document: choiceParam(
        SERVED_DOCUMENTS,
        'Which document: the service (default) or the dev API.',
      ),
    },
  },
} as const satisfies Record<string, DevRoute>;

/** The operation id of a route of the dev API. */
export type DevApiOperation = keyof typeof DEV_API_TABLE;

/** The routes of the dev API, as declared, in the table's order. */
export const DEV_API_ROUTE_LIST = Object.entries(DEV_API_TABLE).map(([operationId, route]) => ({
  operationId: operationId as DevApiOperation,
  ...(route as DevRoute),
}));

/** What `GET /__uas` shows of a query parameter after `name=`. */
function usageOf(param: QueryParam): string {
  if (param.kind === 'choice') return param.choices.join('|');
  if (param.kind === 'whole') return param.max === COUNT_MAX ? 'N' : `${param.min}..${param.max}`;
  return param.usage ?? '';
}

/** The routes of the dev API, as `GET /__uas` lists them: method, path and query parameters. */
export const DEV_API_ROUTES: readonly string[] = DEV_API_ROUTE_LIST.map((route) => {
  const query = Object.entries(route.query ?? {})
    .map(([name, param]) => `${name}=${usageOf(param)}`)
    .join('&');
  return `${route.method.padEnd(6)} ${route.path}${query === '' ? '' : `?${query}`}`;
});
