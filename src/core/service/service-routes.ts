import type { Operation } from '../config/config.js';

/** Where a service request goes. */
export type ServiceRoute =
  | { kind: 'operation'; operation: Operation; merchantId: string | undefined }
  | { kind: 'method-not-allowed'; allow: string }
  | { kind: 'not-found' };

const EXISTS_PATH = '/v1/users/exists';
const MERCHANT_PREFIX = '/v1/merchants/';
const PASSWORDLESS = '/users/passwordless/';

/** Matches a request path of the service (spec section 4) and checks its method. */
export function matchServiceRoute(method: string, path: string): ServiceRoute {
  if (path === EXISTS_PATH) {
    return method === 'GET'
      ? { kind: 'operation', operation: 'exists', merchantId: undefined }
      : { kind: 'method-not-allowed', allow: 'GET' };
  }
  if (!path.startsWith(MERCHANT_PREFIX)) return { kind: 'not-found' };
  const rest = path.slice(MERCHANT_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return { kind: 'not-found' };
  const action = rest.slice(slash);
  if (action !== `${PASSWORDLESS}start` && action !== `${PASSWORDLESS}verify`)
    return { kind: 'not-found' };
  let merchantId: string;
  try {
    merchantId = decodeURIComponent(rest.slice(0, slash));
  } catch {
    return { kind: 'not-found' };
  }
  if (method !== 'POST') return { kind: 'method-not-allowed', allow: 'POST' };
  return {
    kind: 'operation',
    operation: action.endsWith('start') ? 'start' : 'verify',
    merchantId,
  };
}
