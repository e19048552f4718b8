import { describe, expect, it } from 'vitest';
import {
  matchServiceRoute,
  operationPath,
  SERVICE_METHODS,
  SERVICE_PATHS,
} from './service-routes.js';

describe('matchServiceRoute', () => {
  it.each([
    ['GET', '/v1/users/exists', { kind: 'operation', operation: 'exists', merchantId: undefined }],
    ['POST', '/v1/users/exists', { kind: 'method-not-allowed', allow: 'GET' }],
    [
      'POST',
      '/v1/merchants/m1/users/passwordless/start',
      { kind: 'operation', operation: 'start', merchantId: 'm1' },
    ],
    [
      'POST',
      '/v1/merchants/m%2F1%20x/users/passwordless/verify',
      { kind: 'operation', operation: 'verify', merchantId: 'm/1 x' },
    ],
    [
      'GET',
      '/v1/merchants/m1/users/passwordless/start',
      { kind: 'method-not-allowed', allow: 'POST' },
    ],
    [
      'PUT',
      '/v1/merchants/m1/users/passwordless/verify',
      { kind: 'method-not-allowed', allow: 'POST' },
    ],
  ] as const)('routes %s %s', (method, path, route) => {
    expect(matchServiceRoute(method, path)).toEqual(route);
  });

  it.each([
    '/',
    '',
    '/v1/users/exists/',
    '/v1/users/exist',
    '/v1/users/existsx',
    '/V1/users/exists',
    '/v1/merchants/',
    '/v1/merchants/m1',
    '/v1/merchants/m1/',
    '/v1/merchants//users/passwordless/start',
    '/v1/merchants/users/passwordless/start',
    '/v1/merchants/a/b/users/passwordless/start',
    '/v1/merchants/m1/users/passwordless/',
    '/v1/merchants/m1/users/passwordless/stop',
    '/v1/merchants/m1/users/passwordless/start/',
    '/v1/merchants/m1/users/passwordless/startx',
    '/v1/merchants/%E0%A4%A/users/passwordless/start',
    '/x/v1/merchants/m1/users/passwordless/start',
  ])('answers not-found for %j, whatever the method', (path) => {
    expect(matchServiceRoute('POST', path)).toEqual({ kind: 'not-found' });
    expect(matchServiceRoute('GET', path)).toEqual({ kind: 'not-found' });
  });

  it('routes the path of each operation, its merchant filled in, to that operation', () => {
    for (const operation of ['exists', 'start', 'verify'] as const) {
      const path = operationPath(operation, 'shop/1?&');
      expect(matchServiceRoute(SERVICE_METHODS[operation], path)).toEqual({
        kind: 'operation',
        operation,
        merchantId: SERVICE_PATHS[operation].includes('{merchant_id}') ? 'shop/1?&' : undefined,
      });
    }
  });
});
