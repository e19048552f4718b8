import type { Operation } from '../config/config.js';
import { compressedBody } from './content-coding.js';
import { headerValue, type EmulatorRequest } from './exchange.js';
import { fieldProblems, type FieldName, type InputRules } from './input-rules.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../config/json-depth.js';
import { setOwnField } from './own-field.js';
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

const EXISTS_PARAMETERS = ['email', 'phone_number', 'caller_id'] as const;

/** Reads and validates the query of the exists operation. */
export function readExistsInput(query: string, rules: InputRules, instance: string): InputResult {
  const fields: Record<string, string> = {};
  let repeated: Map<string, number> | undefined;
  // One pass over the query, decoded as URLSearchParams decodes it (`+` is a space, malformed
  // escapes kept as they are); the first of a repeated parameter is kept.
  for (let start = 0; start < query.length;) {
    let end = query.indexOf('&', start);
    if (end === -1) end = query.length;
    if (end > start) {
      const equals = query.indexOf('=', start);
      const split = equals !== -1 && equals < end;
      const name = decodeComponent(query.slice(start, split ? equals : end));
      if (Object.hasOwn(fields, name)) {
        repeated ??= new Map();
        repeated.set(name, (repeated.get(name) ?? 1) + 1);
      } else setOwnField(fields, name, split ? decodeComponent(query.slice(equals + 1, end)) : '');
    }
    start = end + 1;
  }
  const errors: FieldError[] = [];
  for (const name of EXISTS_PARAMETERS) {
    const count = repeated?.get(name);
    if (count !== undefined)
      errors.push({
        detail: `${name} is given ${count} times; give it once`,
        pointer: `#/${name}`,
        parameter: name,
      });
  }
  const callerId = validCallerId(fields.caller_id, rules);
  if (errors.length > 0)
    return {
      ok: false,
      callerId,
      fields,
      problem: createProblem(
        'duplicate-parameter',
        errors.map((error) => error.detail).join('; '),
        {
          instance,
          errors,
        },
      ),
    };
  for (const name of EXISTS_PARAMETERS) fieldErrors(errors, name, fields[name], rules, false, true);
  if ((fields.email === undefined) === (fields.phone_number === undefined))
    errors.push({
      detail: 'give exactly one of email or phone_number',
      pointer: '#/email',
      parameter: 'email',
    });
  if (errors.length > 0)
    return { ok: false, callerId, fields, problem: invalidRequest(errors, instance) };
  return {
    ok: true,
    callerId,
    fields,
    input: {
      operation: 'exists',
      email: fields.email,
      phone_number: fields.phone_number,
      caller_id: fields.caller_id,
    },
  };
}

function decodeComponent(text: string): string {
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
  try {
    return decodeURIComponent(text.indexOf('+') === -1 ? text : text.replace(/\+/g, ' '));
  } catch {
    // A malformed escape or bytes that are not UTF-8: URLSearchParams keeps or replaces them.
    return new URLSearchParams(`v=${text}`).get('v') ?? '';
  }
}

/** Reads and validates the JSON body of start or verify. */
export function readBodyInput(
  request: EmulatorRequest,
  operation: Exclude<Operation, 'exists'>,
  rules: InputRules,
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
  const compressed = compressedBody(request);
  if (compressed !== undefined)
    return fail(createProblem('unsupported-media-type', compressed, { instance }));
  // A byte-order mark is allowed before JSON text (RFC 8259, section 8.1), and ignored.
  const text = (request.body ?? '').replace(/^\uFEFF/, '');
  if (nestsDeeperThan(text))
    return fail(
      createProblem(
        'invalid-request',
        `the body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`,
        { instance },
      ),
    );
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
  const callerId = validCallerId(fields.caller_id, rules);
  const errors: FieldError[] = [];
  fieldErrors(errors, 'email', fields.email, rules, true, false);
  if (operation === 'verify')
    fieldErrors(errors, 'verification_code', fields.verification_code, rules, true, false);
  fieldErrors(errors, 'caller_id', fields.caller_id, rules, false, false);
  if (errors.length > 0)
    return { ok: false, callerId, fields, problem: invalidRequest(errors, instance) };
  const email = fields.email as string;
  const caller_id = fields.caller_id as string | undefined;
  const input: OperationInput =
    operation === 'start'
      ? { operation, email, caller_id }
      : { operation, email, verification_code: fields.verification_code as string, caller_id };
  return { ok: true, callerId, fields, input };
}

function fail(problem: Problem): InputResult {
  return { ok: false, problem, callerId: undefined, fields: undefined };
}

function isJsonMediaType(contentType: string): boolean {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** The caller_id when it is valid (it then selects the bucket, even if other fields are not). */
function validCallerId(value: unknown, rules: InputRules): string | undefined {
  return typeof value === 'string' && fieldProblems(value, rules.caller_id, false).length === 0
    ? value
    : undefined;
}

/** Adds the problems of one field, each as a field error naming it. */
function fieldErrors(
  errors: FieldError[],
  name: FieldName,
  value: unknown,
  rules: InputRules,
  required: boolean,
  inQuery: boolean,
): void {
  for (const message of fieldProblems(value, rules[name], required)) {
    const detail = `${name} ${message}`;
    errors.push(
      inQuery
        ? { detail, pointer: `#/${name}`, parameter: name }
        : { detail, pointer: `#/${name}` },
    );
  }
}

function invalidRequest(errors: FieldError[], instance: string): Problem {
  return createProblem('invalid-request', errors.map((entry) => entry.detail).join('; '), {
    instance,
    errors,
  });
}
