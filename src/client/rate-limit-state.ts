import { parseList, type Item } from 'structured-headers';

/** The bucket state a response advertises, whatever header style the server uses. */
export interface RateLimitState {
  /** The bucket named by `UAS-Bucket`, when the server is a uas emulator. */
  bucket: string | undefined;
  /** The policy name (draft-10), such as `caller` or `client`. */
  policy: string | undefined;
  /** Tokens the bucket holds when full. */
  limit: number | undefined;
  remaining: number | undefined;
  /** Seconds until the next token (or the reset, as the server defines it). */
  resetSeconds: number | undefined;
  /** Seconds the quota is defined over. */
  windowSeconds: number | undefined;
  style: 'draft-10' | 'draft-7' | 'draft-6' | 'x-ratelimit';
}

/** Something with HTTP headers: a Fetch `Headers`. */
export interface HeaderSource {
  get(name: string): string | null;
}

const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * Reads the rate-limit state of a response from the IETF RateLimit fields (draft-10 structured
 * fields, parsed with `structured-headers`; the older draft-6/7 forms) or `X-RateLimit-*`.
 * Undefined when the response carries none.
 */
export function readRateLimit(headers: HeaderSource): RateLimitState | undefined {
  const bucket = headers.get('uas-bucket') ?? undefined;
  const rateLimit = headers.get('ratelimit');
  const policyHeader = headers.get('ratelimit-policy');
  if (rateLimit !== null && rateLimit.trim().startsWith('"')) {
    const state = firstItem(rateLimit);
    const policy = policyHeader === null ? undefined : firstItem(policyHeader);
    if (state !== undefined) {
      return {
        bucket,
        policy: typeof state[0] === 'string' ? state[0] : undefined,
        limit: numberOf(policy?.[1].get('q')),
        remaining: numberOf(state[1].get('r')),
        resetSeconds: numberOf(state[1].get('t')),
        windowSeconds: numberOf(policy?.[1].get('w')),
        style: 'draft-10',
      };
    }
  }
  const window = policyHeader === null ? undefined : Number(/;\s*w=(\d+)/.exec(policyHeader)?.[1]);
  if (rateLimit !== null) {
    const field = (name: string) =>
      Number(new RegExp(`(?:^|[,;\\s])${name}=(\\d+)`).exec(rateLimit)?.[1]);
    return {
      bucket,
      policy: undefined,
      limit: defined(field('limit')),
      remaining: defined(field('remaining')),
      resetSeconds: defined(field('reset')),
      windowSeconds: defined(window),
      style: 'draft-7',
    };
  }
  // draft-6 and X-RateLimit-* are the same three fields under two prefixes.
  for (const [prefix, style] of [
    ['ratelimit', 'draft-6'],
    ['x-ratelimit', 'x-ratelimit'],
  ] as const) {
    const remaining = headers.get(`${prefix}-remaining`);
    if (remaining === null) continue;
    return {
      bucket,
      policy: undefined,
      limit: defined(Number(headers.get(`${prefix}-limit`))),
      remaining: defined(Number(remaining)),
      resetSeconds: defined(Number(headers.get(`${prefix}-reset`))),
      windowSeconds: style === 'draft-6' ? defined(window) : undefined,
      style,
    };
  }
  return undefined;
}

function defined(value: number | undefined): number | undefined {
  return value === undefined || Number.isNaN(value) ? undefined : value;
}

function firstItem(text: string): Item | undefined {
  try {
    const [first] = parseList(text);
    return first !== undefined && !Array.isArray(first[0]) ? (first as Item) : undefined;
  } catch {
    return undefined;
  }
}

/** The level of a bucket, from its uas key or its policy name. */
export function levelOfState(state: RateLimitState): string {
  if (state.bucket?.startsWith('caller:') || state.policy === 'caller') return 'caller';
  if (state.bucket?.startsWith('client:') || state.policy === 'client') return 'client';
  return state.policy ?? 'rate-limit';
}

/** Describes the state for people: "caller bucket: 2 of 5 left, next token in 1 s". */
export function describeRateLimit(state: RateLimitState): string {
  const of = state.limit === undefined ? '' : ` of ${state.limit}`;
  const left = state.remaining === undefined ? 'state unknown' : `${state.remaining}${of} left`;
  const next =
    state.resetSeconds === undefined
      ? ''
      : state.resetSeconds === 0
        ? ', full'
        : `, next token in ${state.resetSeconds} s`;
  return `${levelOfState(state)} bucket: ${left}${next}`;
}
