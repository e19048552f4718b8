import type { DevApiOperation } from '../core/admin/dev-api-table.js';
import type { DevClient } from './dev-client.js';

/** A method of the dev client that calls the dev API. */
export type DevClientMethod = Exclude<keyof DevClient, 'url'>;

/** The methods of the client that call a route, or why none does. */
export type DevClientCoverage = readonly DevClientMethod[] | { readonly none: string };

/**
 * Which methods of {@link DevClient} call each route of the dev API's table, or why none does: a
 * route the table gains without an entry here does not compile (and a type test holds every
 * method of the client to an entry).
 */
export const DEV_CLIENT_ROUTES = {
  listRoutes: { none: 'a listing for people; a program has the route table itself' },
  health: ['health'],
  listBuckets: ['buckets'],
  resetBuckets: ['resetBuckets'],
  getBucket: ['bucket'],
  resetBucket: ['resetBuckets'],
  listCodes: ['codes'],
  latestCode: ['latestCode'],
  journal: ['journal'],
  listRequests: ['requests', 'requestLog'],
  check: { none: 'checkIntegration(await dev.requests()) runs the same check in the test' },
  reset: ['reset'],
  listFaults: ['faults'],
  failNext: ['failNext'],
  clearFaults: ['clearFaults'],
  getClock: ['clock'],
  moveClock: ['advanceClock', 'setClock'],
  listUsers: ['users'],
  addUsers: ['addUsers'],
  removeUser: ['removeUser'],
  getConfig: ['config'],
  changeConfig: ['configure'],
  events: { none: 'an endless stream: `uas top` and the dashboard read it' },
  metrics: ['metrics'],
  openapi: { none: 'documents for tools: `uas openapi` writes them' },
} as const satisfies { readonly [K in DevApiOperation]: DevClientCoverage };
