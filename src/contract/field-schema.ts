import type { FieldRule } from '../core/service/input-rules.js';
import type { JsonSchema } from './openapi-types.js';

/**
 * The JSON Schema of a request field, written from the rule the request path checks it with:
 * the same lengths, the same pattern (a RegExp's source is an ECMA-262 pattern, the dialect
 * JSON Schema uses), the same format.
 */
export function fieldSchema(rule: FieldRule): JsonSchema {
  return {
    type: 'string',
    description: rule.description,
    ...(rule.format === undefined ? {} : { format: rule.format }),
    ...(rule.minLength === undefined ? {} : { minLength: rule.minLength }),
    ...(rule.maxLength === undefined ? {} : { maxLength: rule.maxLength }),
    ...(rule.pattern === undefined ? {} : { pattern: rule.pattern.source }),
    examples: [rule.example],
  };
}
