import { BOUNDS, EMAIL_PATTERN } from '../config/config-schema.js';

/**
 * The rules of the fields a request may carry, as data: the request path checks them, and the
 * OpenAPI document is written from them, so the two cannot drift. Each is a small subset of JSON
 * Schema (string, lengths, a pattern or the e-mail format) with the message a client gets.
 */
export interface FieldRule {
  /** What the field is, for the contract. */
  description: string;
  example: string;
  /** JSON Schema `format`, when one says it. */
  format?: 'email';
  minLength?: number;
  maxLength?: number;
  pattern?: RegExp;
  /** What a value that breaks `pattern` (or `format`) is told: "must be an e-mail address". */
  patternMessage?: string;
}

/** The fields of the three operations. */
export type FieldName = 'email' | 'phone_number' | 'verification_code' | 'caller_id';

/** The rules of every field; caller_id's length comes from the config. */
export type InputRules = Readonly<Record<FieldName, FieldRule>>;

/** Builds the rules for a caller_id of at most `callerIdMaxLength` characters. */
export function createInputRules(callerIdMaxLength: number): InputRules {
  return {
    email: {
      description: "The user's e-mail address, compared case-insensitively.",
      example: 'alice@example.com',
      format: 'email',
      maxLength: BOUNDS.emailLength,
      pattern: EMAIL_PATTERN,
      patternMessage: 'must be an e-mail address',
    },
    phone_number: {
      description: "The user's phone number in E.164 form (exists only, instead of email).",
      example: '+14155550101',
      // What the pattern allows at most: "+" and 15 digits.
      maxLength: 16,
      pattern: /^\+[1-9]\d{6,14}$/,
      patternMessage: 'must be a phone number in E.164 form, such as +14155550123',
    },
    verification_code: {
      description: 'The one-time code the user received after start.',
      example: '123456',
      minLength: 1,
      maxLength: 32,
      pattern: /^\d+$/,
      patternMessage: 'must contain digits only',
    },
    caller_id: {
      description:
        'The end-user behind the request (their browser IP, a session id): selects the caller bucket. Without it the request counts in the client bucket.',
      example: '203.0.113.7',
      minLength: 1,
      maxLength: callerIdMaxLength,
      pattern: /^[\x21-\x7e]+$/,
      patternMessage: 'must be printable ASCII without spaces',
    },
  };
}

/**
 * What is wrong with a value of a field, as messages that follow its name (`caller_id must not be
 * empty`); empty when it fits. Every broken rule is listed, in the order length, then pattern.
 */
export function fieldProblems(value: unknown, rule: FieldRule, required: boolean): string[] {
  if (value === undefined) return required ? ['is required'] : [];
  if (typeof value !== 'string') return ['must be a string'];
  const problems: string[] = [];
  if (rule.minLength !== undefined && value.length < rule.minLength)
    problems.push(
      rule.minLength === 1 ? 'must not be empty' : `must be at least ${rule.minLength} characters`,
    );
  if (rule.maxLength !== undefined && value.length > rule.maxLength)
    problems.push(`must be at most ${rule.maxLength} characters`);
  // An empty value is said to be empty, not also malformed.
  if (rule.pattern !== undefined && value !== '' && !rule.pattern.test(value))
    problems.push(rule.patternMessage ?? 'is not valid');
  else if (value === '' && rule.minLength === undefined && rule.pattern !== undefined)
    problems.push(rule.patternMessage ?? 'is not valid');
  return problems;
}
