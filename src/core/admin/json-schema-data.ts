/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1), as plain data. */
export type JsonSchemaData = { readonly [keyword: string]: unknown };

/** The largest integer an `int32` holds. */
const INT32_MAX = 2_147_483_647;

/** A reference to another schema of the same document. */
export const schemaLink = (name: string): JsonSchemaData => ({
  $ref: `#/components/schemas/${name}`,
});

/** A whole number from `min` to `max`, in the format that holds them. */
export const integer = (min: number, max: number, description?: string): JsonSchemaData => ({
  type: 'integer',
  format: max > INT32_MAX || min < -INT32_MAX - 1 ? 'int64' : 'int32',
  minimum: min,
  maximum: max,
  ...(description === undefined ? {} : { description }),
});

/** A whole number from `min` to `max`, or null. */
export const integerOrNull = (min: number, max: number, description?: string): JsonSchemaData => ({
  ...integer(min, max, description),
  type: ['integer', 'null'],
});

/** Text of at most `maxLength` characters. */
export const string = (maxLength: number, more: Record<string, unknown> = {}): JsonSchemaData => ({
  type: 'string',
  maxLength,
  ...more,
});

/** Text of at most `maxLength` characters, or null. */
export const stringOrNull = (maxLength: number): JsonSchemaData => ({
  type: ['string', 'null'],
  maxLength,
});

/** A list of at most `maxItems` of `items`. */
export const array = (
  maxItems: number,
  items: JsonSchemaData,
  description?: string,
): JsonSchemaData => ({
  type: 'array',
  maxItems,
  items,
  ...(description === undefined ? {} : { description }),
});
