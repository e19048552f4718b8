import type { ResolvedConfig } from '../core/config/config.js';
import { PROBLEM_KINDS, problemType } from '../core/service/problems.js';
import { TRANSPORT_PROBLEMS } from './operation-problems.js';
import { describeLimits } from './rate-limit-header-docs.js';

/** How Retry-After is sent under `config`, in words. */
function describeRetryAfter(config: ResolvedConfig): string {
  const { retryAfter } = config.behavior;
  return retryAfter.mode === 'exact'
    ? 'the exact wait in whole seconds, rounded up'
    : retryAfter.mode === 'fixed'
      ? `${retryAfter.seconds} s, or the exact wait when longer`
      : 'not sent (`behavior.retryAfter: absent`)';
}

/** What the config turns on besides the limits: shadow mode, chaos, latency; one line each. */
function describeModes(config: ResolvedConfig): string[] {
  const { behavior } = config;
  return [
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
}

/** The description of the service under `config` (markdown): its limits, fields and errors. */
export function describeService(config: ResolvedConfig): string {
  const { behavior, limits } = config;
  const notes = describeModes(config);
  return [
    'The three operations of the rate-limited user-access API, as the uas emulator serves them under its running configuration. Limits, Retry-After and the rate-limit fields below are those of that configuration.',
    '',
    '## Rate limiting',
    '',
    `Token buckets: each request is counted in exactly one bucket, the caller bucket of its \`caller_id\` when it sends a valid one, else the client bucket of its access token. ${describeLimits(config)} Caller buckets are ${limits.callerScope === 'global' ? 'shared by every client' : 'per client'}. An empty bucket is answered 429 before the request is validated; a refused request (400, 403, 404, 413, 415) ${limits.countInvalid ? 'still takes a token (`limits.countInvalid`)' : 'takes no token'}.`,
    '',
    `Rate-limit fields: ${behavior.headers === 'none' ? 'none are sent (`behavior.headers: none`); `UAS-Bucket` still names the bucket' : `the ${behavior.headers} style, on every answer that reached a bucket`}. Retry-After on a 429: ${describeRetryAfter(config)}. A client should retry a 429 with exponential backoff and jitter, at most 3 attempts, never before Retry-After.`,
    ...(notes.length > 0 ? ['', ...notes] : []),
    '',
    '## Errors',
    '',
    `Every error is \`application/problem+json\` (RFC 9457). A request that is not HTTP enough to reach an operation is answered ${TRANSPORT_PROBLEMS.map((kind) => `${PROBLEM_KINDS[kind].status} \`${problemType(kind)}\``).join(', ')}; an unknown path 404 \`${problemType('not-found')}\`; a wrong method 405 \`${problemType('method-not-allowed')}\` with \`Allow\`.`,
  ].join('\n');
}
