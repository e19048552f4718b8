import { z } from 'zod';
import { parseDuration } from './duration.js';
import { parseRate } from '../limits/rate.js';

/** Header styles for rate-limit state on every response. */
export const HEADER_STYLES = ['draft-10', 'draft-7', 'draft-6', 'x-ratelimit', 'none'] as const;
export type HeaderStyle = (typeof HEADER_STYLES)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID = /^[A-Za-z0-9._-]{1,64}$/;

const rateText = z.string().refine((text) => parseRate(text) !== undefined, {
  error: (issue) =>
    `expected a rate such as "10/s", "100/m" or "5/10s"; got ${JSON.stringify(issue.input)}`,
});

const durationText = z
  .union([z.number().nonnegative(), z.string()])
  .refine((value) => parseDuration(value) !== undefined, {
    error: (issue) =>
      `expected a duration such as "500ms", "2s" or "10m"; got ${JSON.stringify(issue.input)}`,
  });

const positiveInt = z.number().int().positive();

const levelLimits = z.strictObject({ burst: positiveInt, rate: rateText });

export const retryAfterSchema = z
  .string()
  .refine((text) => /^(exact|absent|fixed:\d+)$/.test(text), {
    error: (issue) =>
      `expected "exact", "absent" or "fixed:<seconds>"; got ${JSON.stringify(issue.input)}`,
  });

export const latencySchema = z
  .union([z.number().nonnegative(), z.string()])
  .refine((value) => typeof value === 'number' || parseLatencyText(value) !== undefined, {
    error: (issue) =>
      `expected a latency such as "0", "100ms" or "50ms-200ms"; got ${JSON.stringify(issue.input)}`,
  });

export const otpModeSchema = z.string().refine((text) => /^(random|fixed:\d{4,10})$/.test(text), {
  error: (issue) =>
    `expected "random" or "fixed:<4 to 10 digits>"; got ${JSON.stringify(issue.input)}`,
});

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

export const limitsSchema = z.object({
  client: levelLimits,
  caller: levelLimits,
  cost: z
    .strictObject({ exists: positiveInt, start: positiveInt, verify: positiveInt })
    .partial()
    .optional(),
  callerScope: z.enum(['client', 'global']).optional(),
  maxBuckets: positiveInt.optional(),
  keepFullBuckets: z.number().int().nonnegative().optional(),
  countInvalid: z.boolean().optional(),
});

export const behaviorSchema = z.strictObject({
  retryAfter: retryAfterSchema.optional(),
  headers: z.enum(HEADER_STYLES).optional(),
  shadow: z.boolean().optional(),
  chaos: z.number().min(0).max(1).optional(),
  latency: latencySchema.optional(),
});

export const otpSchema = z.strictObject({
  mode: otpModeSchema.optional(),
  length: z.number().int().min(4).max(10).optional(),
  ttl: durationText.optional(),
  maxAttempts: positiveInt.optional(),
});

export const clientSchema = z.object({
  id: z.string().regex(ID, 'expected 1 to 64 letters, digits, ".", "_" or "-"'),
  token: z.string().min(8, 'expected a token of at least 8 characters').max(512),
  merchants: z.array(z.string().regex(UUID, 'expected a merchant id in UUID form')),
  name: z.string().optional(),
});

export const userSchema = z.object({
  email: z.email('expected an e-mail address'),
  phone_number: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'expected a phone number in E.164 form, such as +14155550123')
    .optional(),
  token_count: z.number().int().nonnegative().optional(),
});

/** The config file (JSON), as users write it. Unknown top-level keys are refused, to catch typos. */
export const configFileSchema = z.strictObject({
  $schema: z.string().optional(),
  clients: z.array(clientSchema).min(1, 'expected at least one client'),
  users: z.array(userSchema),
  limits: limitsSchema,
  behavior: behaviorSchema.optional(),
  otp: otpSchema.optional(),
  journal: z
    .strictObject({ size: positiveInt.max(100_000) })
    .partial()
    .optional(),
  request: z
    .strictObject({
      maxBodyBytes: positiveInt.max(1_048_576),
      callerIdMaxLength: positiveInt.max(4096),
    })
    .partial()
    .optional(),
});

/** The config file as written. */
export type ConfigFile = z.infer<typeof configFileSchema>;

/** The part of the config that can change while the emulator runs (dev API, `PATCH /__uas/config`). */
export const liveConfigSchema = z.strictObject({
  limits: z
    .strictObject({
      ...limitsSchema.shape,
      client: levelLimits.partial().optional(),
      caller: levelLimits.partial().optional(),
    })
    .optional(),
  behavior: behaviorSchema.optional(),
  otp: otpSchema.optional(),
});

/** A change to the running config. */
export type LiveConfigPatch = z.infer<typeof liveConfigSchema>;

/** Turns zod issues into `path: message` lines, the path in config-file terms. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('');
    const where = path.startsWith('.') ? path.slice(1) : path;
    return where === '' ? issue.message : `${where}: ${issue.message}`;
  });
}
