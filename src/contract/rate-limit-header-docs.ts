import type { HeaderStyle } from '../core/config/config-schema.js';
import type { ResolvedConfig } from '../core/config/config.js';
import { BUCKET_HEADER, writeRateLimitHeaders } from '../core/limits/rate-limit-headers.js';
import { takeTokens } from '../core/limits/token-bucket.js';
import type { HeaderObject, JsonSchema } from './openapi-types.js';
import { bucketKeyMaxLength, FIELD_INTEGER_MAX, wholeNumber } from './value-bounds.js';

/** The header names of a style, in the emulator's lower case, asked of the emulator's own writer. */
export function rateLimitHeaderNames(style: HeaderStyle): string[] {
  const headers: Record<string, string> = {};
  const limits = { burst: 1, refillPerMs: 1, rate: { tokens: 1, windowMs: 1 }, rateText: '1/ms' };
  writeRateLimitHeaders(headers, style, 'client', limits, takeTokens(undefined, 0, limits, 1), 1);
  return Object.keys(headers);
}

const SPECIAL_WORDS: Record<string, string> = {
  ratelimit: 'RateLimit',
  uas: 'UAS',
  www: 'WWW',
  x: 'X',
};

/** The usual spelling of a header name: `ratelimit-policy` is `RateLimit-Policy`. */
export function canonicalHeaderName(name: string): string {
  return name
    .split('-')
    .map((word) => SPECIAL_WORDS[word] ?? `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join('-');
}

const WHOLE: JsonSchema = wholeNumber(0, FIELD_INTEGER_MAX);

/** A header of `pattern`, whose matches are at most `maxLength` characters long. */
const text = (pattern: string, maxLength: number): JsonSchema => ({
  type: 'string',
  pattern,
  maxLength,
});

/** What each rate-limit header says, by style and lower-case name. */
function describeHeader(style: HeaderStyle, name: string, limits: string): HeaderObject {
  const sf = 'a Structured Field (RFC 9651)';
  switch (`${style} ${name}`) {
    case 'draft-10 ratelimit':
      return {
        description: `The bucket's state after this request (IETF RateLimit draft-10), ${sf} List: \`"<policy>";r=<whole tokens left>;t=<seconds to the next token>\`; on a 429, \`t\` is the wait until the request can pass. The policy is \`client\` or \`caller\`.`,
        schema: text('^"(client|caller)";r=\\d{1,15};t=\\d{1,15}$', 8 + 3 + 15 + 3 + 15),
      };
    case 'draft-10 ratelimit-policy':
      return {
        description: `The quota of the bucket, ${sf} List: \`"<policy>";q=<burst>;w=<seconds to refill from empty>\`. ${limits}`,
        schema: text('^"(client|caller)";q=\\d{1,15};w=\\d{1,15}$', 8 + 3 + 15 + 3 + 15),
      };
    case 'draft-7 ratelimit':
      return {
        description: `The bucket's state after this request (IETF RateLimit draft-7), ${sf} Dictionary: \`limit=<burst>, remaining=<whole tokens left>, reset=<seconds to the next token>\`.`,
        schema: text(
          '^limit=\\d{1,15}, remaining=\\d{1,15}, reset=\\d{1,15}$',
          6 + 15 + 12 + 15 + 8 + 15,
        ),
      };
    case 'draft-7 ratelimit-policy':
    case 'draft-6 ratelimit-policy':
      return {
        description: `The quota of the bucket: \`<burst>;w=<seconds to refill from empty>\`. ${limits}`,
        schema: text('^\\d{1,15};w=\\d{1,15}$', 15 + 3 + 15),
      };
    case 'draft-6 ratelimit-limit':
    case 'x-ratelimit x-ratelimit-limit':
      return { description: `The bucket's size (burst), in requests. ${limits}`, schema: WHOLE };
    case 'draft-6 ratelimit-remaining':
    case 'x-ratelimit x-ratelimit-remaining':
      return { description: 'Whole tokens left in the bucket after this request.', schema: WHOLE };
    case 'draft-6 ratelimit-reset':
    case 'x-ratelimit x-ratelimit-reset':
      return {
        description:
          'Seconds until the next token (on a 429, until the request can pass); a delay, not a time.',
        schema: WHOLE,
      };
    default:
      throw new Error(`no description of the ${name} header of the ${style} style`);
  }
}

/** The limits of a config in words: `client bucket 20 tokens at 10/s; caller buckets 5 at 1/s`. */
export function describeLimits(config: ResolvedConfig): string {
  const { client, caller, cost } = config.limits;
  return (
    `In this configuration: the client bucket holds ${client.burst} tokens and refills at ${client.rateText}; ` +
    `each caller bucket holds ${caller.burst} tokens and refills at ${caller.rateText}; ` +
    `exists costs ${cost.exists}, start ${cost.start}, verify ${cost.verify}.`
  );
}

/** How a response carries the bucket's state. */
export type BucketStage = 'counted' | 'not-counted' | 'maybe';

/**
 * The rate-limit headers of a response in the configured style, with an example from `sample`
 * (an answer rendered by the emulator). `counted`: always sent; `not-counted`: declared (so that
 * generic tools see where they would be) but not sent, since the answer comes before a bucket
 * is chosen; `maybe`: sent by some answers of that status only.
 */
export function rateLimitHeaders(
  config: ResolvedConfig,
  stage: BucketStage,
  sample: Record<string, string> | undefined,
): Record<string, HeaderObject> {
  const style = config.behavior.headers;
  const headers: Record<string, HeaderObject> = {};
  const limits = describeLimits(config);
  for (const name of rateLimitHeaderNames(style)) {
    const base = describeHeader(style, name, limits);
    const example = sample?.[name];
    headers[canonicalHeaderName(name)] = {
      ...base,
      description:
        stage === 'counted'
          ? base.description
          : stage === 'not-counted'
            ? `Not sent on this answer: it is given before a bucket is chosen. ${base.description}`
            : `Sent when the request reached its bucket. ${base.description}`,
      required: stage === 'counted',
      ...(example === undefined
        ? {}
        : { example: base.schema.type === 'integer' ? Number(example) : example }),
    };
  }
  if (stage !== 'not-counted') {
    headers[canonicalHeaderName(BUCKET_HEADER)] = {
      description:
        'The bucket the request was counted in, `client:<clientId>` or `caller:<clientId>:<caller_id>`: sent by the uas emulator on every answer that reached a bucket (not part of the real service).',
      required: false,
      schema: text('^(client|caller):', bucketKeyMaxLength(config.callerIdMaxLength)),
      ...(sample?.[BUCKET_HEADER] === undefined ? {} : { example: sample[BUCKET_HEADER] }),
    };
  }
  return headers;
}

/** `UAS-Shadow-Limited`: sent in shadow mode on an answer that would have been 429. */
export function shadowHeader(): Record<string, HeaderObject> {
  return {
    'UAS-Shadow-Limited': {
      description:
        'In shadow mode (`behavior.shadow`), `true` on an answer that would have been 429: the bucket was empty but the request ran.',
      required: false,
      schema: { const: 'true' },
    },
  };
}
