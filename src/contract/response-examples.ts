import type { Operation, ResolvedConfig } from '../core/config/config.js';
import { bucketKey, type Level } from '../core/limits/bucket-key.js';
import { secondsUp } from '../core/limits/rate-limit-headers.js';
import { takeTokens } from '../core/limits/token-bucket.js';
import type { ServiceResult } from '../core/service/service.js';
import { renderResult } from '../core/service/service-response.js';
import type { RandomSource } from '../core/time/random.js';

/** An answer as the emulator renders it: status, headers (lower-case names) and body. */
export interface RenderedExample {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What became of the example request at its bucket. */
export type ExampleOutcome = 'allowed' | 'refused' | 'rate-limited';

/** No latency and no chaos draw matter to an example. */
const NO_RANDOM: RandomSource = { next: () => 0 };

/** The client id examples are shown with: the config's first client. */
export function exampleClientId(config: ResolvedConfig): string {
  return config.clients[0]?.id ?? 'demo';
}

/**
 * Renders an example answer of `operation` with the emulator's own code (`renderResult`), for a
 * request that finds a full bucket at `level` (or, when rate limited, an empty one): so the
 * rate-limit fields, Retry-After and the 429 body in the document are the ones the emulator
 * sends under this config, and cannot drift from them.
 */
export function renderExample(
  config: ResolvedConfig,
  operation: Operation,
  level: Level,
  callerId: string,
  outcome: ExampleOutcome,
  status: number,
  body: unknown,
  path: string,
): RenderedExample {
  const limits = config.limits[level];
  const cost = config.limits.cost[operation];
  const bucket = bucketKey(
    exampleClientId(config),
    level === 'caller' ? callerId : undefined,
    config.limits.callerScope,
  );
  const taken = outcome === 'allowed' || (outcome === 'refused' && config.limits.countInvalid);
  const state =
    outcome === 'rate-limited'
      ? takeTokens({ tokens: 0, updatedAt: 0 }, 0, limits, cost)
      : takeTokens(undefined, 0, limits, taken ? cost : 0);
  const result: ServiceResult = {
    status,
    outcome:
      outcome === 'rate-limited' ? 'rate-limited' : outcome === 'allowed' ? 'allowed' : 'invalid',
    bucket,
    level,
    state,
    resetSeconds: secondsUp(outcome === 'rate-limited' ? state.retryAfterMs : state.nextTokenMs),
    body,
    text: undefined,
  };
  const response = renderResult(config, NO_RANDOM, result, path);
  return {
    status: response.status,
    headers: response.headers,
    body: response.text === undefined ? response.body : JSON.parse(response.text),
  };
}
