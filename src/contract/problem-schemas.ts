import {
  PROBLEM_KINDS,
  QUOTA_EXCEEDED_TYPE,
  problemType,
  type ProblemKind,
} from '../core/service/problems.js';
import type { JsonSchema } from './openapi-types.js';

/** The component name of a problem kind's schema: `Problem-code-invalid`. */
export function problemSchemaName(kind: ProblemKind): string {
  return `Problem-${kind}`;
}

/** The component name of the 429 body's schema. */
export const QUOTA_EXCEEDED_SCHEMA = 'Problem-quota-exceeded';

/** A `$ref` to a schema of the document's components. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** The members some problem kinds add to the RFC 9457 ones, as the emulator sends them. */
const EXTENSIONS: Partial<Record<ProblemKind, { required: string[]; properties: JsonSchema }>> = {
  'merchant-forbidden': {
    required: ['merchant_id'],
    properties: { merchant_id: { type: 'string', description: 'The merchant id as sent.' } },
  },
  'merchant-not-found': {
    required: ['merchant_id'],
    properties: { merchant_id: { type: 'string', description: 'The merchant id as sent.' } },
  },
  'code-invalid': {
    required: ['attempts_remaining'],
    properties: {
      attempts_remaining: {
        type: 'integer',
        minimum: 0,
        description: 'Wrong codes still allowed before the code dies.',
      },
    },
  },
  'code-attempts-exhausted': {
    required: ['attempts_remaining'],
    properties: { attempts_remaining: { const: 0, description: 'None: the code is dead.' } },
  },
};

/**
 * The schemas of problem bodies (RFC 9457): `Problem`, `FieldError`, one schema per kind of
 * {@link PROBLEM_KINDS} given (its `type` and `status` fixed) and, unless told otherwise, the
 * 429 body.
 */
export function problemSchemas(
  kinds: readonly ProblemKind[],
  quotaExceeded = true,
): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {
    Problem: {
      type: 'object',
      description:
        'Problem Details (RFC 9457), sent as application/problem+json. Members other than these may be added; clients must ignore those they do not know.',
      required: ['type', 'title', 'status', 'detail'],
      properties: {
        type: {
          type: 'string',
          format: 'uri-reference',
          description:
            'The problem type: `urn:uas:problem:<kind>`, or the IANA quota-exceeded type.',
        },
        title: { type: 'string', description: 'A short summary of the problem type.' },
        status: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status.' },
        detail: { type: 'string', description: 'What happened to this request, in words.' },
        instance: { type: 'string', description: 'The path of the request.' },
        errors: {
          type: 'array',
          description: 'One entry per field that is missing or invalid.',
          maxItems: 64,
          items: schemaRef('FieldError'),
        },
      },
    },
    FieldError: {
      type: 'object',
      required: ['detail', 'pointer'],
      properties: {
        detail: { type: 'string', description: 'What is wrong with the field.' },
        pointer: {
          type: 'string',
          description:
            'JSON pointer, as a URI fragment, to the field in the body (or in the query seen as an object): `#/email`.',
          pattern: '^#',
        },
        parameter: { type: 'string', description: 'For a query parameter: its name.' },
      },
    },
  };
  for (const kind of kinds) {
    const { status, title } = PROBLEM_KINDS[kind];
    const extension = EXTENSIONS[kind];
    schemas[problemSchemaName(kind)] = {
      description: `${title} (${status}).`,
      allOf: [
        schemaRef('Problem'),
        {
          type: 'object',
          required: extension?.required ?? [],
          properties: {
            type: { const: problemType(kind) },
            status: { const: status },
            ...extension?.properties,
          },
        },
      ],
    };
  }
  if (!quotaExceeded) return schemas;
  schemas[QUOTA_EXCEEDED_SCHEMA] = {
    description:
      'The bucket is empty (or a 429 was injected): the quota-exceeded problem type registered by the IETF RateLimit draft, with the bucket that refused the request.',
    allOf: [
      schemaRef('Problem'),
      {
        type: 'object',
        required: ['violated-policies', 'bucket', 'level', 'retry_after', 'injected'],
        properties: {
          type: { const: QUOTA_EXCEEDED_TYPE },
          status: { const: 429 },
          'violated-policies': {
            type: 'array',
            description: 'The RateLimit-Policy names that refused the request.',
            minItems: 1,
            maxItems: 2,
            items: { enum: ['client', 'caller'] },
          },
          bucket: {
            type: 'string',
            description: 'The bucket key: `client:<clientId>` or `caller:<clientId>:<caller_id>`.',
            pattern: '^(client|caller):',
          },
          level: { enum: ['client', 'caller'], description: 'The level of the bucket.' },
          retry_after: {
            type: ['integer', 'null'],
            minimum: 0,
            description: 'Seconds to wait, as in Retry-After; null when Retry-After is not sent.',
          },
          injected: {
            type: 'boolean',
            description: 'Whether the 429 was injected (chaos, failNext) rather than earned.',
          },
        },
      },
    ],
  };
  return schemas;
}
