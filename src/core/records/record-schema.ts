import * as z from 'zod/mini';
import {
  ANSWER_CUTS,
  OUTCOMES,
  RECORD_TEXT_MAX,
  UPSTREAM_ANSWERERS,
  type RequestRecord,
} from './records.js';
import { describeIssues } from '../config/config-schema.js';
import { formatIssue } from '../config/config-error.js';
import { MAX_JSON_DEPTH } from '../config/json-depth.js';

// Text a recording may hold: what the emulator writes is clipped to RECORD_TEXT_MAX characters;
// a recording from elsewhere gets a little room, never an unbounded string.
const text = z.string().check(z.maxLength(RECORD_TEXT_MAX * 4));
const optionalText = z.optional(z.nullable(text));
const count = z.number().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER));

/**
 * A request record as read from outside (a `--record` file, another server's dev API): each
 * field of the right type and size, so the analysis can trust what it reads. Fields the
 * emulator leaves out when undefined may be absent or null.
 */
const recordSchema = z.object({
  id: count,
  at: count,
  method: text,
  path: text,
  operation: z.optional(z.nullable(z.enum(['exists', 'start', 'verify']))),
  client_id: optionalText,
  merchant_id: optionalText,
  email: optionalText,
  phone_number: optionalText,
  caller_id: optionalText,
  caller_id_source: z.optional(z.nullable(z.enum(['query', 'body']))),
  caller_id_misplaced: z.optional(
    z
      .array(z.object({ place: z.enum(['header', 'query', 'body']), name: text, value: text }))
      .check(z.maxLength(64)),
  ),
  // Reports print the fields: what nests deeper than a request body may would run code that
  // walks them (JSON.stringify) out of stack.
  fields: z.optional(
    z.nullable(
      z.record(z.string(), z.unknown()).check(
        z.refine((fields) => !nestsDeeper(fields, MAX_JSON_DEPTH), {
          message: `nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`,
        }),
      ),
    ),
  ),
  fingerprint: text,
  user_agent: optionalText,
  idempotency_key: optionalText,
  retry_attempt: optionalText,
  bucket: optionalText,
  level: z.optional(z.nullable(z.enum(['client', 'caller']))),
  status: z.int().check(z.minimum(0), z.maximum(999)),
  outcome: z.enum(OUTCOMES),
  remaining: z.optional(z.nullable(count)),
  retry_after: z.optional(z.nullable(count)),
  problem: optionalText,
  upstream: z.optional(
    z.nullable(
      z.object({
        answered_by: z.enum(UPSTREAM_ANSWERERS),
        local: z.optional(z.nullable(z.enum(['allowed', 'refused']))),
        headers: z.array(text).check(z.maxLength(32)),
        policy: optionalText,
        retry_after_text: optionalText,
        problem_type: optionalText,
        bucket: optionalText,
        cut: z.optional(z.nullable(z.enum(ANSWER_CUTS))),
      }),
    ),
  ),
});

/**
 * Reads one request record from outside, or says (in one line, its field named) why it is not
 * one. Absent and null optional fields become undefined, as the emulator's own records have them.
 */
export function readRequestRecord(
  value: unknown,
): { ok: true; record: RequestRecord } | { ok: false; error: string } {
  const parsed = recordSchema.safeParse(value, { reportInput: true });
  if (!parsed.success)
    return {
      ok: false,
      error: describeIssues(parsed.error, recordSchema).map(formatIssue).slice(0, 3).join('; '),
    };
  const data = parsed.data;
  const or = <T>(field: T | null | undefined): T | undefined => field ?? undefined;
  return {
    ok: true,
    record: {
      id: data.id,
      at: data.at,
      method: data.method,
      path: data.path,
      operation: or(data.operation),
      client_id: or(data.client_id),
      merchant_id: or(data.merchant_id),
      email: or(data.email),
      phone_number: or(data.phone_number),
      caller_id: or(data.caller_id),
      caller_id_source: or(data.caller_id_source),
      caller_id_misplaced: data.caller_id_misplaced ?? [],
      fields: or(data.fields),
      fingerprint: data.fingerprint,
      user_agent: or(data.user_agent),
      idempotency_key: or(data.idempotency_key),
      retry_attempt: or(data.retry_attempt),
      bucket: or(data.bucket),
      level: or(data.level),
      status: data.status,
      outcome: data.outcome,
      remaining: or(data.remaining),
      retry_after: or(data.retry_after),
      problem: or(data.problem),
      ...(data.upstream == null ? {} : { upstream: upstreamFacts(data.upstream) }),
    },
  };
}

/** Upstream facts as read, their absent and null members undefined. */
function upstreamFacts(
  facts: NonNullable<z.infer<typeof recordSchema>['upstream']>,
): NonNullable<RequestRecord['upstream']> {
  return {
    answered_by: facts.answered_by,
    local: facts.local ?? undefined,
    headers: facts.headers,
    policy: facts.policy ?? undefined,
    retry_after_text: facts.retry_after_text ?? undefined,
    problem_type: facts.problem_type ?? undefined,
    bucket: facts.bucket ?? undefined,
    cut: facts.cut ?? undefined,
  };
}

/** Whether `value` nests objects and arrays deeper than `levels`: never recurses deeper itself. */
function nestsDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  for (const inner of Object.values(value)) if (nestsDeeper(inner, levels - 1)) return true;
  return false;
}
