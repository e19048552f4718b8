import { describe, expect, it } from 'vitest';
import { hostileRecords, recordMaker } from '../../test/helpers/check-records.js';
import { checkAnswer } from '../check/check-answer.js';
import { DEV_API_TABLE } from '../core/admin/dev-api-table.js';
import { resolveConfig } from '../core/config/config.js';
import { DEMO_CONFIG } from '../demo-config.js';
import { createDevApiDocument } from './dev-api-document.js';
import { createResponseValidator } from './response-validator.js';

const document = createDevApiDocument(resolveConfig(DEMO_CONFIG));
const schemas = document.components.schemas as Record<
  string,
  { additionalProperties?: unknown; required?: string[] }
>;

/** Records whose findings quote the longest values a record holds, escaped six to a character. */
function worstRecords() {
  const make = recordMaker();
  const shared = '\u0001'.repeat(256);
  return [
    ...hostileRecords(),
    ...Array.from({ length: 30 }, (_, user) =>
      make({ at: 1_000 + user, email: `w${user}@example.com`, callerId: shared }),
    ),
  ];
}

describe('createDevApiDocument', () => {
  it('describes every member of what GET /__uas/check answers, each part closed', () => {
    for (const name of [
      'CheckReport',
      'CheckSummary',
      'Finding',
      'Evidence',
      'EvidenceRequest',
      'RuleResult',
    ])
      expect(schemas[name]?.additionalProperties, name).toBe(false);
    expect(schemas.Evidence?.required).toContain('requests');
    expect(schemas.CheckReport?.required).toEqual(['summary', 'findings', 'rules', 'dropped']);
  });

  it('takes a check answer with findings, their evidence requests and warnings as it is', async () => {
    const validator = createResponseValidator(document);
    const answer = await checkAnswer(worstRecords(), { dropped: 3, giveWay: undefined });
    expect(answer.findings.length).toBeGreaterThan(1);
    expect(answer.findings[0]?.evidence.requests.length).toBeGreaterThan(0);
    expect(answer.warnings).toHaveLength(1);
    expect(
      validator.check('check', {
        status: 200,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
        body: JSON.stringify(answer),
      }),
    ).toEqual([]);
  });

  it('states the bounds the router keeps, and the fallback it uses, for each query parameter', () => {
    const parameters = document.paths['/__uas/buckets']?.get?.parameters as Array<{
      name: string;
      schema: Record<string, unknown>;
    }>;
    const limit = parameters.find((parameter) => parameter.name === 'limit');
    expect(limit?.schema).toEqual({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 1000,
      default: 100,
    });
    const route = DEV_API_TABLE.listBuckets.query.search;
    expect(parameters.find((parameter) => parameter.name === 'search')?.schema).toEqual({
      type: 'string',
      maxLength: route.maxLength,
    });
  });

  it('names every kind of event the event stream sends in its summary', () => {
    const summary = document.paths['/__uas/events']?.get?.summary ?? '';
    for (const kind of ['request', 'code', 'reset', 'config', 'users'])
      expect(summary.split(/[:,] /)).toContain(kind);
    expect(DEV_API_TABLE.events.summary).toBe(summary);
  });

  it('answers 400 invalid-request on every route that reads a body, for one giving a key twice', () => {
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item ?? {})) {
        const { requestBody, responses } = operation as {
          requestBody?: unknown;
          responses: Record<string, { description: string }>;
        };
        if (requestBody === undefined) continue;
        expect(responses['400']?.description, `${method} ${path}`).toMatch(/`invalid-request`/);
      }
    expect(document.paths['/__uas/config']?.patch?.responses['400']).toBeDefined();
  });
});
