import { CLIENT_ID_MAX_LENGTH } from '../core/config/config-schema.js';
import type { JsonSchema } from './openapi-types.js';

/**
 * The largest whole number a rate-limit field or Retry-After carries: a Structured Field integer
 * has at most 15 digits, and the config's bounds keep every count, window and wait within it.
 */
export const FIELD_INTEGER_MAX = 999_999_999_999_999;

const INT32_MAX = 2_147_483_647;

/** A whole number from `minimum` to `maximum`, with the format (int32 or int64) that holds it. */
export function wholeNumber(minimum: number, maximum: number, description?: string): JsonSchema {
  return {
    type: 'integer',
    format: maximum <= INT32_MAX ? 'int32' : 'int64',
    minimum,
    maximum,
    ...(description === undefined ? {} : { description }),
  };
}

/**
 * The longest bucket key: `caller:<clientId>:<caller_id>` with the longest client id a config
 * takes and the longest caller_id the running config accepts.
 */
export function bucketKeyMaxLength(callerIdMaxLength: number): number {
  return 'caller:'.length + CLIENT_ID_MAX_LENGTH + 1 + callerIdMaxLength;
}

/** The length of the longest of `texts`. */
export function longest(texts: Iterable<string>): number {
  let most = 0;
  for (const text of texts) most = Math.max(most, text.length);
  return most;
}
