import { OUTCOMES } from '../core/admin/records.js';
import type { JsonSchema } from './openapi-types.js';
import { schemaRef } from './problem-schemas.js';

const whole: JsonSchema = { type: 'integer', minimum: 0 };
const text: JsonSchema = { type: 'string' };
const optionalText: JsonSchema = { type: ['string', 'null'] };
const level: JsonSchema = { enum: ['client', 'caller'] };
const operation: JsonSchema = { enum: ['exists', 'start', 'verify'] };

/** The schemas of the dev API's answers, written from the types its routes return. */
export function devApiSchemas(): Record<string, JsonSchema> {
  return {
    RouteList: {
      type: 'object',
      required: ['routes'],
      properties: { routes: { type: 'array', maxItems: 100, items: text } },
    },
    Health: {
      type: 'object',
      required: ['status', 'version', 'started_at', 'uptime_ms'],
      properties: {
        status: { const: 'ok' },
        version: text,
        started_at: { type: 'string', format: 'date-time' },
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
        key: text,
        level,
        client_id: optionalText,
        caller_id: optionalText,
        tokens: { type: 'number', minimum: 0, description: 'Tokens now, to two decimals.' },
        remaining: whole,
        burst: whole,
        rate: text,
        allowed: whole,
        rejected: whole,
        shadow_rejected: whole,
        last_seen: { type: 'string', format: 'date-time' },
        next_token_ms: whole,
        full_in_ms: whole,
      },
    },
    BucketPage: {
      type: 'object',
      required: ['total', 'offset', 'next_offset', 'buckets'],
      properties: {
        total: whole,
        offset: whole,
        next_offset: { type: ['integer', 'null'], minimum: 0 },
        buckets: { type: 'array', maxItems: 1000, items: schemaRef('Bucket') },
      },
    },
    Code: {
      type: 'object',
      description: 'A one-time code (`CodeRecord`); only the dev API and the log ever show one.',
      required: [
        'merchant_id',
        'email',
        'code',
        'issued_at',
        'expires_at',
        'attempts_left',
        'used',
      ],
      properties: {
        merchant_id: text,
        email: text,
        code: { type: 'string', pattern: '^\\d+$' },
        issued_at: { type: 'string', format: 'date-time' },
        expires_at: { type: 'string', format: 'date-time' },
        attempts_left: whole,
        used: { type: 'boolean' },
      },
    },
    CodeList: {
      type: 'object',
      required: ['codes'],
      properties: { codes: { type: 'array', maxItems: 1_000_000, items: schemaRef('Code') } },
    },
    CodesAnswer: {
      description: 'Every live code; with `email`, the latest code of that user.',
      oneOf: [schemaRef('CodeList'), schemaRef('Code')],
    },
    Request: {
      type: 'object',
      description:
        'A recorded request (`RequestRecord`): what it sent (never the code) and what it got. Members without a value are left out.',
      required: ['id', 'at', 'method', 'path', 'status', 'outcome'],
      properties: {
        id: whole,
        at: { type: 'number', description: 'Milliseconds since the epoch, on the emulator clock.' },
        method: text,
        path: text,
        operation,
        client_id: text,
        merchant_id: text,
        email: text,
        phone_number: text,
        caller_id: text,
        caller_id_source: { enum: ['query', 'body'] },
        caller_id_misplaced: {
          type: 'array',
          maxItems: 64,
          items: {
            type: 'object',
            required: ['place', 'name', 'value'],
            properties: { place: { enum: ['header', 'query', 'body'] }, name: text, value: text },
          },
        },
        fields: { type: 'object' },
        fingerprint: text,
        user_agent: text,
        idempotency_key: text,
        retry_attempt: text,
        bucket: text,
        level,
        status: { type: 'integer', minimum: 100, maximum: 599 },
        outcome: { enum: [...OUTCOMES] },
        remaining: whole,
        retry_after: whole,
        problem: text,
      },
    },
    RequestList: {
      type: 'object',
      required: ['requests'],
      properties: {
        requests: { type: 'array', maxItems: 1_000_000, items: schemaRef('Request') },
        dropped: { ...whole, description: 'Requests the journal let go to keep its size.' },
        next_after_id: {
          type: ['integer', 'null'],
          minimum: 0,
          description:
            'The after_id of the next page when this one stopped at limit; null when it holds the newest request.',
        },
      },
    },
    CheckReport: {
      type: 'object',
      description:
        'The report of uas check on the requests the emulator has seen: a summary, the findings worst first, and every rule with its status.',
      required: ['summary', 'findings', 'rules', 'dropped'],
      properties: {
        summary: { type: 'object' },
        findings: {
          type: 'array',
          items: {
            type: 'object',
            required: ['rule', 'severity', 'message', 'spec', 'docs', 'fix', 'evidence'],
            properties: {
              rule: { type: 'string' },
              severity: { enum: ['error', 'warn'] },
              message: { type: 'string' },
              spec: { type: 'string' },
              docs: {
                type: 'string',
                description:
                  "Where the rule is explained, the spec's text quoted: docs/check-rules.md#<rule id>, in the uas package and repository.",
              },
              fix: { type: 'string' },
              evidence: { type: 'object' },
            },
          },
        },
        rules: {
          type: 'array',
          items: {
            type: 'object',
            required: ['rule', 'severity', 'status'],
            properties: {
              rule: { type: 'string' },
              severity: { enum: ['error', 'warn'] },
              status: { enum: ['passed', 'failed', 'not-exercised'] },
              reason: { type: 'string' },
            },
          },
        },
        dropped: { ...whole, description: 'Requests the journal let go: not judged.' },
        warnings: {
          type: 'array',
          items: { type: 'string' },
          description:
            'What the report could not judge, one sentence each (requests the journal let go); absent when nothing was left out.',
        },
      },
    },
    Fault: {
      type: 'object',
      required: ['id', 'operation', 'status', 'remaining', 'retry_after', 'latency_ms'],
      properties: {
        id: whole,
        operation: { enum: ['exists', 'start', 'verify', null] },
        status: { enum: [429, 500, 503, null] },
        remaining: whole,
        retry_after: { type: ['integer', 'null'], minimum: 0 },
        latency_ms: { type: ['number', 'null'], minimum: 0 },
      },
    },
    FaultSpec: {
      type: 'object',
      description: 'Give a status, a latency_ms, or both.',
      additionalProperties: false,
      properties: {
        operation,
        status: { enum: [429, 500, 503] },
        count: { type: 'integer', minimum: 1, maximum: 1_000_000 },
        retry_after: { type: 'integer', minimum: 0, maximum: 86_400 },
        latency_ms: { type: 'number', minimum: 0, maximum: 3_600_000 },
      },
    },
    FaultCreated: {
      type: 'object',
      required: ['fault'],
      properties: { fault: schemaRef('Fault') },
    },
    FaultList: {
      type: 'object',
      required: ['faults'],
      properties: { faults: { type: 'array', maxItems: 1_000_000, items: schemaRef('Fault') } },
    },
    Clock: {
      type: 'object',
      required: ['mode', 'now', 'now_ms'],
      properties: {
        mode: { enum: ['manual', 'system'] },
        now: { type: 'string', format: 'date-time' },
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
          properties: { set: { type: ['string', 'number'], description: 'ISO 8601 time or ms.' } },
        },
      ],
    },
    Users: {
      type: 'object',
      required: ['users'],
      properties: {
        users: {
          type: 'array',
          maxItems: 100_000,
          items: {
            type: 'object',
            required: ['email'],
            properties: { email: text, phone_number: text, token_count: whole },
          },
        },
      },
    },
    Config: {
      type: 'object',
      description: 'The running config in file form, client tokens redacted (see docs/config.md).',
      required: ['clients', 'users', 'limits'],
      properties: {
        clients: { type: 'array', maxItems: 1000, items: { type: 'object' } },
        users: { type: 'array', maxItems: 100_000, items: { type: 'object' } },
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
        reset: {
          oneOf: [{ enum: ['all', 'emulator'] }, { type: 'array', maxItems: 1, items: text }],
        },
        count: whole,
      },
    },
    Counts: {
      type: 'object',
      properties: { added: whole, cleared: whole },
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
  };
}
