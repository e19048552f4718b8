import type { Operation } from '../config/config.js';

/**
 * The path template of each operation (spec section 4): the one source of the service's paths.
 * The router below, the OpenAPI document, the client and `uas conform` are derived from it.
 */
export const SERVICE_PATHS = {
  exists: '/v1/users/exists',
  start: '/v1/merchants/{merchant_id}/users/passwordless/start',
  verify: '/v1/merchants/{merchant_id}/users/passwordless/verify',
} as const satisfies Record<Operation, string>;

/** The method of each operation. */
export const SERVICE_METHODS = {
  exists: 'GET',
  start: 'POST',
  verify: 'POST',
} as const satisfies Record<Operation, 'GET' | 'POST'>;

/**
 * Whether a text (a merchant id, an item of the dev API) can be one path segment of a URL: a URL
 * drops "." and ".." (the request would go to another path), "" leaves an empty segment, and a
 * lone surrogate has no UTF-8 to percent-encode.
 */
export function isPathSegment(text: string): boolean {
  return text !== '' && text !== '.' && text !== '..' && !LONE_SURROGATE.test(text);
}

/** A UTF-16 surrogate not part of a pair (in a `u` pattern, a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/** The path of an operation with its merchant filled in (percent-encoded). */
export function operationPath(operation: Operation, merchantId = ''): string {
  return SERVICE_PATHS[operation].replace('{merchant_id}', encodeURIComponent(merchantId));
}

/** Where a service request goes. */
export type ServiceRoute =
  | { kind: 'operation'; operation: Operation; merchantId: string | undefined }
  | { kind: 'method-not-allowed'; allow: string }
  | { kind: 'not-found' };

/** A path template cut at its parameter: the text before and after it (none: no parameter). */
interface Template {
  operation: Operation;
  method: string;
  prefix: string;
  suffix: string | undefined;
}

const TEMPLATES: readonly Template[] = (Object.keys(SERVICE_PATHS) as Operation[]).map(
  (operation) => {
    const [prefix = '', suffix] = SERVICE_PATHS[operation].split('{merchant_id}');
    return { operation, method: SERVICE_METHODS[operation], prefix, suffix };
  },
);

/**
 * The merchant of `path` under `template`: the one non-empty path segment between its prefix
 * and suffix, percent-decoded; null when the path is not of the template. An operation without
 * a parameter matches its path exactly, with undefined.
 */
function merchantOf(template: Template, path: string): string | undefined | null {
  const { prefix, suffix } = template;
  if (suffix === undefined) return path === prefix ? undefined : null;
  if (path.length <= prefix.length + suffix.length) return null;
  if (!path.startsWith(prefix) || !path.endsWith(suffix)) return null;
  const segment = path.slice(prefix.length, path.length - suffix.length);
  if (segment.includes('/')) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Matches a request path of the service (spec section 4) and checks its method. */
export function matchServiceRoute(method: string, path: string): ServiceRoute {
  for (const template of TEMPLATES) {
    const merchantId = merchantOf(template, path);
    if (merchantId === null) continue;
    if (method !== template.method) return { kind: 'method-not-allowed', allow: template.method };
    return { kind: 'operation', operation: template.operation, merchantId };
  }
  return { kind: 'not-found' };
}
