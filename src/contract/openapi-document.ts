import type { Operation, ResolvedConfig } from '../core/config/config.js';
import { createInputRules } from '../core/service/input-rules.js';
import { SERVICE_METHODS, SERVICE_PATHS } from '../core/service/service-routes.js';
import { VERSION } from '../version.js';
import type { OpenApiDocument } from './openapi-types.js';
import { describeOperation } from './operation-description.js';
import { OPERATION_PROBLEMS } from './operation-problems.js';
import { problemSchemas } from './problem-schemas.js';
import { describeService } from './service-description.js';
import { operationSchemas } from './success-schemas.js';
import { bucketKeyMaxLength } from './value-bounds.js';

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /**
   * The base URL the document names as its server.
   * @default 'http://127.0.0.1:4010' (where `uas serve` listens)
   */
  serverUrl?: string;
}

/** Where `uas serve` listens by default. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:4010';

const OPERATIONS: readonly Operation[] = ['exists', 'start', 'verify'];

/**
 * The OpenAPI 3.1 document of the service as the emulator runs it under `config`: the three
 * operations with their parameters, bodies, answers and every problem they can answer with, the
 * Bearer scheme, the rate-limit fields of the configured style and Retry-After. Written from the
 * rules and constants the emulator runs on (input rules, problem kinds, the header writer, the
 * 429 renderer), so it cannot drift from them. Pure: the same config gives the same document.
 * The dev API is described apart, by `createDevApiDocument`.
 */
export function createOpenApiDocument(
  config: ResolvedConfig,
  options: OpenApiDocumentOptions = {},
): OpenApiDocument {
  const rules = createInputRules(config.callerIdMaxLength);
  const merchantId = config.clients[0]?.merchants[0] ?? '6f1c2b0e-8a4d-4c43-9b7e-2f5d8c1a9e01';
  const kinds = [...new Set(OPERATIONS.flatMap((op) => OPERATION_PROBLEMS[op].map((p) => p.kind)))];
  const paths: OpenApiDocument['paths'] = {};
  for (const operation of OPERATIONS) {
    const method = SERVICE_METHODS[operation].toLowerCase();
    paths[SERVICE_PATHS[operation]] = {
      [method]: describeOperation(config, operation, rules, merchantId),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rate-limited user-access API (uas emulator)',
      version: VERSION,
      summary:
        'User existence check and passwordless sign-in, limited per client or per caller_id.',
      description: describeService(config),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: options.serverUrl ?? DEFAULT_SERVER_URL,
        description:
          'The uas emulator (`uas serve`) on the local machine; the real service has its own base URL.',
        'x-internal': true,
      },
    ],
    tags: [
      { name: 'users', description: 'Whether a user exists.' },
      { name: 'passwordless', description: 'Passwordless sign-in: start, then verify the code.' },
    ],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas: {
        ...operationSchemas(rules),
        ...problemSchemas(kinds, {
          bucketMaxLength: bucketKeyMaxLength(config.callerIdMaxLength),
        }),
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Every request sends `Authorization: Bearer <access token>`. The token names the client, and so its client bucket. A missing, malformed or unknown token is answered 401 before any bucket is touched. How tokens are obtained is not part of the interface; the emulator takes the tokens of its config.',
        },
      },
    },
  };
}
