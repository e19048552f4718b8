import * as z from 'zod/mini';
import { configIssue, type ConfigIssue } from './config-error.js';
import { missingUnit, parseDuration } from './duration.js';
import { checked, durationText, got, list, text, whole, withoutPassword } from './schema-kit.js';
import { storeSchema } from './store-schema.js';
import { parseRate } from './rate.js';

/** Header styles for rate-limit state on every response. */
export const HEADER_STYLES = ['draft-10', 'draft-7', 'draft-6', 'x-ratelimit', 'none'] as const;
export type HeaderStyle = (typeof HEADER_STYLES)[number];

/**
 * The bounds of every number and duration a config can hold. Each keeps what it bounds within
 * what HTTP headers (structured-field integers have at most 15 digits), timers (at most 2^31-1
 * ms) and dates can carry; README lists them.
 */
export const BOUNDS = {
  /** Tokens of a bucket, and of a rate's count. */
  tokens: 1_000_000_000,
  /** The window of a rate. */
  rateWindowMs: 24 * 3_600_000,
  /** A code's lifetime. */
  otpTtlMs: 365 * 24 * 3_600_000,
  /** A fixed Retry-After. */
  retryAfterSeconds: 86_400,
  /** Added latency. */
  latencyMs: 3_600_000,
  maxBuckets: 100_000_000,
  otpAttempts: 1000,
  tokenCount: 1_000_000_000_000,
  /** Clients of a config, merchants of a client, users of a config file. */
  clients: 1000,
  merchants: 1000,
  users: 100_000,
  /** Characters of an e-mail address, of a caller_id (`request.callerIdMaxLength`), of a rate. */
  emailLength: 254,
  callerIdLength: 4096,
  rateLength: 64,
} as const;

/**
 * The e-mail addresses accepted: a practical subset of RFC 5321 (the pattern zod and most form
 * validators use), at most 254 characters.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The most characters of a client id. */
export const CLIENT_ID_MAX_LENGTH = 64;
const ID = new RegExp(`^[A-Za-z0-9._-]{1,${CLIENT_ID_MAX_LENGTH}}$`);

/** A rate within bounds, or the reason it is not one. */
function rateProblem(text: string): string | undefined {
  if (text.length > BOUNDS.rateLength)
    return `expected a rate of at most ${BOUNDS.rateLength} characters, such as "10/s"; ${got(text)}`;
  const rate = parseRate(text);
  if (rate === undefined) return `expected a rate such as "10/s", "100/m" or "5/10s"; ${got(text)}`;
  if (rate.tokens > BOUNDS.tokens)
    return `expected at most ${BOUNDS.tokens} tokens per window; ${got(text)}`;
  if (rate.windowMs < 1 || rate.windowMs > BOUNDS.rateWindowMs)
    return `expected a window from 1ms to 24h; ${got(text)}`;
  return undefined;
}

const rateText = checked(z.string(), rateProblem);

const levelLimits = z.strictObject({ burst: whole(1, BOUNDS.tokens), rate: rateText });

export const retryAfterSchema = checked(z.string(), (value) => {
  const fixed = /^fixed:(\d{1,6})$/.exec(value);
  const ok =
    value === 'exact' ||
    value === 'absent' ||
    (fixed !== null && Number(fixed[1]) <= BOUNDS.retryAfterSeconds);
  return ok
    ? undefined
    : `expected "exact", "absent" or "fixed:<seconds>" with 0 to ${BOUNDS.retryAfterSeconds} seconds; ${got(value)}`;
});

/**
 * The Retry-After of a 429 injected by chaos: whole seconds (`2`, `"2"`), or a range drawn from
 * at each injected 429 (`"1-5"`: 1 to 5 s, each as likely).
 */
export const chaosRetryAfterSchema = checked(
  z.union([z.number(), z.string()], { error: chaosRetryAfterMessage }),
  (value) => {
    const match = SECONDS_RANGE.exec(typeof value === 'number' ? String(value) : value.trim());
    if (match === null) return chaosRetryAfterMessage({ input: value });
    const [min, max] = [Number(match[1]), Number(match[2] ?? match[1])];
    if (max < min) return `expected the shorter wait first, such as "${max}-${min}"; ${got(value)}`;
    if (max > BOUNDS.retryAfterSeconds)
      return `expected at most ${BOUNDS.retryAfterSeconds} seconds; ${got(value)}`;
    return undefined;
  },
);

const SECONDS_RANGE = /^(\d{1,6})(?:-(\d{1,6}))?$/;

function chaosRetryAfterMessage(issue: { input?: unknown }): string {
  return `expected whole seconds such as 2, or a range such as "1-5"; ${got(issue.input)}`;
}

/**
 * Parses whole seconds (`2`, `"2"`) or a range (`"1-5"`, the shorter first) within 0 to
 * {@link BOUNDS}.retryAfterSeconds; undefined for anything else.
 */
export function parseSecondsRange(value: unknown): { min: number; max: number } | undefined {
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = SECONDS_RANGE.exec(text);
  if (match === null) return undefined;
  const min = Number(match[1]);
  const max = Number(match[2] ?? match[1]);
  return max < min || max > BOUNDS.retryAfterSeconds ? undefined : { min, max };
}

export const latencySchema = checked(
  z.union([z.number(), z.string()], { error: latencyMessage }),
  (value) => {
    const unit = missingUnit(value);
    if (unit !== undefined) return `${unit}; ${got(value)}`;
    const range = parseLatencyText(String(value));
    return range === undefined || range.maxMs > BOUNDS.latencyMs
      ? latencyMessage({ input: value })
      : undefined;
  },
);

function latencyMessage(issue: { input?: unknown }): string {
  return `expected a latency such as "0", "100ms" or "50ms-200ms", at most 1h; ${got(issue.input)}`;
}

export const otpModeSchema = checked(z.string(), (value) =>
  /^(random|fixed:\d{4,10})$/.test(value)
    ? undefined
    : `expected "random" or "fixed:<4 to 10 digits>"; ${got(value)}`,
);

/** Parses `"100ms"`, `"1s"` or a range `"50ms-200ms"` into a min and max in ms. */
export function parseLatencyText(text: string): { minMs: number; maxMs: number } | undefined {
  const parts = text.split('-').map((part) => part.trim());
  if (parts.length > 2 || parts.some((part) => part === '')) return undefined;
  const [first = '', second = first] = parts;
  const minMs = parseDuration(first);
  const maxMs = parseDuration(second);
  if (minMs === undefined || maxMs === undefined || maxMs < minMs) return undefined;
  return { minMs, maxMs };
}

const costSchema = z.strictObject({
  exists: z.optional(whole(1, BOUNDS.tokens)),
  start: z.optional(whole(1, BOUNDS.tokens)),
  verify: z.optional(whole(1, BOUNDS.tokens)),
});

const limitFields = {
  cost: z.optional(costSchema),
  callerScope: z.optional(z.enum(['client', 'global'])),
  maxBuckets: z.optional(whole(1, BOUNDS.maxBuckets)),
  keepFullBuckets: z.optional(whole(0, BOUNDS.maxBuckets)),
  countInvalid: z.optional(z.boolean()),
};

export const limitsSchema = z.strictObject({
  client: levelLimits,
  caller: levelLimits,
  ...limitFields,
});

export const behaviorSchema = z.strictObject({
  retryAfter: z.optional(retryAfterSchema),
  headers: z.optional(z.enum(HEADER_STYLES)),
  shadow: z.optional(z.boolean()),
  chaos: z.optional(
    checked(z.number(), (value) =>
      value >= 0 && value <= 1 ? undefined : `expected a probability from 0 to 1; ${got(value)}`,
    ),
  ),
  latency: z.optional(latencySchema),
  chaosRetryAfter: z.optional(chaosRetryAfterSchema),
});

export const otpSchema = z.strictObject({
  mode: z.optional(otpModeSchema),
  length: z.optional(whole(4, 10)),
  ttl: z.optional(durationText(BOUNDS.otpTtlMs, '365d')),
  maxAttempts: z.optional(whole(1, BOUNDS.otpAttempts)),
});

export const clientSchema = z.strictObject({
  id: text(ID, 'expected 1 to 64 letters, digits, ".", "_" or "-"'),
  token: checked(z.string(), (value) =>
    value.length < 8
      ? 'expected a token of at least 8 characters'
      : value.length > 512
        ? 'expected a token of at most 512 characters'
        : /^[A-Za-z0-9\-._~+/]+=*$/.test(value)
          ? undefined
          : 'expected a bearer token (letters, digits and -._~+/)',
  ),
  merchants: list(
    text(UUID, 'expected a merchant id in UUID form'),
    0,
    BOUNDS.merchants,
    'merchants',
  ),
  name: z.optional(
    checked(z.string(), (value) =>
      value.length > 200 ? 'expected at most 200 characters' : undefined,
    ),
  ),
});

export const userSchema = z.strictObject({
  email: text(EMAIL_PATTERN, 'expected an e-mail address', BOUNDS.emailLength),
  phone_number: z.optional(
    text(/^\+[1-9]\d{6,14}$/, 'expected a phone number in E.164 form, such as +14155550123'),
  ),
  token_count: z.optional(whole(0, BOUNDS.tokenCount)),
});

/** The config file (JSON), as users write it. Unknown keys are refused at every level, to catch typos. */
export const configFileSchema = z.strictObject({
  $schema: z.optional(z.string()),
  clients: list(clientSchema, 1, BOUNDS.clients, 'clients'),
  users: list(userSchema, 0, BOUNDS.users, 'users'),
  limits: limitsSchema,
  behavior: z.optional(behaviorSchema),
  otp: z.optional(otpSchema),
  journal: z.optional(
    z.strictObject({
      size: z.optional(
        z.union([whole(1, 1_000_000), z.literal('unbounded')], {
          error: (issue) =>
            `expected a whole number from 1 to 1000000, or "unbounded"; ${got(issue.input)}`,
        }),
      ),
    }),
  ),
  request: z.optional(
    z.strictObject({
      maxBodyBytes: z.optional(whole(1, 1_048_576)),
      callerIdMaxLength: z.optional(whole(1, BOUNDS.callerIdLength)),
    }),
  ),
  store: z.optional(storeSchema()),
});

/** The config file as written. */
export type ConfigFile = z.infer<typeof configFileSchema>;

/** The part of the config that can change while the emulator runs (dev API, `PATCH /__uas/config`). */
export const liveConfigSchema = z.strictObject({
  limits: z.optional(
    z.strictObject({
      client: z.optional(z.partial(levelLimits)),
      caller: z.optional(z.partial(levelLimits)),
      ...limitFields,
    }),
  ),
  behavior: z.optional(behaviorSchema),
  otp: z.optional(otpSchema),
});

/** A change to the running config. */
export type LiveConfigPatch = z.infer<typeof liveConfigSchema>;

/**
 * Turns zod issues into config issues, the path in config-file terms. An unknown key becomes
 * one issue per key, with the closest known key as a suggestion when there is one.
 */
export function describeIssues(
  error: { issues: readonly z.core.$ZodIssue[] },
  schema?: z.ZodMiniType,
): ConfigIssue[] {
  return error.issues.flatMap((issue) => {
    const parts = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
    if (issue.code === 'unrecognized_keys') {
      const known = schema === undefined ? [] : knownKeys(schema, parts);
      return issue.keys.map((key) => {
        const near = closest(key, known);
        const hint =
          near !== undefined
            ? ` (did you mean "${near}"?)`
            : known.length > 0
              ? ` (expected one of ${known.join(', ')})`
              : '';
        return configIssue([...parts, key], `unknown field${hint}`);
      });
    }
    // One of a list: zod says "Invalid input", which names none of them.
    if (issue.code === 'invalid_value' && issue.message === 'Invalid input')
      return [
        configIssue(
          parts,
          `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}${issue.input === undefined ? '' : `; got ${describeValue(issue.input)}`}`,
        ),
      ];
    // A field left out or of another type: zod says "Invalid input", which names nothing. (The
    // input is in the issue when the schema was parsed with reportInput.)
    if (issue.code === 'invalid_type') {
      const expected =
        issue.expected === 'array'
          ? 'a list'
          : `a${/^[aeiou]/.test(issue.expected) ? 'n' : ''} ${issue.expected}`;
      return [
        configIssue(
          parts,
          issue.input === undefined && parts.length > 0
            ? `missing (expected ${expected})`
            : `expected ${expected}; got ${describeValue(issue.input)}`,
        ),
      ];
    }
    // A number, text or list out of its bounds, with no message of its own.
    if (
      (issue.code === 'too_small' || issue.code === 'too_big') &&
      issue.message === 'Invalid input'
    )
      return [configIssue(parts, outOfBounds(issue))];
    return [configIssue(parts, issue.message)];
  });
}

/** What a value out of its bounds should have been (zod's "Invalid input" names neither). */
function outOfBounds(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const limit = `${small ? 'at least' : 'at most'} ${String(small ? issue.minimum : issue.maximum)}`;
  const input: unknown = issue.input;
  if (issue.origin === 'string' || issue.origin === 'array')
    return `expected ${limit} ${issue.origin === 'string' ? 'characters' : 'items'}${typeof input === 'string' || Array.isArray(input) ? `; got ${input.length}` : ''}`;
  return `expected a number of ${limit}${input === undefined ? '' : `; got ${describeValue(input)}`}`;
}

/** A value as an error names it: its type for lists and objects, else itself, clipped. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  const text = typeof value === 'string' ? JSON.stringify(withoutPassword(value)) : String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** The keys an object schema allows at `path`, following arrays, optionals and unions. */
function knownKeys(schema: z.ZodMiniType, path: ReadonlyArray<string | number>): string[] {
  let node: unknown = schema;
  for (const part of [...path, undefined]) {
    for (;;) {
      const def = (node as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
      if (def === undefined) return [];
      if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default')
        node = def.innerType;
      else if (def.type === 'pipe') node = def.in;
      else break;
    }
    const def = (node as { _zod: { def: Record<string, unknown> } })._zod.def;
    if (part === undefined) return def.type === 'object' ? Object.keys(def.shape as object) : [];
    if (def.type === 'array' && typeof part === 'number') node = def.element;
    else if (def.type === 'object' && typeof part === 'string')
      node = (def.shape as Record<string, unknown>)[part];
    else return [];
  }
  return [];
}

/** The known key nearest to `key` (edit distance at most a third of its length), if any. */
function closest(key: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(key.length / 3)) + 1;
  for (const candidate of known) {
    const a = key.toLowerCase();
    const b = candidate.toLowerCase();
    const distance = a === b ? 0 : b.startsWith(a) || a.startsWith(b) ? 1 : editDistance(a, b);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Levenshtein distance. Written here rather than taken from a package: twelve lines, run only on
 * an unknown config key against a handful of known ones.
 */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(current[j - 1]! + 1, previous[j]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
