import type { Operation } from '../core/config/config.js';

/** The path template of each operation (spec section 4); a test holds the router to them. */
export const SERVICE_PATHS: Readonly<Record<Operation, string>> = {
  exists: '/v1/users/exists',
  start: '/v1/merchants/{merchant_id}/users/passwordless/start',
  verify: '/v1/merchants/{merchant_id}/users/passwordless/verify',
};

/** The method of each operation. */
export const SERVICE_METHODS: Readonly<Record<Operation, 'GET' | 'POST'>> = {
  exists: 'GET',
  start: 'POST',
  verify: 'POST',
};

/** The path of an operation with its merchant filled in (percent-encoded). */
export function operationPath(operation: Operation, merchantId = ''): string {
  return SERVICE_PATHS[operation].replace('{merchant_id}', encodeURIComponent(merchantId));
}
