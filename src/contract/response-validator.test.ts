import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/config/config.js';
import { DEMO_CONFIG } from '../demo-config.js';
import { createOpenApiDocument } from './openapi-document.js';
import { createResponseValidator } from './response-validator.js';

const validator = createResponseValidator(createOpenApiDocument(resolveConfig(DEMO_CONFIG)));
const rateLimited = {
  ratelimit: '"caller";r=4;t=1',
  'ratelimit-policy': '"caller";q=5;w=5',
  'content-type': 'application/json',
};

describe('createResponseValidator', () => {
  it('accepts an answer of the documented shape', () => {
    expect(
      validator.check('exists', {
        status: 200,
        headers: rateLimited,
        body: '{"exists":true,"token_count":2}',
      }),
    ).toEqual([]);
  });

  it('names an undocumented status, a wrong content type, a body member and a missing header', () => {
    expect(validator.check('exists', { status: 418, headers: {}, body: '' })[0]).toMatch(
      /^status 418 is not documented for exists \(documented: 200, 400, 401/,
    );
    expect(
      validator.check('exists', {
        status: 200,
        headers: { ...rateLimited, 'content-type': 'text/html' },
        body: '{}',
      }),
    ).toEqual(['content type "text/html" is not application/json']);
    expect(
      validator.check('exists', {
        status: 200,
        headers: { 'content-type': 'application/json', ratelimit: 'r=1' },
        body: '{"exists":"yes"}',
      }),
    ).toEqual([
      'header RateLimit-Policy is missing',
      'header RateLimit "r=1" must match pattern "^"(client|caller)";r=\\d{1,15};t=\\d{1,15}$"',
      "body must have required property 'token_count'",
      'body/exists must be boolean',
    ]);
  });

  it('reads integer headers from their text and checks a problem type per status', () => {
    const problem = {
      type: 'urn:uas:problem:code-used',
      title: 'x',
      status: 422,
      detail: 'wrong',
    };
    const differences = validator.check('verify', {
      status: 422,
      headers: { ...rateLimited, 'content-type': 'application/problem+json' },
      body: JSON.stringify(problem),
    });
    expect(differences).toContain(
      'body/type must be equal to constant ("urn:uas:problem:code-invalid")',
    );
    const tooMany = validator.check('exists', {
      status: 429,
      headers: { ...rateLimited, 'retry-after': 'soon', 'cache-control': 'no-store' },
      body: '{}',
    });
    expect(tooMany).toContain('header Retry-After "soon" is not a whole number');
  });

  it('skips the headers it is told to', () => {
    const lenient = createResponseValidator(createOpenApiDocument(resolveConfig(DEMO_CONFIG)), {
      skipHeaders: (name) => name.startsWith('ratelimit'),
    });
    expect(
      lenient.check('exists', {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"exists":false,"token_count":0}',
      }),
    ).toEqual([]);
  });
});
