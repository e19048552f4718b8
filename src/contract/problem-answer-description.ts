import type { ResolvedConfig } from '../core/config/config.js';
import { BOUNDS } from '../core/config/config-schema.js';
import { PROBLEM_KINDS, type ProblemKind } from '../core/service/problems.js';
import type { HeaderObject, MediaTypeObject, ResponseObject } from './openapi-types.js';
import type { OperationProblem } from './operation-problems.js';
import { problemExample, type ExampleRequest } from './problem-examples.js';
import { problemSchemaName, schemaRef } from './problem-schemas.js';
import { rateLimitHeaders, shadowHeader, type BucketStage } from './rate-limit-header-docs.js';
import { renderExample } from './response-examples.js';
import { wholeNumber } from './value-bounds.js';

const PROBLEM_TYPE = 'application/problem+json';

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

/** Whether the answers of these problems carry the bucket's state: all, none, or some. */
function stageOf(problems: OperationProblem[]): BucketStage {
  const first = problems[0] as OperationProblem;
  const stages = new Set(problems.map((problem) => problem.stage));
  if (problems.some((problem) => problem.fault === true) || stages.size > 1) return 'maybe';
  return first.stage === 'bucket' ? 'counted' : 'not-counted';
}

/** The headers of a problem answer: the rate-limit fields, and a challenge or Retry-After. */
function problemHeaders(
  config: ResolvedConfig,
  problems: OperationProblem[],
  status: number,
  sample: Record<string, string> | undefined,
): Record<string, HeaderObject> {
  const stage = stageOf(problems);
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
  if (problems.some((problem) => problem.fault === true))
    headers['Retry-After'] = {
      description:
        'Seconds to wait before retrying, when the answer was scripted with one (failNext).',
      required: false,
      schema: wholeNumber(0, BOUNDS.retryAfterSeconds),
      example: 1,
    };
  return headers;
}

/** The answer of an operation with one status of error: each of its problems, with an example. */
export function describeProblemAnswer(
  config: ResolvedConfig,
  problems: OperationProblem[],
  request: ExampleRequest,
  callerId: string,
): ResponseObject {
  const first = problems[0] as OperationProblem;
  const status = PROBLEM_KINDS[first.kind].status;
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
  const kinds = problems.map((problem) => problem.kind);
  const described = kinds.map((kind) => `\`${kind}\`: ${PROBLEM_KINDS[kind].title.toLowerCase()}`);
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}. Problem types: ${described.join('; ')}.`,
    headers: problemHeaders(config, problems, status, sample),
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
