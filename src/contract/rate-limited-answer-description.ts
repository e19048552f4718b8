import type { Operation, ResolvedConfig } from '../core/config/config.js';
import type { HeaderObject, ResponseObject } from './openapi-types.js';
import { QUOTA_EXCEEDED_SCHEMA, schemaRef } from './problem-schemas.js';
import { rateLimitHeaders } from './rate-limit-header-docs.js';
import { renderExample } from './response-examples.js';
import { FIELD_INTEGER_MAX, wholeNumber } from './value-bounds.js';

const PROBLEM_TYPE = 'application/problem+json';

/** The 429 of an operation: its Retry-After (as the config sends it), fields and problem. */
export function describeRateLimitedAnswer(
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
