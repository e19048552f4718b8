import type { DevApiMethod } from '../core/admin/dev-api-route.js';
import { DEV_API_TABLE, type DevApiOperation } from '../core/admin/dev-api-table.js';
import { isPathSegment } from '../core/service/service-routes.js';
import { DEV_CLIENT_ROUTES } from './dev-client-routes.js';

type Table = typeof DEV_API_TABLE;

/** The query a client may send a route: only the parameters the route declares. */
export type QueryInput<K extends DevApiOperation> = Table[K] extends { query: infer Q }
  ? { readonly [P in keyof Q]?: string | number | undefined }
  : Readonly<Record<string, never>>;

/** What a call of a route names: the item of its path (when it has one) and its query. */
export type RouteParts<K extends DevApiOperation> = (Table[K] extends { item: object }
  ? { item: string }
  : { item?: never }) & { query?: QueryInput<K> };

/**
 * The method and path (after `/__uas`) of a call of a route of the dev API, as its table
 * declares it: the item percent-encoded in place of `{name}`, the query in the order given,
 * parameters left undefined left out. An empty item (or "." or "..") throws a TypeError: its
 * path would be another route's (`DELETE /__uas/users/` is no removal of anyone); it names the client's
 * method, which is what its caller wrote.
 */
export function routeTarget<K extends DevApiOperation>(
  operation: K,
  ...[parts]: Table[K] extends { item: object } ? [RouteParts<K>] : [RouteParts<K>?]
): { method: DevApiMethod; path: string } {
  const route = DEV_API_TABLE[operation];
  const item = parts?.item;
  const name = /\{(\w+)\}/.exec(route.path)?.[1];
  if (name !== undefined && (typeof item !== 'string' || !isPathSegment(item)))
    throw new TypeError(
      `${callerOf(operation)} takes ${name === 'key' ? 'a bucket key' : 'an e-mail address'}; got ${item === '' ? 'an empty text' : typeof item === 'string' ? JSON.stringify(item) : String(item)}`,
    );
  const path = route.path
    .slice('/__uas'.length)
    .replace(/\{\w+\}/, () => encodeURIComponent(item ?? ''));
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(parts?.query ?? {}))
    if (value !== undefined) params.set(name, String(value));
  const query = params.toString();
  return { method: route.method, path: query === '' ? path : `${path}?${query}` };
}

/** The dev client's method that calls `operation`, as its caller wrote it: `bucket()`. */
function callerOf(operation: DevApiOperation): string {
  const methods = DEV_CLIENT_ROUTES[operation];
  return Array.isArray(methods) ? `${methods[0] as string}()` : operation;
}
