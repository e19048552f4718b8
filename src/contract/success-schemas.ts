import { BOUNDS } from '../core/config/config-schema.js';
import type { InputRules } from '../core/service/input-rules.js';
import { fieldSchema } from './field-schema.js';
import type { JsonSchema } from './openapi-types.js';
import { schemaRef } from './problem-schemas.js';
import { wholeNumber } from './value-bounds.js';

/** The schemas of the bodies of the three operations: what they take and what they answer. */
export function operationSchemas(rules: InputRules): Record<string, JsonSchema> {
  return {
    StartRequest: {
      type: 'object',
      description: 'Unknown members are ignored.',
      required: ['email'],
      properties: { email: fieldSchema(rules.email), caller_id: fieldSchema(rules.caller_id) },
    },
    VerifyRequest: {
      type: 'object',
      description: 'Unknown members are ignored.',
      required: ['email', 'verification_code'],
      properties: {
        email: fieldSchema(rules.email),
        verification_code: fieldSchema(rules.verification_code),
        caller_id: fieldSchema(rules.caller_id),
      },
    },
    ExistsAnswer: {
      type: 'object',
      required: ['exists', 'token_count'],
      properties: {
        exists: { type: 'boolean', description: 'Whether a user has this e-mail or phone number.' },
        token_count: wholeNumber(
          0,
          BOUNDS.tokenCount,
          'The number of tokens (saved payment credentials) the user has; 0 when no user.',
        ),
      },
    },
    StartAnswer: {
      type: 'object',
      required: ['sent', 'expires_in', 'attempts_allowed'],
      properties: {
        sent: { const: true, description: 'A code was issued (replacing any earlier one).' },
        expires_in: wholeNumber(0, BOUNDS.otpTtlMs / 1000, 'Seconds the code stays valid.'),
        attempts_allowed: wholeNumber(
          1,
          BOUNDS.otpAttempts,
          'Wrong codes allowed before the code dies.',
        ),
      },
    },
    VerifyAnswer: {
      type: 'object',
      required: ['verified', 'email', 'merchant_id'],
      properties: {
        verified: { const: true, description: 'The user is signed in; the code is used up.' },
        email: {
          type: 'string',
          maxLength: 254,
          description: "The user's e-mail address, as configured.",
        },
        merchant_id: { ...schemaRef('MerchantId') },
      },
    },
    MerchantId: {
      type: 'string',
      format: 'uuid',
      maxLength: 36,
      description: 'A merchant of the client the access token belongs to (a UUID).',
    },
  };
}
