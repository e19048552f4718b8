import { z } from 'zod';
import type { Operation } from '../config/config.js';
import { headerValue, type EmulatorRequest } from './exchange.js';
import { createProblem, type FieldError, type Problem } from './problems.js';

/** The validated input of an operation. */
export type OperationInput =
  | {
      operation: 'exists';
      email: string | undefined;
      phone_number: string | undefined;
      caller_id: string | undefined;
    }
  | { operation: 'start'; email: string; caller_id: string | undefined }
  | {
      operation: 'verify';
      email: string;
      verification_code: string;
      caller_id: string | undefined;
    };

/**
 * The input of a request, read before the bucket is charged: either the validated input, or the
 * problem that rejects it. `callerId` is set whenever a valid caller_id could be read, so even an
 * invalid request is checked against the right bucket.
 */
export type InputResult = (
  | { ok: true; input: OperationInput; callerId: string | undefined }
  | { ok: false; problem: Problem; callerId: string | undefined }
) & {
  /**
   * The fields as sent (the query of exists, the JSON body of start and verify), for the record;
   * undefined when the body could not be read as a JSON object.
   */
  fields: Record<string, unknown> | undefined;
};

type Message = (issue: { code: string; input?: unknown }) => string;

const typed =
  (kind: string, otherwise: string): Message =>
  (issue) => {
    if (issue.code !== 'invalid_type') return otherwise;
    return issue.input === undefined ? 'is required' : `must be ${kind}`;
  };

const emailSchema = z
  .email({ error: typed('a string', 'must be an e-mail address') })
  .max(254, 'must be at most 254 characters');
const phoneSchema = z
  .string({ error: typed('a string', '') })
  .regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form, such as +14155550123');
const codeSchema = z
  .string({ error: typed('a string', '') })
  .min(1, 'must not be empty')
  .max(32, 'must be at most 32 characters')
  .regex(/^\d+$/, 'must contain digits only');

/** Schemas that depend on the config (the caller_id length limit), built once per config. */
export interface InputSchemas {
  exists: z.ZodType<{
    email?: string | undefined;
    phone_number?: string | undefined;
    caller_id?: string | undefined;
  }>;
  start: z.ZodType<{ email: string; caller_id?: string | undefined }>;
  verify: z.ZodType<{ email: string; verification_code: string; caller_id?: string | undefined }>;
}

/** Builds the input schemas for a caller_id of at most `callerIdMaxLength` characters. */
export function createInputSchemas(callerIdMaxLength: number): InputSchemas {
  const callerId = z
    .string({ error: typed('a string', '') })
    .min(1, 'must not be empty')
    .max(callerIdMaxLength, `must be at most ${callerIdMaxLength} characters`)
    .regex(/^[\x21-\x7e]*$/, 'must be printable ASCII without spaces');
  return {
    exists: z
      .object({
        email: emailSchema.optional(),
        phone_number: phoneSchema.optional(),
        caller_id: callerId.optional(),
      })
      .refine((query) => (query.email === undefined) !== (query.phone_number === undefined), {
        message: 'give exactly one of email or phone_number',
        path: ['email'],
      }),
    start: z.object({ email: emailSchema, caller_id: callerId.optional() }),
    verify: z.object({
      email: emailSchema,
      verification_code: codeSchema,
      caller_id: callerId.optional(),
    }),
  };
}

const EXISTS_PARAMETERS = ['email', 'phone_number', 'caller_id'] as const;

/** Reads and validates the query of the exists operation. */
export function readExistsInput(
  query: string,
  schemas: InputSchemas,
  instance: string,
): InputResult {
  const params = new URLSearchParams(query);
  const fields: Record<string, string> = {};
  let repeated: Set<string> | undefined;
  for (const [name, value] of params) {
    if (name in fields) (repeated ??= new Set()).add(name);
    else fields[name] = value;
  }
  const raw: Record<string, string> = {};
  for (const name of EXISTS_PARAMETERS) if (name in fields) raw[name] = fields[name] as string;
  const duplicates: FieldError[] = [];
  for (const name of EXISTS_PARAMETERS) {
    if (repeated === undefined || !repeated.has(name)) continue;
    const count = params.getAll(name).length;
    duplicates.push({
      detail: `${name} is given ${count} times; give it once`,
      pointer: `#/${name}`,
      parameter: name,
    });
  }
  const parsed = schemas.exists.safeParse(raw);
  const callerId = readCallerId(raw, parsed);
  if (duplicates.length > 0) {
    return {
      ok: false,
      callerId,
      fields,
      problem: createProblem(
        'duplicate-parameter',
        duplicates.map((error) => error.detail).join('; '),
        { instance, errors: duplicates },
      ),
    };
  }
  if (!parsed.success)
    return {
      ok: false,
      callerId,
      fields,
      problem: validationProblem(parsed.error, instance, true),
    };
  return {
    ok: true,
    callerId,
    fields,
    input: {
      operation: 'exists',
      email: parsed.data.email,
      phone_number: parsed.data.phone_number,
      caller_id: parsed.data.caller_id,
    },
  };
}

/** Reads and validates the JSON body of start or verify. */
export function readBodyInput(
  request: EmulatorRequest,
  operation: Exclude<Operation, 'exists'>,
  schemas: InputSchemas,
  instance: string,
): InputResult {
  const contentType = headerValue(request.headers, 'content-type');
  if (contentType === undefined || !isJsonMediaType(contentType)) {
    const given =
      contentType === undefined ? 'no Content-Type' : `Content-Type ${JSON.stringify(contentType)}`;
    return fail(
      createProblem(
        'unsupported-media-type',
        `send a JSON body with Content-Type: application/json; got ${given}`,
        { instance },
      ),
    );
  }
  const text = request.body ?? '';
  if (text.trim() === '')
    return fail(
      createProblem('malformed-json', 'the body is empty; send a JSON object', { instance }),
    );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return fail(
      createProblem('malformed-json', `the body is not valid JSON: ${(error as Error).message}`, {
        instance,
      }),
    );
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail(
      createProblem(
        'invalid-request',
        `the body must be a JSON object; got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}`,
        { instance },
      ),
    );
  }
  const fields = body as Record<string, unknown>;
  const parsed = schemas[operation].safeParse(body);
  const callerId = readCallerId(fields, parsed);
  if (!parsed.success)
    return {
      ok: false,
      callerId,
      fields,
      problem: validationProblem(parsed.error, instance, false),
    };
  const data = parsed.data as { email: string; verification_code?: string; caller_id?: string };
  const input: OperationInput =
    operation === 'start'
      ? { operation, email: data.email, caller_id: data.caller_id }
      : {
          operation,
          email: data.email,
          verification_code: data.verification_code as string,
          caller_id: data.caller_id,
        };
  return { ok: true, callerId, fields, input };
}

function fail(problem: Problem): InputResult {
  return { ok: false, problem, callerId: undefined, fields: undefined };
}

function isJsonMediaType(contentType: string): boolean {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function readCallerId(
  raw: Record<string, unknown>,
  parsed: { success: boolean; error?: z.ZodError },
): string | undefined {
  const value = raw.caller_id;
  if (typeof value !== 'string') return undefined;
  if (parsed.success) return value;
  const callerIdBad = parsed.error?.issues.some((issue) => issue.path[0] === 'caller_id');
  return callerIdBad ? undefined : value;
}

function validationProblem(error: z.ZodError, instance: string, inQuery: boolean): Problem {
  const errors: FieldError[] = error.issues.map((issue) => {
    const field = issue.path.map(String).join('/') || 'body';
    const detail = issue.message.startsWith('give ') ? issue.message : `${field} ${issue.message}`;
    return inQuery
      ? { detail, pointer: `#/${field}`, parameter: field }
      : { detail, pointer: `#/${field}` };
  });
  return createProblem('invalid-request', errors.map((entry) => entry.detail).join('; '), {
    instance,
    errors,
  });
}
