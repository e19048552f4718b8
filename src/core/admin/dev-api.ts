import type { MaybePromise } from '../async/maybe-promise.js';
import {
  headerValue,
  type EmulatorRequest,
  type EmulatorResponse,
  type GiveWay,
} from '../service/exchange.js';
import { notFound, refuse } from './dev-api-answers.js';
import { crossOrigin, foreignOrigin, guardDevApi } from './dev-api-guard.js';
import type { DevCall } from './dev-api-handler.js';
import { DEV_API_HANDLERS } from './dev-api-handlers.js';
import { decodeItem, itemMisfit, readJsonBody, readQuery, unreadBody } from './dev-api-input.js';
import type { DevApiProviders } from './dev-api-providers.js';
import { DEV_API_PREFIX, type DevRoute } from './dev-api-route.js';
import { DEV_API_ROUTE_LIST, type DevApiOperation } from './dev-api-table.js';
import type { DevApiTarget } from './dev-api-target.js';

/** Whether a path is the dev API's. */
export function isDevApiPath(path: string): boolean {
  return path.startsWith(DEV_API_PREFIX) && (path.length === 6 || path.charCodeAt(6) === 47);
}

/** A call as the router builds it, before its route's declaration types it for its handler. */
type LooseCall = Omit<DevCall, 'item' | 'query' | 'body'> & {
  item: string | undefined;
  query: Readonly<Record<string, string | number | undefined>>;
  body: unknown;
};

/** A route of the table, with what its path pattern says: the resource, and the item's name. */
interface Routable extends DevRoute {
  operationId: DevApiOperation;
  resource: string;
  itemName: string | undefined;
}

const ROUTABLE: readonly Routable[] = DEV_API_ROUTE_LIST.map((route) => {
  const [resource = '', item] = route.path.slice(DEV_API_PREFIX.length + 1).split('/');
  return { ...route, resource, itemName: item?.slice(1, -1) };
});

/**
 * Answers a request under `/__uas`, as the route table declares its routes. Never rate limited.
 * Guarded by the admin token when one is set; writes from another origin (a web page the
 * developer happens to visit) are refused, and a body must be JSON, so a cross-site form or
 * `text/plain` post cannot change anything.
 */
export function handleDevApi(
  target: DevApiTarget,
  providers: DevApiProviders | undefined,
  request: EmulatorRequest,
  path: string,
  query: string,
  giveWay?: GiveWay,
): MaybePromise<EmulatorResponse> {
  const refusal = guardDevApi(target, request, path);
  if (refusal !== undefined) return refusal;
  const found = findRoute(request.method, path);
  if ('status' in found) return found;
  const { route, item } = found;
  if (route.showsTraffic === true) {
    const foreign = foreignOrigin(request);
    if (foreign !== undefined) return crossOrigin(path, foreign, 'read');
  }
  if (item !== undefined && route.item !== undefined) {
    const misfit = itemMisfit(item, route.item, route.itemName ?? 'item', path);
    if (misfit !== undefined) return misfit;
  }
  const read = readQuery(query, route.query ?? {}, path);
  if (!read.ok) return read.response;
  const call: LooseCall = {
    target,
    providers,
    request,
    path,
    item,
    query: read.value,
    body: undefined,
    giveWay,
  };
  const handle = DEV_API_HANDLERS[route.operationId] as unknown as (
    call: LooseCall,
  ) => MaybePromise<EmulatorResponse>;
  if (route.body === undefined) {
    // A write that reads no body still refuses one that is not JSON, or is typed as not JSON
    // even when empty: a cross-site form or text/plain post (no preflight) must not reset the
    // emulator either; and one that is compressed, as a write that reads its body does. An empty write with no type (curl -X POST) is taken. (A GET's body is
    // ignored, as the Fetch API of the msw engine drops it.)
    const write = request.method !== 'GET' && request.method !== 'HEAD';
    const sent =
      write &&
      ((request.bodyBytes ?? 0) > 0 ||
        (request.body ?? '') !== '' ||
        headerValue(request.headers, 'content-type') !== undefined);
    return (sent ? unreadBody(request, path) : undefined) ?? handle(call);
  }
  const body = readJsonBody(request, path);
  return body.ok ? handle({ ...call, body: body.value }) : body.response;
}

/**
 * The operation a method and path reach, as the router finds it (`POST /__uas/users/` is
 * `addUsers` too); undefined when it would answer 400, 404 or 405.
 */
export function devApiOperation(method: string, path: string): DevApiOperation | undefined {
  if (!isDevApiPath(path)) return undefined;
  const found = findRoute(method, path);
  return 'status' in found ? undefined : found.route.operationId;
}

/** The route a method and path name, its item decoded; or the 400, 404 or 405 to answer. */
function findRoute(
  method: string,
  path: string,
): { route: Routable; item: string | undefined } | EmulatorResponse {
  const rest = path.slice(DEV_API_PREFIX.length + 1);
  const slash = rest.indexOf('/');
  const resource = slash === -1 ? rest : rest.slice(0, slash);
  let item: string | undefined;
  if (slash !== -1 && slash !== rest.length - 1) {
    const decoded = decodeItem(rest.slice(slash + 1), path);
    if (!decoded.ok) return decoded.response;
    item = decoded.value;
  }
  const candidates = ROUTABLE.filter(
    (route) =>
      route.resource === resource && (route.itemName !== undefined) === (item !== undefined),
  );
  if (candidates.length === 0) return notFound(path);
  const route = candidates.find((candidate) => candidate.method === method);
  if (route !== undefined) return { route, item };
  const allow = candidates.map((candidate) => candidate.method).join(', ');
  return refuse('method-not-allowed', `${path} accepts ${allow}, not ${method}`, path, { allow });
}

/**
 * What the dev API answers a request before looking at its body (off, no admin token, a write
 * from another origin), or undefined when it may go on: a transport asks first, so that a body
 * nobody may send is never read.
 */
export function refuseDevApi(
  target: Pick<DevApiTarget, 'devApi'>,
  request: EmulatorRequest,
  path: string,
): EmulatorResponse | undefined {
  return guardDevApi(target, request, path);
}
