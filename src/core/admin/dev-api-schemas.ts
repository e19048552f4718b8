import { BOUNDS, CLIENT_ID_MAX_LENGTH } from '../config/config-schema.js';
import { ANSWER_CUTS, OUTCOMES, RECORD_TEXT_MAX, UPSTREAM_ANSWERERS } from '../records/records.js';
import { FAULTS_MAX } from '../service/faults.js';
import { MISPLACED_MAX } from '../service/request-facts.js';
import { CHECK_REPORT_SCHEMAS } from './check-report-schemas.js';
import {
  BUCKET_KEY_MAX_LENGTH,
  BUCKET_PAGE_MAX,
  CLOCK_TEXT_MAX_LENGTH,
  COUNT_MAX,
  ISO_TIME_MAX_LENGTH,
  MAX_USERS,
  MERCHANT_ID_LENGTH,
  REQUEST_PAGE_MAX,
  USER_PAGE_MAX,
  USERS_PER_REQUEST_MAX,
  VERSION_MAX_LENGTH,
} from './dev-api-bounds.js';
import {
  array,
  integer,
  integerOrNull,
  schemaLink,
  string,
  stringOrNull,
  type JsonSchemaData,
} from './json-schema-data.js';

const count = integer(0, COUNT_MAX);
const tokens = integer(0, BOUNDS.tokens);
const time = string(ISO_TIME_MAX_LENGTH, { format: 'date-time' });
const recordText = string(RECORD_TEXT_MAX);
const bucketKey = string(BUCKET_KEY_MAX_LENGTH);
const email = string(BOUNDS.emailLength);
const userFields = {
  email,
  phone_number: string(16),
  token_count: integer(0, BOUNDS.tokenCount),
};
const merchantId = string(MERCHANT_ID_LENGTH, { format: 'uuid' });
const level = { enum: ['client', 'caller'] };
const operation = { enum: ['exists', 'start', 'verify'] };
/** The most milliseconds a header can state (an empty bucket's refill at the slowest rate). */
const WAIT_MS_MAX = 1_000_000_000_000_000;

/** The schemas of what the dev API takes and answers (besides problems), by name. */
export const DEV_API_SCHEMAS = {
  RouteList: {
    type: 'object',
    required: ['routes'],
    properties: {
      routes: array(64, string(512), 'Each route: method, path and its query parameters.'),
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'version', 'started_at', 'uptime_ms'],
    properties: {
      status: { const: 'ok' },
      version: string(VERSION_MAX_LENGTH),
      started_at: time,
      uptime_ms: { type: 'number' },
      store: {
        enum: ['memory', 'up', 'down', 'degraded'],
        description:
          '`memory`; or, on a shared store (Redis), whether it answers (`up`) or not (`down`: requests that need it get 503 store-unavailable), or answers with keys of its own holding junk that `POST /__uas/reset` repairs (`degraded`).',
      },
    },
  },
  Bucket: {
    type: 'object',
    description: 'A bucket at the time of the call (`BucketView`).',
    required: ['key', 'level', 'tokens', 'remaining', 'burst', 'rate', 'allowed', 'rejected'],
    properties: {
      key: bucketKey,
      level,
      client_id: stringOrNull(CLIENT_ID_MAX_LENGTH),
      caller_id: stringOrNull(BOUNDS.callerIdLength),
      tokens: { type: 'number', minimum: 0, description: 'Tokens now, to two decimals.' },
      remaining: tokens,
      burst: tokens,
      rate: string(BOUNDS.rateLength),
      allowed: count,
      rejected: count,
      shadow_rejected: count,
      last_seen: time,
      next_token_ms: integer(0, WAIT_MS_MAX),
      full_in_ms: integer(0, WAIT_MS_MAX),
    },
  },
  BucketPage: {
    type: 'object',
    required: ['total', 'offset', 'next_offset', 'next_after', 'buckets'],
    properties: {
      total: count,
      offset: count,
      next_offset: integerOrNull(0, COUNT_MAX),
      next_after: stringOrNull(BUCKET_KEY_MAX_LENGTH),
      buckets: array(BUCKET_PAGE_MAX, schemaLink('Bucket')),
    },
  },
  Code: {
    type: 'object',
    description: 'A one-time code (`CodeRecord`); only the dev API and the log ever show one.',
    required: ['merchant_id', 'email', 'code', 'issued_at', 'expires_at', 'attempts_left', 'used'],
    properties: {
      merchant_id: merchantId,
      email,
      code: string(10, { pattern: '^\\d+$' }),
      issued_at: time,
      expires_at: time,
      attempts_left: integer(0, BOUNDS.otpAttempts),
      used: { type: 'boolean' },
    },
  },
  CodeList: {
    type: 'object',
    required: ['codes'],
    properties: {
      codes: array(
        MAX_USERS * BOUNDS.clients * BOUNDS.merchants,
        schemaLink('Code'),
        'One live code at most per user and merchant.',
      ),
    },
  },
  CodesAnswer: {
    description: 'Every live code; with `email`, the latest code of that user.',
    oneOf: [schemaLink('CodeList'), schemaLink('Code')],
  },
  Request: {
    type: 'object',
    description:
      'A recorded request (`RequestRecord`): what it sent (never the code) and what it got. Members without a value are left out; texts from the request are cut to 256 characters.',
    required: ['id', 'at', 'method', 'path', 'status', 'outcome'],
    properties: {
      id: count,
      at: { type: 'number', description: 'Milliseconds since the epoch, on the emulator clock.' },
      method: recordText,
      path: recordText,
      operation,
      client_id: recordText,
      merchant_id: recordText,
      email: recordText,
      phone_number: recordText,
      caller_id: recordText,
      caller_id_source: { enum: ['query', 'body'] },
      caller_id_misplaced: array(MISPLACED_MAX, {
        type: 'object',
        required: ['place', 'name', 'value'],
        properties: {
          place: { enum: ['header', 'query', 'body'] },
          name: recordText,
          value: recordText,
        },
      }),
      fields: { type: 'object' },
      fingerprint: string(16, { pattern: '^[0-9a-f]{16}$' }),
      user_agent: recordText,
      idempotency_key: recordText,
      retry_attempt: recordText,
      bucket: bucketKey,
      level,
      status: integer(100, 599),
      outcome: { enum: [...OUTCOMES] },
      remaining: tokens,
      retry_after: integer(0, WAIT_MS_MAX / 1000),
      problem: recordText,
      upstream: {
        type: 'object',
        description:
          'Set on a request `uas serve --upstream` forwarded: what the real service answered (`answered_by` `upstream`), or that uas answered for it (`local`: its buckets refused first; `proxy`: the real service failed).',
        required: ['answered_by', 'headers'],
        properties: {
          answered_by: { enum: [...UPSTREAM_ANSWERERS] },
          local: { enum: ['allowed', 'refused'] },
          headers: array(32, recordText),
          policy: recordText,
          retry_after_text: recordText,
          problem_type: recordText,
          bucket: recordText,
          cut: { enum: [...ANSWER_CUTS] },
        },
      },
    },
  },
  RequestList: {
    type: 'object',
    required: ['requests'],
    properties: {
      requests: array(REQUEST_PAGE_MAX, schemaLink('Request')),
      dropped: integer(0, COUNT_MAX, 'Requests the journal let go to keep its size.'),
      next_after_id: integerOrNull(
        0,
        COUNT_MAX,
        'The after_id of the next page when this one stopped at limit; null when it holds the newest request.',
      ),
    },
  },
  Fault: {
    type: 'object',
    required: ['id', 'operation', 'status', 'remaining', 'retry_after', 'latency_ms'],
    properties: {
      id: count,
      operation: { enum: ['exists', 'start', 'verify', null] },
      status: { enum: [429, 500, 503, null] },
      remaining: integer(0, 1_000_000),
      retry_after: integerOrNull(0, BOUNDS.retryAfterSeconds),
      latency_ms: { type: ['number', 'null'], minimum: 0, maximum: BOUNDS.latencyMs },
    },
  },
  FaultSpec: {
    type: 'object',
    description: 'Give a status, a latency_ms, or both.',
    additionalProperties: false,
    properties: {
      operation,
      status: { enum: [429, 500, 503] },
      count: integer(1, 1_000_000),
      retry_after: integer(0, BOUNDS.retryAfterSeconds),
      latency_ms: integer(0, BOUNDS.latencyMs),
    },
  },
  FaultCreated: {
    type: 'object',
    required: ['fault'],
    properties: { fault: schemaLink('Fault') },
  },
  FaultList: {
    type: 'object',
    required: ['faults'],
    properties: { faults: array(FAULTS_MAX, schemaLink('Fault')) },
  },
  Cleared: {
    type: 'object',
    required: ['cleared'],
    properties: { cleared: integer(0, FAULTS_MAX, 'The faults dropped.') },
  },
  Clock: {
    type: 'object',
    required: ['mode', 'now', 'now_ms'],
    properties: {
      mode: { enum: ['manual', 'system'] },
      now: time,
      now_ms: { type: 'number' },
    },
  },
  ClockMove: {
    oneOf: [
      {
        type: 'object',
        required: ['advance_ms'],
        additionalProperties: false,
        properties: { advance_ms: { type: 'number', minimum: 0 } },
      },
      {
        type: 'object',
        required: ['set'],
        additionalProperties: false,
        properties: {
          set: {
            type: ['string', 'number'],
            maxLength: CLOCK_TEXT_MAX_LENGTH,
            description: 'ISO 8601 time or ms since the epoch.',
          },
        },
      },
    ],
  },
  Users: {
    type: 'object',
    required: ['users'],
    additionalProperties: false,
    properties: {
      users: array(USERS_PER_REQUEST_MAX, {
        type: 'object',
        required: ['email'],
        additionalProperties: false,
        properties: userFields,
      }),
    },
  },
  UserPage: {
    type: 'object',
    required: ['total', 'offset', 'next_offset', 'users'],
    properties: {
      total: integer(0, MAX_USERS),
      offset: integer(0, MAX_USERS),
      next_offset: integerOrNull(0, MAX_USERS),
      users: array(USER_PAGE_MAX, {
        type: 'object',
        required: ['email', 'token_count'],
        properties: userFields,
      }),
    },
  },
  UsersAdded: {
    type: 'object',
    required: ['added', 'replaced'],
    properties: {
      added: integer(0, USERS_PER_REQUEST_MAX),
      replaced: integer(0, USERS_PER_REQUEST_MAX),
    },
  },
  UserRemoved: {
    type: 'object',
    required: ['removed', 'codes'],
    properties: {
      removed: { ...email, description: 'The e-mail of the user removed, as it was added.' },
      codes: integer(0, COUNT_MAX, 'Its one-time codes dropped.'),
    },
  },
  Config: {
    type: 'object',
    description: 'The running config in file form, client tokens redacted (see docs/config.md).',
    required: ['clients', 'users', 'limits'],
    properties: {
      clients: array(BOUNDS.clients, { type: 'object' }),
      users: array(BOUNDS.users, { type: 'object' }),
      limits: { type: 'object' },
      behavior: { type: 'object' },
      otp: { type: 'object' },
    },
  },
  ConfigPatch: {
    type: 'object',
    description: 'A change of `limits`, `behavior` or `otp`, merged into the running config.',
    additionalProperties: false,
    properties: {
      limits: { type: 'object' },
      behavior: { type: 'object' },
      otp: { type: 'object' },
    },
  },
  Reset: {
    type: 'object',
    required: ['reset'],
    properties: {
      reset: { oneOf: [{ enum: ['all', 'emulator'] }, array(1, bucketKey)] },
      count: integer(0, COUNT_MAX, 'The buckets there were, when all are reset.'),
    },
  },
  Document: {
    type: 'object',
    description: 'An OpenAPI 3.1 document.',
    required: ['openapi', 'info', 'paths'],
    properties: {
      openapi: { const: '3.1.0' },
      info: { type: 'object' },
      paths: { type: 'object' },
    },
  },
  ...CHECK_REPORT_SCHEMAS,
} as const satisfies Record<string, JsonSchemaData>;

/** The name of a schema of the dev API. */
export type DevApiSchemaName = keyof typeof DEV_API_SCHEMAS;
