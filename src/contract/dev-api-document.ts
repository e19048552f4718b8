import type { DevRoute, QueryParam } from '../core/admin/dev-api-route.js';
import { DEV_API_SCHEMAS } from '../core/admin/dev-api-schemas.js';
import {
  DEV_API_ROUTE_LIST,
  DEV_API_ROUTES,
  type DevApiOperation,
} from '../core/admin/dev-api-table.js';
import { integer } from '../core/admin/json-schema-data.js';
import type { ResolvedConfig } from '../core/config/config.js';
import { PROBLEM_KINDS, type ProblemKind } from '../core/service/problems.js';
import { VERSION } from '../version.js';
import { DEFAULT_SERVER_URL, type OpenApiDocumentOptions } from './openapi-document.js';
import type {
  JsonSchema,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  ResponseObject,
} from './openapi-types.js';
import { problemSchemaName, problemSchemas, schemaRef } from './problem-schemas.js';

/** Problems any route of the dev API can answer with. */
const EVERY_ROUTE: ProblemKind[] = ['admin-token-required', 'host-not-allowed', 'not-found'];
/** Problems of the routes that change something, and of the reads that show traffic. */
const WRITES: ProblemKind[] = ['cross-origin-refused'];
/** Problems of the routes that read a JSON body (one nested too deep, or giving a key twice, is invalid). */
const BODIES: ProblemKind[] = [
  'malformed-json',
  'unsupported-media-type',
  'payload-too-large',
  'invalid-request',
];
/** Problems of the routes with query parameters: one that does not fit, or is given twice. */
const QUERIES: ProblemKind[] = ['invalid-request', 'duplicate-parameter'];

/**
 * The OpenAPI 3.1 document of the dev API under `/__uas` (emulator only), written from its route
 * table: a route cannot be added without the document knowing it, with the bounds the router
 * keeps. Apart from the service's document because the dev API is not part of the interface a
 * merchant integrates against (a client generated from the service's document must not gain
 * it), is never rate limited (the rate-limit rules of the service's document do not apply to it),
 * and has its own guard (an admin token, or loopback only).
 */
export function createDevApiDocument(
  config: ResolvedConfig,
  options: OpenApiDocumentOptions = {},
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const kinds = new Set<ProblemKind>();
  DEV_API_ROUTE_LIST.forEach((route, index) => {
    const problems = problemsOf(route);
    problems.forEach((kind) => kinds.add(kind));
    const operation = operationOf(route, DEV_API_ROUTES[index] ?? '', problems);
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  });
  const tags = [...new Set(DEV_API_ROUTE_LIST.map((route) => route.tag))].sort();
  return {
    openapi: '3.1.0',
    info: {
      title: 'uas dev API',
      version: VERSION,
      summary:
        'Inspect and steer the uas emulator: buckets, codes, requests, faults, clock, config.',
      description: `The dev API of the uas emulator, under \`/__uas\`: never rate limited and not part of the emulated service. Open on loopback; with \`--admin-token\` every call needs \`Authorization: Bearer <admin token>\`; on another address without one it is off (404). Writes from web pages of another origin are refused. The running config has ${config.clients.length} client(s) and ${config.users.length} user(s).`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: options.serverUrl ?? DEFAULT_SERVER_URL,
        description: 'The uas emulator on the local machine.',
        'x-internal': true,
      },
    ],
    tags: tags.map((name) => ({ name, description: `The dev API: ${name}.` })),
    security: [{}, { adminToken: [] }],
    paths,
    components: {
      schemas: {
        ...(DEV_API_SCHEMAS as Record<string, JsonSchema>),
        ...problemSchemas([...kinds], false),
      },
      securitySchemes: {
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The `--admin-token` of `uas serve` (`UAS_ADMIN_TOKEN`), when it has one.',
        },
      },
    },
  };
}

/** Every problem a route can answer with, as its declaration says. */
function problemsOf(route: DevRoute): ProblemKind[] {
  const write = route.method !== 'GET' || route.showsTraffic === true;
  return [
    ...EVERY_ROUTE,
    ...(write ? WRITES : []),
    ...(route.body === undefined ? [] : BODIES),
    ...(route.query === undefined ? [] : QUERIES),
    ...(route.item === undefined ? [] : (['invalid-request'] as const)),
    ...(route.store === true ? (['store-unavailable'] as const) : []),
    ...(route.problems ?? []),
  ];
}

/** The operation object of a route; `line` is how `GET /__uas` lists it. */
function operationOf(
  route: DevRoute & { operationId: DevApiOperation },
  line: string,
  problems: ProblemKind[],
): OperationObject {
  const itemName = /\{(\w+)\}/.exec(route.path)?.[1];
  const parameters: ParameterObject[] = [
    ...(route.item === undefined || itemName === undefined
      ? []
      : [
          {
            name: itemName,
            in: 'path' as const,
            required: true,
            description: route.item.description,
            schema: { type: 'string', maxLength: route.item.maxLength },
          },
        ]),
    ...Object.entries(route.query ?? {}).map(([name, param]) => queryParameter(name, param)),
  ];
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.summary}. \`${line.replace(/\s+/, ' ')}\``,
    tags: [route.tag],
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(route.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaRef(route.body) } },
          },
        }),
    responses: {
      [route.status ?? 200]: answer(route),
      ...problemResponses(problems),
    },
  };
}

/** A query parameter as the router reads it: its bounds, its choices, its fallback. */
function queryParameter(name: string, param: QueryParam): ParameterObject {
  const schema: JsonSchema =
    param.kind === 'whole'
      ? {
          ...integer(param.min, param.max),
          ...(param.fallback === undefined ? {} : { default: param.fallback }),
        }
      : param.kind === 'choice'
        ? { enum: [...param.choices] }
        : { type: 'string', maxLength: param.maxLength };
  return { name, in: 'query', required: false, description: param.description, schema };
}

/**
 * The answer of a route on success. A text body (the metrics, the endless event stream) has no
 * length the emulator bounds, and is no JSON string: its schema says what it is, in words.
 */
function answer(route: DevRoute): ResponseObject {
  if (typeof route.answer !== 'string')
    return {
      description: route.answer.description,
      content: { [route.answer.media]: { schema: { description: route.answer.description } } },
    };
  return {
    description: route.summary,
    headers: {
      'Cache-Control': {
        description: 'Dev API answers are never cached.',
        required: true,
        schema: { const: 'no-store' },
      },
    },
    content: { 'application/json': { schema: schemaRef(route.answer) } },
  };
}

function problemResponses(kinds: ProblemKind[]): Record<string, ResponseObject> {
  const byStatus = new Map<number, ProblemKind[]>();
  for (const kind of new Set(kinds)) {
    const status = PROBLEM_KINDS[kind].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), kind]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const list = byStatus.get(status) ?? [];
    responses[status] = {
      description: list.map((kind) => `\`${kind}\`: ${PROBLEM_KINDS[kind].title}`).join('; '),
      content: {
        'application/problem+json': {
          schema:
            list.length === 1
              ? schemaRef(problemSchemaName(list[0] as ProblemKind))
              : { oneOf: list.map((kind) => schemaRef(problemSchemaName(kind))) },
        },
      },
    };
  }
  return responses;
}
