import type { Operation, ResolvedConfig } from '../core/config/config.js';
import { PROBLEM_KINDS, problemType, type ProblemKind } from '../core/service/problems.js';
import { createInputRules, type InputRules } from '../core/service/input-rules.js';
import { VERSION } from '../version.js';
import { fieldSchema } from './field-schema.js';
import type {
  HeaderObject,
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  ResponseObject,
} from './openapi-types.js';
import {
  OPERATION_PROBLEMS,
  TRANSPORT_PROBLEMS,
  type OperationProblem,
} from './operation-problems.js';
import { problemExample, type ExampleRequest } from './problem-examples.js';
import {
  problemSchemaName,
  problemSchemas,
  QUOTA_EXCEEDED_SCHEMA,
  schemaRef,
} from './problem-schemas.js';
import { describeLimits, rateLimitHeaders, type BucketStage } from './rate-limit-header-docs.js';
import { renderExample } from './response-examples.js';
import { operationPath, SERVICE_PATHS } from '../core/service/service-routes.js';
import { operationSchemas } from './success-schemas.js';
import { bucketKeyMaxLength, FIELD_INTEGER_MAX, wholeNumber } from './value-bounds.js';
import { BOUNDS } from '../core/config/config-schema.js';

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /**
   * The base URL the document names as its server.
   * @default 'http://127.0.0.1:4010' (where `uas serve` listens)
   */
  serverUrl?: string;
}

/** Where `uas serve` listens by default. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:4010';

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';

const OPERATIONS: readonly Operation[] = ['exists', 'start', 'verify'];

/**
 * The OpenAPI 3.1 document of the service as the emulator runs it under `config`: the three
 * operations with their parameters, bodies, answers and every problem they can answer with, the
 * Bearer scheme, the rate-limit fields of the configured style and Retry-After. Written from the
 * rules and constants the emulator runs on (input rules, problem kinds, the header writer, the
 * 429 renderer), so it cannot drift from them. Pure: the same config gives the same document.
 * The dev API is described apart, by `createDevApiDocument`.
 */
export function createOpenApiDocument(
  config: ResolvedConfig,
  options: OpenApiDocumentOptions = {},
): OpenApiDocument {
  const rules = createInputRules(config.callerIdMaxLength);
  const merchantId = config.clients[0]?.merchants[0] ?? '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01';
  const kinds = [...new Set(OPERATIONS.flatMap((op) => OPERATION_PROBLEMS[op].map((p) => p.kind)))];
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of OPERATIONS) {
    const method = operation === 'exists' ? 'get' : 'post';
    paths[SERVICE_PATHS[operation]] = {
      [method]: describeOperation(config, operation, rules, merchantId),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rate-limited user-access API (uas emulator)',
      version: VERSION,
      summary:
        'User existence check and passwordless sign-in, limited per client or per caller_id.',
      description: describeService(config),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: options.serverUrl ?? DEFAULT_SERVER_URL,
        description:
          'The uas emulator (`uas serve`) on the local machine; the real service has its own base URL.',
        'x-internal': true,
      },
    ],
    tags: [
      { name: 'users', description: 'Whether a user exists.' },
      { name: 'passwordless', description: 'Passwordless sign-in: start, then verify the code.' },
    ],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas: {
        ...operationSchemas(rules),
        ...problemSchemas(kinds, {
          bucketMaxLength: bucketKeyMaxLength(config.callerIdMaxLength),
        }),
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Every request sends `Authorization: Bearer <access token>`. The token names the client, and so its client bucket. A missing, malformed or unknown token is answered 401 before any bucket is touched. How tokens are obtained is not part of the interface; the emulator takes the tokens of its config.',
        },
      },
    },
  };
}

function describeService(config: ResolvedConfig): string {
  const { behavior, limits } = config;
  const retryAfter =
    behavior.retryAfter.mode === 'exact'
      ? 'the exact wait in whole seconds, rounded up'
      : behavior.retryAfter.mode === 'fixed'
        ? `${behavior.retryAfter.seconds} s, or the exact wait when longer`
        : 'not sent (`behavior.retryAfter: absent`)';
  const notes = [
    behavior.shadow
      ? '- Shadow mode is on: requests are counted but never refused for an empty bucket; answers that would have been 429 carry `UAS-Shadow-Limited: true`.'
      : undefined,
    behavior.chaos > 0
      ? `- Chaos is on: a request is answered 429 at random with probability ${behavior.chaos}, without charging its bucket (\`injected: true\`).`
      : undefined,
    behavior.latency.maxMs > 0
      ? `- Added latency: ${behavior.latency.minMs} to ${behavior.latency.maxMs} ms per answer.`
      : undefined,
  ].filter((line) => line !== undefined);
  return [
    'The three operations of the rate-limited user-access API, as the uas emulator serves them under its running configuration. Limits, Retry-After and the rate-limit fields below are those of that configuration.',
    '',
    '## Rate limiting',
    '',
    `Token buckets: each request is counted in exactly one bucket, the caller bucket of its \`caller_id\` when it sends a valid one, else the client bucket of its access token. ${describeLimits(config)} Caller buckets are ${limits.callerScope === 'global' ? 'shared by every client' : 'per client'}. An empty bucket is answered 429 before the request is validated; a refused request (400, 403, 404, 413, 415) ${limits.countInvalid ? 'still takes a token (`limits.countInvalid`)' : 'takes no token'}.`,
    '',
    `Rate-limit fields: ${behavior.headers === 'none' ? 'none are sent (`behavior.headers: none`); `UAS-Bucket` still names the bucket' : `the ${behavior.headers} style, on every answer that reached a bucket`}. Retry-After on a 429: ${retryAfter}. A client should retry a 429 with exponential backoff and jitter, at most 3 attempts, never before Retry-After.`,
    ...(notes.length > 0 ? ['', ...notes] : []),
    '',
    '## Errors',
    '',
    `Every error is \`application/problem+json\` (RFC 9457). A request that is not HTTP enough to reach an operation is answered ${TRANSPORT_PROBLEMS.map((kind) => `${PROBLEM_KINDS[kind].status} \`${problemType(kind)}\``).join(', ')}; an unknown path 404 \`${problemType('not-found')}\`; a wrong method 405 \`${problemType('method-not-allowed')}\` with \`Allow\`.`,
  ].join('\n');
}

/** One operation: its parameters, body, success and every problem, with examples. */
function describeOperation(
  config: ResolvedConfig,
  operation: Operation,
  rules: InputRules,
  merchantId: string,
): OperationObject {
  const path = operationPath(operation, merchantId);
  const callerId = rules.caller_id.example;
  const cost = config.limits.cost[operation];
  const counting = `Counted in the caller bucket of \`caller_id\` when one is sent (${config.limits.caller.burst} tokens, refilling at ${config.limits.caller.rateText}), else in the client bucket (${config.limits.client.burst} tokens at ${config.limits.client.rateText}); costs ${cost} token${cost === 1 ? '' : 's'}.`;
  const request: ExampleRequest = { operation, path, merchantId, rules, config };
  const responses: OperationObject['responses'] = {
    200: success(config, operation, rules, merchantId, callerId, path),
  };
  const byStatus = new Map<number, OperationProblem[]>();
  for (const problem of OPERATION_PROBLEMS[operation]) {
    const status = PROBLEM_KINDS[problem.kind].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), problem]);
  }
  byStatus.set(429, []);
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    responses[status] =
      status === 429
        ? tooManyRequests(config, operation, callerId, path)
        : problemResponse(config, byStatus.get(status) ?? [], request, callerId);
  }
  const common = {
    tags: [operation === 'exists' ? 'users' : 'passwordless'],
    security: [{ bearerAuth: [] }],
    responses,
  };
  switch (operation) {
    case 'exists':
      return {
        operationId: 'exists',
        summary: 'Check whether a user exists',
        description: `Looks a user up by e-mail or by phone number: give exactly one of \`email\` and \`phone_number\`. Not scoped to a merchant. ${counting} Unknown query parameters are ignored; a parameter given twice is refused.`,
        parameters: [
          queryParameter(
            'email',
            rules,
            'The e-mail of the user to look up (or give `phone_number`).',
          ),
          queryParameter(
            'phone_number',
            rules,
            'The phone number of the user to look up, instead of `email`.',
          ),
          queryParameter('caller_id', rules, undefined),
        ],
        ...common,
      };
    case 'start':
    case 'verify':
      return {
        operationId: operation,
        summary:
          operation === 'start'
            ? 'Start a passwordless sign-in (send a code)'
            : 'Verify the code of a passwordless sign-in',
        description:
          operation === 'start'
            ? `Issues a one-time code of ${config.otp.length} digits for (merchant, e-mail), replacing any earlier one, valid ${Math.round(config.otp.ttlMs / 1000)} s for ${config.otp.maxAttempts} wrong attempts. The code is never in the answer: the user receives it (the emulator shows it in its dev API and log). ${counting}`
            : `Signs the user in with the code of the latest start at this merchant; a code works once. A wrong code is 422 with the attempts left; past ${config.otp.maxAttempts} wrong codes the code dies (403). ${counting}`,
        parameters: [
          {
            name: 'merchant_id',
            in: 'path',
            required: true,
            description: 'The merchant, which must belong to the client of the access token.',
            schema: schemaRef('MerchantId'),
            example: merchantId,
          },
        ],
        requestBody: {
          description: `A JSON object (\`application/json\` or another \`application/*+json\` type) of at most ${config.maxBodyBytes} bytes.`,
          required: true,
          content: {
            [JSON_TYPE]: {
              schema: schemaRef(operation === 'start' ? 'StartRequest' : 'VerifyRequest'),
              examples: {
                'with-caller-id': {
                  summary: 'With the caller_id of the shopper (recommended)',
                  value:
                    operation === 'start'
                      ? { email: rules.email.example, caller_id: callerId }
                      : {
                          email: rules.email.example,
                          verification_code: rules.verification_code.example,
                          caller_id: callerId,
                        },
                },
              },
            },
          },
        },
        ...common,
      };
  }
}

function queryParameter(
  name: 'email' | 'phone_number' | 'caller_id',
  rules: InputRules,
  description: string | undefined,
): ParameterObject {
  const rule = rules[name];
  return {
    name,
    in: 'query',
    required: false,
    description: description ?? rule.description,
    schema: fieldSchema(rule),
    example: rule.example,
  };
}

function success(
  config: ResolvedConfig,
  operation: Operation,
  rules: InputRules,
  merchantId: string,
  callerId: string,
  path: string,
): ResponseObject {
  const firstUser = config.users[0];
  const body =
    operation === 'exists'
      ? { exists: true, token_count: firstUser?.token_count ?? 2 }
      : operation === 'start'
        ? {
            sent: true,
            expires_in: Math.round(config.otp.ttlMs / 1000),
            attempts_allowed: config.otp.maxAttempts,
          }
        : { verified: true, email: rules.email.example, merchant_id: merchantId };
  const rendered = renderExample(config, operation, 'caller', callerId, 'allowed', 200, body, path);
  const schema = { exists: 'ExistsAnswer', start: 'StartAnswer', verify: 'VerifyAnswer' }[
    operation
  ];
  return {
    description:
      operation === 'exists'
        ? 'Whether the user exists, and how many tokens they have.'
        : operation === 'start'
          ? 'A code was sent to the user.'
          : 'The user is signed in.',
    headers: {
      ...rateLimitHeaders(config, 'counted', rendered.headers),
      ...shadowHeader(),
    },
    content: {
      [JSON_TYPE]: {
        schema: schemaRef(schema),
        examples: { answer: { summary: 'The answer', value: rendered.body } },
      },
    },
  };
}

function shadowHeader(): Record<string, HeaderObject> {
  return {
    'UAS-Shadow-Limited': {
      description:
        'In shadow mode (`behavior.shadow`), `true` on an answer that would have been 429: the bucket was empty but the request ran.',
      required: false,
      schema: { const: 'true' },
    },
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'The request is not valid',
  401: 'Authentication is required',
  403: 'Forbidden',
  404: 'Not found',
  408: 'The request was not sent in time',
  409: 'Conflict',
  410: 'Gone',
  413: 'The body is too large',
  415: 'Unsupported media type',
  422: 'The code is wrong',
  431: 'The request header fields are too large',
  500: 'The emulator failed',
  503: 'Unavailable',
};

function problemResponse(
  config: ResolvedConfig,
  problems: OperationProblem[],
  request: ExampleRequest,
  callerId: string,
): ResponseObject {
  const first = problems[0] as OperationProblem;
  const status = PROBLEM_KINDS[first.kind].status;
  const stages = new Set(problems.map((problem) => problem.stage));
  const faults = problems.some((problem) => problem.fault === true);
  const stage: BucketStage = faults
    ? 'maybe'
    : stages.size > 1
      ? 'maybe'
      : first.stage === 'bucket'
        ? 'counted'
        : 'not-counted';
  const examples: MediaTypeObject['examples'] = {};
  let sample: Record<string, string> | undefined;
  for (const { kind } of problems) {
    const body = problemExample(kind, request);
    const rendered = renderExample(
      config,
      request.operation,
      'caller',
      callerId,
      'refused',
      status,
      body,
      request.path,
    );
    sample ??= rendered.headers;
    examples[kind] = { summary: PROBLEM_KINDS[kind].title, value: body };
  }
  const headers: Record<string, HeaderObject> = { ...rateLimitHeaders(config, stage, sample) };
  if (stage !== 'not-counted') Object.assign(headers, shadowHeader());
  if (status === 401)
    headers['WWW-Authenticate'] = {
      description:
        'The Bearer challenge (RFC 6750): `Bearer realm="uas"`, with `error="invalid_request"` for a malformed header or `error="invalid_token"` for an unknown token.',
      required: true,
      // The scheme is case-insensitive (RFC 9110 section 11.1).
      // The longest challenge the emulator sends is 95 characters.
      schema: { type: 'string', pattern: '^[Bb][Ee][Aa][Rr][Ee][Rr]( |$)', maxLength: 128 },
      example:
        'Bearer realm="uas", error="invalid_token", error_description="unknown access token"',
    };
  if (faults)
    headers['Retry-After'] = {
      description:
        'Seconds to wait before retrying, when the answer was scripted with one (failNext).',
      required: false,
      schema: wholeNumber(0, BOUNDS.retryAfterSeconds),
      example: 1,
    };
  const kinds = problems.map((problem) => problem.kind);
  const described = kinds.map((kind) => `\`${kind}\`: ${PROBLEM_KINDS[kind].title.toLowerCase()}`);
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}. Problem types: ${described.join('; ')}.`,
    headers,
    content: {
      [PROBLEM_TYPE]: {
        schema:
          kinds.length === 1
            ? schemaRef(problemSchemaName(first.kind))
            : { oneOf: kinds.map((kind: ProblemKind) => schemaRef(problemSchemaName(kind))) },
        examples,
      },
    },
  };
}

function tooManyRequests(
  config: ResolvedConfig,
  operation: Operation,
  callerId: string,
  path: string,
): ResponseObject {
  const rendered = renderExample(
    config,
    operation,
    'caller',
    callerId,
    'rate-limited',
    429,
    undefined,
    path,
  );
  const mode = config.behavior.retryAfter;
  const headers: Record<string, HeaderObject> = {
    ...rateLimitHeaders(config, 'counted', rendered.headers),
  };
  if (mode.mode !== 'absent')
    headers['Retry-After'] = {
      description:
        mode.mode === 'exact'
          ? 'Whole seconds to wait (delay-seconds), rounded up: a token is back by then, never later.'
          : `Whole seconds to wait (delay-seconds): ${mode.seconds}, or the exact wait when that is longer.`,
      required: true,
      schema: wholeNumber(0, FIELD_INTEGER_MAX),
      example: Number(rendered.headers['retry-after']),
    };
  headers['Cache-Control'] = {
    description: 'A 429 is never cached.',
    required: true,
    schema: { const: 'no-store' },
    example: 'no-store',
  };
  return {
    description: `The bucket is empty: wait for Retry-After${mode.mode === 'absent' ? ' (not sent in this configuration: use the RateLimit fields)' : ''}, then retry, at most 3 attempts with exponential backoff and jitter. Also answered when a 429 is injected (chaos, failNext), without charging the bucket.`,
    headers,
    content: {
      [PROBLEM_TYPE]: {
        schema: schemaRef(QUOTA_EXCEEDED_SCHEMA),
        examples: {
          'caller-bucket-empty': { summary: 'The caller bucket is empty', value: rendered.body },
        },
      },
    },
  };
}
