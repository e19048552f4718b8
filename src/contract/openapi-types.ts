/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1), as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

/** An OpenAPI 3.1 header object. */
export interface HeaderObject {
  description: string;
  required?: boolean;
  schema: JsonSchema;
  example?: unknown;
}

/** An OpenAPI 3.1 response object. */
export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: Record<string, MediaTypeObject>;
}

/** An OpenAPI 3.1 media type object. */
export interface MediaTypeObject {
  schema: JsonSchema;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

/** An OpenAPI 3.1 parameter object. */
export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header';
  description: string;
  required: boolean;
  schema: JsonSchema;
  example?: unknown;
}

/** An OpenAPI 3.1 operation object. */
export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: Array<ParameterObject | { $ref: string }>;
  requestBody?: {
    description?: string;
    required: boolean;
    content: Record<string, MediaTypeObject>;
  };
  responses: Record<string, ResponseObject | { $ref: string }>;
  security?: Array<Record<string, string[]>>;
}

/** An OpenAPI 3.1 document: the parts uas writes. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  /**
   * Left out: its default is already OAS 3.1's dialect, and Prism (5.x) validates no body at all
   * when the field is present.
   */
  jsonSchemaDialect?: never;
  info: {
    title: string;
    version: string;
    summary?: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: Array<{ url: string; description: string; 'x-internal'?: boolean }>;
  tags: Array<{ name: string; description: string }>;
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers?: Record<string, HeaderObject>;
    responses?: Record<string, ResponseObject>;
    parameters?: Record<string, ParameterObject>;
    securitySchemes?: Record<string, Record<string, unknown>>;
  };
}
