import type { Level } from '../limits/bucket-key.js';
import type { ResolvedConfig } from '../config/config.js';
import type { EmulatorResponse } from './exchange.js';
import { clipProblemText, QUOTA_EXCEEDED_TYPE, type Problem } from './problems.js';
import type { RandomSource } from '../time/random.js';
import { BUCKET_HEADER, writeRateLimitHeaders } from '../limits/rate-limit-headers.js';
import type { ServiceResult } from './service.js';
import type { BucketDecision } from '../limits/token-bucket.js';

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';
/** The title of the 429 body, as the RateLimit draft's problem type has it. */
export const QUOTA_EXCEEDED_TITLE =
  'Request cannot be satisfied as assigned quota has been exceeded';

/** Milliseconds the transport waits before answering: the configured latency, drawn in its range. */
export function latency(config: ResolvedConfig, random: RandomSource): number {
  const { minMs, maxMs } = config.behavior.latency;
  return maxMs === 0 ? 0 : minMs + (maxMs - minMs) * random.next();
}

/** A problem+json answer. */
export function problemResponse(
  config: ResolvedConfig,
  random: RandomSource,
  problem: Problem,
  headers: Record<string, string> = {},
): EmulatorResponse {
  headers['content-type'] = PROBLEM_TYPE;
  return { status: problem.status, headers, body: problem, delayMs: latency(config, random) };
}

/** Turns the result of a call into HTTP: rate-limit headers, and the body or problem. */
export function renderResult(
  config: ResolvedConfig,
  random: RandomSource,
  result: ServiceResult,
  path: string,
): EmulatorResponse {
  // An injected 429 speaks as a refusal does: no request left until Retry-After (the bucket
  // itself was not charged; the dev API and the body say so), never "full, next token in N s".
  const state =
    result.outcome === 'injected-429' ? { ...result.state, remaining: 0 } : result.state;
  const headers = rateLimitHeaders(config, result.bucket, result.level, state, result.resetSeconds);
  if (result.status === 429) return tooManyRequests(config, random, result, headers, path);
  if (result.outcome === 'shadow-limited') headers['uas-shadow-limited'] = 'true';
  if (result.scripted?.retryAfter !== undefined)
    headers['retry-after'] = String(result.scripted.retryAfter);
  if (result.status >= 400) return problemResponse(config, random, result.body as Problem, headers);
  headers['content-type'] = JSON_TYPE;
  return {
    status: result.status,
    headers,
    body: result.body,
    text: result.text,
    delayMs: latency(config, random),
  };
}

function rateLimitHeaders(
  config: ResolvedConfig,
  key: string,
  level: Level,
  decision: BucketDecision,
  resetSeconds: number,
): Record<string, string> {
  const headers: Record<string, string> = { [BUCKET_HEADER]: key };
  writeRateLimitHeaders(
    headers,
    config.behavior.headers,
    level,
    config.limits[level],
    decision,
    resetSeconds,
  );
  return headers;
}

function tooManyRequests(
  config: ResolvedConfig,
  random: RandomSource,
  result: ServiceResult,
  headers: Record<string, string>,
  path: string,
): EmulatorResponse {
  const { bucket, resetSeconds } = result;
  const injected: InjectedBy =
    result.outcome !== 'injected-429' ? false : result.scripted ? 'script' : 'chaos';
  const retryAfter = config.behavior.retryAfter;
  const seconds =
    retryAfter.mode === 'fixed' ? Math.max(retryAfter.seconds, resetSeconds) : resetSeconds;
  headers['cache-control'] = 'no-store';
  if (retryAfter.mode !== 'absent') headers['retry-after'] = String(seconds);
  headers['content-type'] = PROBLEM_TYPE;
  const memo = lastRefusal;
  const text =
    memo.config === config &&
    memo.bucket === bucket &&
    memo.path === path &&
    memo.seconds === seconds &&
    memo.resetSeconds === resetSeconds &&
    memo.injected === injected
      ? memo.text
      : refusalText(config, result, path, seconds, injected);
  return { status: 429, headers, text, delayMs: latency(config, random) };
}

/**
 * The last 429 body made. A flood hits one bucket on one path, and its bodies differ only when
 * the seconds to wait do: serialising each anew was the largest cost of refusing a request.
 */
const lastRefusal = {
  config: undefined as ResolvedConfig | undefined,
  bucket: '',
  path: '',
  seconds: -1,
  resetSeconds: -1,
  injected: false as InjectedBy,
  text: '',
};

/** What put a 429 there instead of an empty bucket. */
type InjectedBy = false | 'chaos' | 'script';

function refusalText(
  config: ResolvedConfig,
  result: ServiceResult,
  path: string,
  seconds: number,
  injected: InjectedBy,
): string {
  const { bucket, level, resetSeconds } = result;
  const retryAfter = config.behavior.retryAfter;
  const detail =
    injected === 'chaos'
      ? `a 429 injected by the chaos setting (probability ${config.behavior.chaos}); the ${level} bucket was not charged`
      : injected === 'script'
        ? `a 429 scripted by failNext (POST /__uas/faults); the ${level} bucket was not charged`
        : `the ${level} bucket ${bucket} is empty; a token is back in ${resetSeconds} s`;
  // Serialised whole, never pieced together: whatever a field holds, the body is JSON.
  const problem: Problem = {
    type: QUOTA_EXCEEDED_TYPE,
    title: QUOTA_EXCEEDED_TITLE,
    status: 429,
    detail: clipProblemText(detail),
    instance: clipProblemText(path),
    'violated-policies': [level],
    bucket,
    level,
    retry_after: retryAfter.mode === 'absent' ? null : seconds,
    injected: injected !== false,
  };
  const text = JSON.stringify(problem);
  Object.assign(lastRefusal, { config, bucket, path, seconds, resetSeconds, injected, text });
  return text;
}
