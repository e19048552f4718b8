import { PROBLEM_KINDS } from '../core/service/problems.js';
import type { OperationObject, ResponseObject } from './openapi-types.js';
import { OPERATION_PROBLEMS, type OperationProblem } from './operation-problems.js';
import { describeProblemAnswer } from './problem-answer-description.js';
import type { ExampleRequest } from './problem-examples.js';
import { schemaRef } from './problem-schemas.js';
import { describeRateLimitedAnswer } from './rate-limited-answer-description.js';
import { rateLimitHeaders, shadowHeader } from './rate-limit-header-docs.js';
import { renderExample } from './response-examples.js';

const JSON_TYPE = 'application/json';

/** The 200 of an operation: its body, with an example rendered by the emulator. */
function describeSuccess(request: ExampleRequest, callerId: string): ResponseObject {
  const { config, operation, rules, merchantId, path } = request;
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

/**
 * Every answer of an operation by status: 200, each status of its problems (their kinds
 * together) and 429, in the order of their statuses.
 */
export function describeAnswers(request: ExampleRequest): OperationObject['responses'] {
  const { config, operation, rules } = request;
  const callerId = rules.caller_id.example;
  const responses: OperationObject['responses'] = { 200: describeSuccess(request, callerId) };
  const byStatus = new Map<number, OperationProblem[]>();
  for (const problem of OPERATION_PROBLEMS[operation]) {
    const status = PROBLEM_KINDS[problem.kind].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), problem]);
  }
  byStatus.set(429, []);
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    responses[status] =
      status === 429
        ? describeRateLimitedAnswer(config, operation, callerId, request.path)
        : describeProblemAnswer(config, byStatus.get(status) ?? [], request, callerId);
  }
  return responses;
}
