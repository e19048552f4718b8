import * as z from 'zod/mini';
import type { Operation } from '../core/config/config.js';

/** Answer of exists (its shape is in the real service's public docs). */
export interface ExistsAnswer {
  exists: boolean;
  token_count: number;
}

/** Answer of start (the emulator's shape; the spec does not show the real one). */
export interface StartAnswer {
  sent: boolean;
  expires_in?: number;
  attempts_allowed?: number;
}

/** Answer of verify (the emulator's shape; the spec does not show the real one). */
export interface VerifyAnswer {
  verified: boolean;
  email?: string;
  merchant_id?: string;
}

/** The answer type of each operation. */
export interface Answers {
  exists: ExistsAnswer;
  start: StartAnswer;
  verify: VerifyAnswer;
}

// Loose: fields the client does not know are kept, not refused; the known ones must be right.
const SCHEMAS = {
  exists: z.looseObject({ exists: z.boolean(), token_count: z.int() }),
  start: z.looseObject({
    sent: z.boolean(),
    expires_in: z.optional(z.number()),
    attempts_allowed: z.optional(z.number()),
  }),
  verify: z.looseObject({
    verified: z.boolean(),
    email: z.optional(z.string()),
    merchant_id: z.optional(z.string()),
  }),
} satisfies Record<Operation, z.ZodMiniType>;

/**
 * Reads the body of a 2xx answer as the operation's answer: the parsed value, or what is wrong
 * with it (not JSON, or a field missing or of the wrong type), so a client never hands out as an
 * `ExistsAnswer` something that is not one.
 */
export function readAnswer<O extends Operation>(
  operation: O,
  text: string,
): { ok: true; data: Answers[O] } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: `the body is not JSON, so not an answer of ${operation}` };
  }
  const result = SCHEMAS[operation].safeParse(parsed);
  if (result.success) return { ok: true, data: result.data as unknown as Answers[O] };
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  return {
    ok: false,
    error: `the body is not an answer of ${operation} (${where}${issue?.message ?? 'invalid'})`,
  };
}
