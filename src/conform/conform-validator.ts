import type { OpenApiDocument } from '../contract/openapi-types.js';
import { rateLimitHeaderNames } from '../contract/rate-limit-header-docs.js';
import { createResponseValidator, type ResponseValidator } from '../contract/response-validator.js';

/**
 * The validator the suite judges answers with, from the contract's document: every header but
 * the rate-limit fields, which `headers.rate-limit` judges apart (with their parse errors).
 */
export function createConformValidator(document: OpenApiDocument): ResponseValidator {
  const fields = new Set(
    (['draft-10', 'draft-7', 'draft-6', 'x-ratelimit'] as const).flatMap(rateLimitHeaderNames),
  );
  return createResponseValidator(document, { skipHeaders: (name) => fields.has(name) });
}
