import {
  PROBLEM_KINDS,
  PROBLEM_TEXT_MAX,
  QUOTA_EXCEEDED_TYPE,
  problemType,
  type ProblemKind,
} from '../core/service/problems.js';
import { BOUNDS } from '../core/config/config-schema.js';
import { QUOTA_EXCEEDED_TITLE } from '../core/service/service-response.js';
import type { JsonSchema } from './openapi-types.js';
import { FIELD_INTEGER_MAX, longest, wholeNumber } from './value-bounds.js';

const KINDS = Object.keys(PROBLEM_KINDS) as ProblemKind[];

/** Text of a problem: the emulator clips it to {@link PROBLEM_TEXT_MAX} characters. */
const problemText = (description: string): JsonSchema => ({
  type: 'string',
  maxLength: PROBLEM_TEXT_MAX,
  description,
});

/** A merchant id the emulator knows: a UUID of its config. */
const KNOWN_MERCHANT: JsonSchema = {
  type: 'string',
  format: 'uuid',
  maxLength: 36,
  description: 'The merchant id as sent (a merchant of the config).',
};

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
    properties: { merchant_id: KNOWN_MERCHANT },
  },
  'merchant-not-found': {
    required: ['merchant_id'],
    properties: { merchant_id: problemText('The merchant id as sent.') },
  },
  'code-invalid': {
    required: ['attempts_remaining'],
    properties: {
      attempts_remaining: wholeNumber(
        0,
        BOUNDS.otpAttempts,
        'Wrong codes still allowed before the code dies.',
      ),
    },
  },
  'code-attempts-exhausted': {
    required: ['attempts_remaining'],
    properties: { attempts_remaining: { const: 0, description: 'None: the code is dead.' } },
  },
};

/** `Problem` (RFC 9457, with its members as the emulator bounds them) and `FieldError`. */
function commonProblemSchemas(): Record<string, JsonSchema> {
  return {
    Problem: {
      type: 'object',
      description:
        'Problem Details (RFC 9457), sent as application/problem+json. Members other than these may be added; clients must ignore those they do not know.',
      required: ['type', 'title', 'status', 'detail'],
      properties: {
        type: {
          type: 'string',
          format: 'uri-reference',
          maxLength: longest([...KINDS.map(problemType), QUOTA_EXCEEDED_TYPE]),
          description:
            'The problem type: `urn:uas:problem:<kind>`, or the IANA quota-exceeded type.',
        },
        title: {
          type: 'string',
          maxLength: longest([
            ...KINDS.map((kind) => PROBLEM_KINDS[kind].title),
            QUOTA_EXCEEDED_TITLE,
          ]),
          description: 'A short summary of the problem type.',
        },
        status: wholeNumber(400, 599, 'The HTTP status.'),
        detail: problemText('What happened to this request, in words.'),
        instance: problemText('The path of the request.'),
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
        detail: problemText('What is wrong with the field.'),
        pointer: {
          ...problemText(''),
          description:
            'JSON pointer, as a URI fragment, to the field in the body (or in the query seen as an object): `#/email`.',
          pattern: '^#',
        },
        parameter: problemText('For a query parameter: its name.'),
      },
    },
  };
}

/** The schema of one kind of problem: `Problem` with its `type` and `status` fixed. */
function kindSchema(kind: ProblemKind): JsonSchema {
  const { status, title } = PROBLEM_KINDS[kind];
  const extension = EXTENSIONS[kind];
  return {
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

/** The 429 body: the quota-exceeded problem type, with the bucket that refused the request. */
function quotaExceededSchema(bucketMaxLength: number): JsonSchema {
  return {
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
            maxLength: bucketMaxLength,
          },
          level: { enum: ['client', 'caller'], description: 'The level of the bucket.' },
          retry_after: {
            type: ['integer', 'null'],
            format: 'int64',
            minimum: 0,
            maximum: FIELD_INTEGER_MAX,
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
}

/**
 * The schemas of problem bodies (RFC 9457): `Problem`, `FieldError`, one schema per kind of
 * {@link PROBLEM_KINDS} given (its `type` and `status` fixed) and, when `quotaExceeded` says how
 * long a bucket key can be, the 429 body.
 */
export function problemSchemas(
  kinds: readonly ProblemKind[],
  quotaExceeded: { bucketMaxLength: number } | false,
): Record<string, JsonSchema> {
  const schemas = commonProblemSchemas();
  for (const kind of kinds) schemas[problemSchemaName(kind)] = kindSchema(kind);
  if (quotaExceeded !== false)
    schemas[QUOTA_EXCEEDED_SCHEMA] = quotaExceededSchema(quotaExceeded.bucketMaxLength);
  return schemas;
}
