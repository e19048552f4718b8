import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { HeaderObject, OpenApiDocument, ResponseObject } from './openapi-types.js';

/** An answer to check: status, headers and the body as text. */
export interface AnswerToCheck {
  status: number;
  /** Fetch `Headers`, or names (lower case) and values. */
  headers: Headers | Readonly<Record<string, string | string[] | undefined>>;
  body: string;
}

/** Options of {@link createResponseValidator}. */
export interface ResponseValidatorOptions {
  /**
   * Headers not to judge (lower-case names): `uas conform` judges the rate-limit fields in a
   * check of their own.
   * @default none
   */
  skipHeaders?: (name: string) => boolean;
}

/** Checks answers against the responses an OpenAPI document gives an operation. */
export interface ResponseValidator {
  /**
   * The differences between an answer and what the document says `operationId` answers: its
   * status is documented, its content type is the documented one, its body fits the schema and
   * its headers are present where required and fit theirs. Empty when it conforms.
   */
  check(operationId: string, answer: AnswerToCheck): string[];
  /** The statuses documented for an operation. */
  statuses(operationId: string): number[];
}

const DOCUMENT_ID = 'urn:uas:contract';

/** Keywords the OpenAPI 3.1 base dialect adds to JSON Schema. */
const OPENAPI_SCHEMA_KEYWORDS = ['discriminator', 'xml', 'externalDocs', 'example'];

/** JSON pointer escaping of one path segment. */
const segment = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

/** The compiled schema at a JSON pointer of the document. */
type SchemaAt = (pointer: string) => ValidateFunction;

/**
 * The document's schemas, with ajv in the JSON Schema 2020-12 dialect that OpenAPI 3.1 uses
 * (formats from ajv-formats), each compiled once, when first needed.
 */
function compileDocument(document: OpenApiDocument): SchemaAt {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormatsModule.default(ajv);
  // The OpenAPI 3.1 dialect adds these keywords to schemas; the document's own members are not
  // schema keywords, but ajv reads the document as the root of the schemas it holds.
  ajv.addVocabulary([...OPENAPI_SCHEMA_KEYWORDS, ...Object.keys(document)]);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID } as object);
  const compiled = new Map<string, ValidateFunction>();
  return (pointer) => {
    let validate = compiled.get(pointer);
    if (validate === undefined) {
      validate = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
      if (validate === undefined) throw new Error(`no schema at ${pointer} in the document`);
      compiled.set(pointer, validate);
    }
    return validate;
  };
}

/** An operation of the document: where it is, and its responses by status. */
interface DocumentedOperation {
  pointer: string;
  responses: Record<string, ResponseObject>;
}

/** The operations of the document by operationId. */
function indexOperations(document: OpenApiDocument): Map<string, DocumentedOperation> {
  const operations = new Map<string, DocumentedOperation>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      operations.set(operation.operationId, {
        pointer: `/paths/${segment(path)}/${method}`,
        responses: operation.responses as Record<string, ResponseObject>,
      });
    }
  }
  return operations;
}

/** Each header of `response` that is missing where required, or does not fit its schema. */
function headerDifferences(
  response: ResponseObject,
  read: (name: string) => string | undefined,
  pointer: string,
  schemaAt: SchemaAt,
  skip: (name: string) => boolean,
): string[] {
  const differences: string[] = [];
  for (const [name, header] of Object.entries(response.headers ?? {}) as Array<
    [string, HeaderObject]
  >) {
    if (skip(name.toLowerCase())) continue;
    const value = read(name);
    if (value === undefined) {
      if (header.required === true) differences.push(`header ${name} is missing`);
      continue;
    }
    const problem = checkHeader(
      value,
      header,
      schemaAt(`${pointer}/headers/${segment(name)}/schema`),
    );
    if (problem !== undefined)
      differences.push(`header ${name} ${JSON.stringify(value)} ${problem}`);
  }
  return differences;
}

/** How the content type and body differ from those of `response` (a JSON body: its schema). */
function bodyDifferences(
  response: ResponseObject,
  answer: AnswerToCheck,
  read: (name: string) => string | undefined,
  pointer: string,
  schemaAt: SchemaAt,
): string[] {
  const types = Object.keys(response.content ?? {});
  if (types.length === 0) return [];
  const contentType = read('content-type');
  const essence = (contentType?.split(';')[0] ?? '').trim().toLowerCase();
  if (!types.includes(essence))
    return [
      `content type ${contentType === undefined ? '(none)' : JSON.stringify(contentType)} is not ${types.join(' or ')}`,
    ];
  // A text body (events, metrics) has no schema beyond being text.
  if (essence !== 'application/json' && !essence.endsWith('+json')) return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [`the body is not JSON: ${JSON.stringify(answer.body.slice(0, 80))}`];
  }
  const validate = schemaAt(`${pointer}/content/${segment(essence)}/schema`);
  return validate(body) ? [] : describeErrors(validate.errors ?? [], 'body');
}

/**
 * A validator of answers against `document`, with ajv in the JSON Schema 2020-12 dialect that
 * OpenAPI 3.1 uses (formats from ajv-formats). Schemas are compiled once, when first needed.
 */
export function createResponseValidator(
  document: OpenApiDocument,
  options: ResponseValidatorOptions = {},
): ResponseValidator {
  const schemaAt = compileDocument(document);
  const operations = indexOperations(document);
  const find = (operationId: string) => {
    const found = operations.get(operationId);
    if (found === undefined) throw new Error(`the document has no operation ${operationId}`);
    return found;
  };
  const skip = options.skipHeaders ?? (() => false);
  return {
    statuses: (operationId) => Object.keys(find(operationId).responses).map(Number),
    check(operationId, answer) {
      const operation = find(operationId);
      const response = operation.responses[String(answer.status)];
      if (response === undefined) {
        const documented = Object.keys(operation.responses).join(', ');
        return [
          `status ${answer.status} is not documented for ${operationId} (documented: ${documented})`,
        ];
      }
      const pointer = `${operation.pointer}/responses/${answer.status}`;
      const read = headerReader(answer.headers);
      return [
        ...headerDifferences(response, read, pointer, schemaAt, skip),
        ...bodyDifferences(response, answer, read, pointer, schemaAt),
      ];
    },
  };
}

function headerReader(headers: AnswerToCheck['headers']): (name: string) => string | undefined {
  if (headers instanceof Headers) return (name) => headers.get(name) ?? undefined;
  return (name) => {
    const value = headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  };
}

/** What is wrong with a header value, or undefined; integers are read from their text first. */
function checkHeader(
  value: string,
  header: HeaderObject,
  validate: ValidateFunction,
): string | undefined {
  let typed: unknown = value;
  if (header.schema.type === 'integer') {
    if (!/^\d{1,15}$/.test(value.trim())) return 'is not a whole number';
    typed = Number(value.trim());
  }
  if (validate(typed)) return undefined;
  return describeErrors(validate.errors ?? [], '')
    .join('; ')
    .trim();
}

/** Ajv's errors in a few words each: `body/exists must be boolean`. */
function describeErrors(errors: ErrorObject[], what: string): string[] {
  // oneOf reports every branch; the branch errors say more than "must match exactly one schema".
  const useful = errors.filter((error) => error.keyword !== 'oneOf' || errors.length === 1);
  const lines = useful.map((error) => {
    const extra =
      error.keyword === 'additionalProperties'
        ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})`
        : error.keyword === 'const' || error.keyword === 'enum'
          ? ` (${JSON.stringify((error.params as { allowedValue?: unknown; allowedValues?: unknown }).allowedValue ?? (error.params as { allowedValues?: unknown }).allowedValues)})`
          : '';
    return `${what}${error.instancePath} ${error.message ?? 'is not valid'}${extra}`.trim();
  });
  return [...new Set(lines)];
}
