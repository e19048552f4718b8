import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/config/config.js';
import { PROBLEM_KINDS, type ProblemKind } from '../core/service/problems.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN, OTHER_TOKEN } from '../demo-config.js';
import { createOpenApiDocument } from './openapi-document.js';
import { DEV_API_PROBLEMS, OPERATION_PROBLEMS, TRANSPORT_PROBLEMS } from './operation-problems.js';
import {
  matchServiceRoute,
  operationPath,
  SERVICE_METHODS,
  SERVICE_PATHS,
} from '../core/service/service-routes.js';

const config = (extra: Record<string, unknown> = {}) => resolveConfig({ ...DEMO_CONFIG, ...extra });

describe('createOpenApiDocument', () => {
  it('describes the three operations at the paths the router answers', () => {
    const document = createOpenApiDocument(config());
    for (const operation of ['exists', 'start', 'verify'] as const) {
      const method = SERVICE_METHODS[operation];
      const described = document.paths[SERVICE_PATHS[operation]]?.[method.toLowerCase()];
      expect(described?.operationId).toBe(operation);
      expect(matchServiceRoute(method, operationPath(operation, DEMO_MERCHANT))).toMatchObject({
        kind: 'operation',
        operation,
      });
    }
    expect(Object.keys(document.paths)).toHaveLength(3);
  });

  it('places every problem kind in an operation, the dev API or the transport', () => {
    const placed = new Set<ProblemKind>([
      ...Object.values(OPERATION_PROBLEMS).flatMap((problems) => problems.map((p) => p.kind)),
      ...DEV_API_PROBLEMS,
      ...TRANSPORT_PROBLEMS,
    ]);
    expect(Object.keys(PROBLEM_KINDS).filter((kind) => !placed.has(kind as ProblemKind))).toEqual(
      [],
    );
  });

  it('writes the request fields from the input rules, caller_id bounded by the config', () => {
    const document = createOpenApiDocument(config({ request: { callerIdMaxLength: 64 } }));
    const schema = document.components.schemas.StartRequest as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.properties.caller_id).toMatchObject({
      maxLength: 64,
      pattern: '^[\\x21-\\x7e]+$',
    });
    expect(schema.properties.email).toMatchObject({ format: 'email', maxLength: 254 });
  });

  it('shows the configured limits and header style in its examples and descriptions', () => {
    const document = createOpenApiDocument(
      config({
        limits: { client: { burst: 40, rate: '20/s' }, caller: { burst: 3, rate: '1/10s' } },
      }),
    );
    const ok = document.paths['/v1/users/exists']?.get?.responses['200'] as {
      headers: Record<string, { example?: unknown; required?: boolean }>;
    };
    expect(ok.headers['RateLimit-Policy']).toMatchObject({
      example: '"caller";q=3;w=30',
      required: true,
    });
    expect(ok.headers.RateLimit?.example).toBe('"caller";r=2;t=10');
    expect(document.info.description).toContain(
      'the client bucket holds 40 tokens and refills at 20/s',
    );

    const legacy = createOpenApiDocument(config({ behavior: { headers: 'x-ratelimit' } }));
    const headers = Object.keys(
      (legacy.paths['/v1/users/exists']?.get?.responses['429'] as { headers: object }).headers,
    );
    expect(headers).toEqual(
      expect.arrayContaining([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
      ]),
    );
    expect(headers).not.toContain('RateLimit');
  });

  it('leaves Retry-After out of the 429 when the config does not send it', () => {
    const document = createOpenApiDocument(config({ behavior: { retryAfter: 'absent' } }));
    const tooMany = document.paths['/v1/users/exists']?.get?.responses['429'] as {
      headers: object;
    };
    expect(Object.keys(tooMany.headers)).not.toContain('Retry-After');
  });

  it('never holds an access token of the config', () => {
    const text = JSON.stringify(createOpenApiDocument(config()));
    expect(text).not.toContain(DEMO_TOKEN);
    expect(text).not.toContain(OTHER_TOKEN);
  });

  it('is the same for the same config', () => {
    expect(JSON.stringify(createOpenApiDocument(config()))).toBe(
      JSON.stringify(createOpenApiDocument(config())),
    );
  });
});
