import { ConfigError, configIssue, type ConfigIssue } from './config-error.js';
import {
  configFileSchema,
  describeIssues,
  liveConfigSchema,
  parseLatencyText,
  parseSecondsRange,
  type ConfigFile,
  type HeaderStyle,
  type LiveConfigPatch,
} from './config-schema.js';
import { parseDuration } from './duration.js';
import { parseRate, refillPerMs, type Rate } from './rate.js';
import { NO_PAST, type BucketPolicy } from './bucket-policy.js';

/** The three operations of the service. */
export type Operation = 'exists' | 'start' | 'verify';

/** How a 429 states when to retry. */
export type RetryAfterMode =
  { mode: 'exact' } | { mode: 'absent' } | { mode: 'fixed'; seconds: number };

/** The limits of one level, parsed. */
export interface LevelLimits extends BucketPolicy {
  rate: Rate;
  /** The rate as written, such as `"10/s"`. */
  rateText: string;
}

/** A config with every default applied and every value parsed: what the emulator runs on. */
export interface ResolvedConfig {
  /** The config in file form with defaults filled in: what `GET /__uas/config` shows. */
  source: ConfigFile;
  clients: ConfigFile['clients'];
  users: ConfigFile['users'];
  limits: {
    client: LevelLimits;
    caller: LevelLimits;
    cost: Record<Operation, number>;
    callerScope: NonNullable<ConfigFile['limits']['callerScope']>;
    maxBuckets: number;
    keepFullBuckets: number;
    countInvalid: boolean;
  };
  behavior: {
    retryAfter: RetryAfterMode;
    headers: HeaderStyle;
    shadow: boolean;
    chaos: number;
    /** The Retry-After of a 429 injected by chaos, drawn in this range (whole seconds). */
    chaosRetryAfter: { min: number; max: number };
    latency: { minMs: number; maxMs: number };
  };
  otp: { fixedCode: string | undefined; length: number; ttlMs: number; maxAttempts: number };
  /** Requests the journal keeps; Infinity for `"unbounded"`. */
  journalSize: number;
  maxBodyBytes: number;
  callerIdMaxLength: number;
}

/**
 * The longest a bucket may take to refill from empty, in seconds (about 31,700 years): the waits
 * the headers state stay whole numbers of at most 13 digits.
 */
export const MAX_REFILL_SECONDS = 1_000_000_000_000;

/** Every default, in one place. docs/config.md lists them. */
export const DEFAULTS = {
  limits: {
    client: { burst: 20, rate: '10/s' },
    caller: { burst: 5, rate: '1/s' },
    cost: { exists: 1, start: 1, verify: 1 },
    callerScope: 'client',
    maxBuckets: 1_000_000,
    keepFullBuckets: 10_000,
    countInvalid: false,
  },
  behavior: {
    retryAfter: 'exact',
    headers: 'draft-10',
    shadow: false,
    chaos: 0,
    chaosRetryAfter: '1-5',
    latency: '0ms',
  },
  otp: { mode: 'random', length: 6, ttl: '10m', maxAttempts: 5 },
  journal: { size: 1000 },
  request: { maxBodyBytes: 16_384, callerIdMaxLength: 256 },
} as const satisfies Omit<ConfigFile, 'clients' | 'users'>;

/**
 * Validates a config (parsed JSON of a config file, or an object built in code) and resolves it.
 * Throws a {@link ConfigError} naming every bad field.
 */
export function resolveConfig(input: unknown): ResolvedConfig {
  const parsed = configFileSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, configFileSchema));
  const file = withDefaults(parsed.data);
  const issues = crossCheck(file);
  if (issues.length > 0) throw new ConfigError(issues);
  return resolve(file);
}

/**
 * Applies a live change to a running config and resolves the result. Throws a
 * {@link ConfigError} (and changes nothing) when the patch or its result does not fit.
 */
export function applyConfigPatch(current: ConfigFile, patchInput: unknown): ResolvedConfig {
  const parsed = liveConfigSchema.safeParse(patchInput, { reportInput: true });
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, liveConfigSchema));
  return resolveConfig(mergePatch(current, parsed.data));
}

function mergePatch(current: ConfigFile, patch: LiveConfigPatch): ConfigFile {
  const limits = patch.limits ?? {};
  return {
    ...current,
    limits: {
      ...current.limits,
      ...limits,
      client: { ...current.limits.client, ...limits.client },
      caller: { ...current.limits.caller, ...limits.caller },
      cost: { ...current.limits.cost, ...limits.cost },
    },
    behavior: { ...current.behavior, ...patch.behavior },
    otp: { ...current.otp, ...patch.otp },
  };
}

function withDefaults(file: ConfigFile): ConfigFile {
  return {
    ...file,
    limits: {
      ...DEFAULTS.limits,
      ...file.limits,
      cost: { ...DEFAULTS.limits.cost, ...file.limits.cost },
    },
    behavior: { ...DEFAULTS.behavior, ...file.behavior },
    otp: { ...DEFAULTS.otp, ...file.otp },
    journal: { ...DEFAULTS.journal, ...file.journal },
    request: { ...DEFAULTS.request, ...file.request },
  };
}

/**
 * The users whose phone number another user has, earlier in `users` or (`ownerOf`) already: a
 * phone number finds one user (exists by phone_number), and two with one would hide one. A user
 * given again (its e-mail in any case) may keep its own; one given again in `users` gives up its
 * number unless given it again (two users may swap theirs in one batch).
 */
export function phoneIssues(
  users: ConfigFile['users'],
  at: ReadonlyArray<string | number>,
  ownerOf: (phone: string) => string | undefined = () => undefined,
): ConfigIssue[] {
  const taken = new Map<string, string>();
  // A user given here again gives up its number unless given it again: a swap between two
  // users of one body is no sharing.
  const given = new Set(users.map((user) => user.email.toLowerCase()));
  const ownerElsewhere = (phone: string) => {
    const owner = ownerOf(phone);
    return owner === undefined || given.has(owner.toLowerCase()) ? undefined : owner;
  };
  return users.flatMap(({ email, phone_number: phone }, index) => {
    if (phone === undefined) return [];
    const owner = taken.get(phone) ?? ownerElsewhere(phone);
    taken.set(phone, email);
    return owner === undefined || owner.toLowerCase() === email.toLowerCase()
      ? []
      : [configIssue([...at, index, 'phone_number'], `${phone} is ${owner}'s already`)];
  });
}

function crossCheck(file: ConfigFile): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const seen = (
    list: string,
    field: string,
    values: string[],
    normalise = (value: string) => value,
  ) => {
    const found = new Set<string>();
    values.forEach((value, index) => {
      const key = normalise(value);
      if (found.has(key))
        issues.push(configIssue([list, index, field], `${JSON.stringify(value)} appears twice`));
      found.add(key);
    });
  };
  seen(
    'clients',
    'id',
    file.clients.map((client) => client.id),
  );
  seen(
    'clients',
    'token',
    file.clients.map((client) => client.token),
  );
  const owners = new Map<string, string>();
  file.clients.forEach((client, clientIndex) =>
    client.merchants.forEach((merchant, merchantIndex) => {
      const owner = owners.get(merchant.toLowerCase());
      if (owner !== undefined)
        issues.push(
          configIssue(
            ['clients', clientIndex, 'merchants', merchantIndex],
            `${merchant} is already listed by client ${owner}`,
          ),
        );
      owners.set(merchant.toLowerCase(), client.id);
    }),
  );
  seen(
    'users',
    'email',
    file.users.map((user) => user.email),
    (email) => email.toLowerCase(),
  );
  issues.push(...phoneIssues(file.users, ['users']));
  const cost = { ...DEFAULTS.limits.cost, ...file.limits.cost };
  for (const level of ['client', 'caller'] as const) {
    const burst = file.limits[level].burst;
    const rate = parseRate(file.limits[level].rate);
    // Every wait a header states (t, w, Retry-After) is at most the time to refill from empty.
    const refillSeconds = rate === undefined ? 0 : (burst * rate.windowMs) / rate.tokens / 1000;
    if (refillSeconds > MAX_REFILL_SECONDS)
      issues.push(
        configIssue(
          ['limits', level],
          `${burst} tokens at ${file.limits[level].rate} take ${Math.round(refillSeconds)} s to refill from empty; keep it at most ${MAX_REFILL_SECONDS} s (a faster rate or a smaller burst), so every header can state it`,
        ),
      );
    for (const [operation, value] of Object.entries(cost)) {
      if (value > burst) {
        issues.push(
          configIssue(
            ['limits', 'cost', operation],
            `${value} is more than limits.${level}.burst (${burst}); such a request could never pass`,
          ),
        );
      }
    }
  }
  return issues;
}

function levelLimits(file: ConfigFile, level: 'client' | 'caller'): LevelLimits {
  const { burst, rate: rateText } = file.limits[level];
  const rate = parseRate(rateText) as Rate;
  return { burst, rate, rateText, refillPerMs: refillPerMs(rate), past: NO_PAST };
}

function resolve(file: ConfigFile): ResolvedConfig {
  const behavior = { ...DEFAULTS.behavior, ...file.behavior };
  const otp = { ...DEFAULTS.otp, ...file.otp };
  const limits = { ...DEFAULTS.limits, ...file.limits };
  const latency =
    typeof behavior.latency === 'number'
      ? { minMs: behavior.latency, maxMs: behavior.latency }
      : (parseLatencyText(behavior.latency) as { minMs: number; maxMs: number });
  return {
    source: file,
    clients: file.clients,
    users: file.users,
    limits: {
      client: levelLimits(file, 'client'),
      caller: levelLimits(file, 'caller'),
      cost: { ...DEFAULTS.limits.cost, ...file.limits.cost },
      callerScope: limits.callerScope,
      maxBuckets: limits.maxBuckets,
      keepFullBuckets: limits.keepFullBuckets,
      countInvalid: limits.countInvalid,
    },
    behavior: {
      retryAfter: parseRetryAfter(behavior.retryAfter),
      headers: behavior.headers,
      shadow: behavior.shadow,
      chaos: behavior.chaos,
      chaosRetryAfter: parseSecondsRange(behavior.chaosRetryAfter) as { min: number; max: number },
      latency,
    },
    otp: {
      fixedCode: otp.mode.startsWith('fixed:') ? otp.mode.slice('fixed:'.length) : undefined,
      length: otp.mode.startsWith('fixed:') ? otp.mode.length - 'fixed:'.length : otp.length,
      ttlMs: parseDuration(otp.ttl) as number,
      maxAttempts: otp.maxAttempts,
    },
    journalSize: journalSize(file.journal?.size ?? DEFAULTS.journal.size),
    maxBodyBytes: file.request?.maxBodyBytes ?? DEFAULTS.request.maxBodyBytes,
    callerIdMaxLength: file.request?.callerIdMaxLength ?? DEFAULTS.request.callerIdMaxLength,
  };
}

function parseRetryAfter(text: string): RetryAfterMode {
  if (text === 'exact' || text === 'absent') return { mode: text };
  return { mode: 'fixed', seconds: Number(text.slice('fixed:'.length)) };
}

function journalSize(size: number | 'unbounded'): number {
  return size === 'unbounded' ? Infinity : size;
}
