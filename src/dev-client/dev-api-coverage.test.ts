import { describe, expect, expectTypeOf, it } from 'vitest';
import { createDevApiDocument } from '../contract/dev-api-document.js';
import type { Admin } from '../core/admin/admin.js';
import type { DevHandlers, DevHandlersFor } from '../core/admin/dev-api-handler.js';
import { DEV_API_HANDLERS } from '../core/admin/dev-api-handlers.js';
import type { AdminMethod } from '../core/admin/dev-api-route.js';
import { DEV_API_TABLE, type DevApiOperation } from '../core/admin/dev-api-table.js';
import { STORE_CALLS, type StoreCall } from '../core/admin/store-calls.js';
import { createCoreSharedEmulator } from '../core/create-core-emulator.js';
import { resolveConfig } from '../core/config/config.js';
import { createMemoryStore } from '../core/store/memory-store.js';
import { createManualClock } from '../core/time/clock.js';
import { createSeededRandom } from '../core/time/random.js';
import { DEMO_CONFIG } from '../demo-config.js';
import { createDevClient, type DevClient } from './dev-client.js';
import {
  DEV_CLIENT_ROUTES,
  type DevClientCoverage,
  type DevClientMethod,
} from './dev-client-routes.js';

type Table = typeof DEV_API_TABLE;

/** The table as a change would grow it: one more route. */
type GrownTable = Table & {
  listKeys: {
    method: 'GET';
    path: '/__uas/keys';
    summary: 'Every bucket key';
    tag: 'buckets';
    answer: 'RouteList';
  };
};

/** The admin surface as that change would grow it. */
type GrownAdmin = Admin<'async'> & { listKeys(): Promise<string[]> };

/** The methods of `T` that answer a promise. */
type PromiseMethods<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof T];

/** The client methods an entry of the client's coverage names. */
type CoveredMethods = {
  [K in DevApiOperation]: (typeof DEV_CLIENT_ROUTES)[K] extends readonly (infer M)[] ? M : never;
}[DevApiOperation];

const config = resolveConfig(DEMO_CONFIG);

describe('the route table of the dev API', () => {
  it('gives every route a handler, and a route the table gains without one does not compile', () => {
    expectTypeOf<keyof DevHandlers>().toEqualTypeOf<DevApiOperation>();
    // @ts-expect-error the grown table's new route has no handler
    const grown: DevHandlersFor<GrownTable> = DEV_API_HANDLERS;
    expect(grown).toBe(DEV_API_HANDLERS);
    expect(Object.keys(DEV_API_HANDLERS).sort()).toEqual(Object.keys(DEV_API_TABLE).sort());
  });

  it('is described route for route by the dev API document', () => {
    const document = createDevApiDocument(config);
    const described = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, operation]) => `${operation.operationId} ${method.toUpperCase()} ${path}`,
      ),
    );
    expect(described.sort()).toEqual(
      Object.entries(DEV_API_TABLE)
        .map(([operationId, route]) => `${operationId} ${route.method} ${route.path}`)
        .sort(),
    );
  });

  it('names every call of the admin surface that answers from the store, and a shared emulator makes each a promise', async () => {
    expectTypeOf<StoreCall>().toEqualTypeOf<PromiseMethods<Admin<'async'>>>();
    // @ts-expect-error a store call the admin surface gains must be named by a route of the table
    expectTypeOf<StoreCall>().toEqualTypeOf<PromiseMethods<GrownAdmin>>();
    const shared = createCoreSharedEmulator({
      config: DEMO_CONFIG,
      clock: createManualClock(0),
      random: createSeededRandom(1),
      store: createMemoryStore(config),
    });
    const calls: { [K in AdminMethod]: () => unknown } = {
      configure: () => shared.configure({}),
      listBuckets: () => shared.listBuckets(),
      getBucket: () => shared.getBucket('client:demo'),
      resetBuckets: () => shared.resetBuckets(),
      latestCode: () => shared.latestCode('alice@example.com'),
      listCodes: () => shared.listCodes(),
      addUsers: () => shared.addUsers([]),
      removeUser: () => shared.removeUser('nobody@example.com'),
      listUsers: () => shared.listUsers(),
      journal: () => shared.journal(),
      requests: () => shared.requests(),
      failNext: () => shared.failNext({ status: 503 }),
      faults: () => shared.faults(),
      clearFaults: () => shared.clearFaults(),
      reset: () => shared.reset(),
      metrics: () => shared.metrics(),
    };
    const promised = Object.entries(calls)
      .filter(([, call]) => call() instanceof Promise)
      .map(([name]) => name);
    expect(promised.sort()).toEqual([...STORE_CALLS].sort());
    await Promise.all(Object.values(calls).map((call) => call()));
  });

  it('is called by the dev client, each method calling a route of the table', () => {
    expectTypeOf<keyof typeof DEV_CLIENT_ROUTES>().toEqualTypeOf<DevApiOperation>();
    expectTypeOf<CoveredMethods>().toEqualTypeOf<DevClientMethod>();
    // @ts-expect-error the grown table's new route is not in the client's coverage
    const grown: { readonly [K in keyof GrownTable]: DevClientCoverage } = DEV_CLIENT_ROUTES;
    expect(grown).toBe(DEV_CLIENT_ROUTES);
  });

  it('sends each call of the dev client to the route its coverage names', async () => {
    const sent: string[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      sent.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      const body = url.pathname.endsWith('/health')
        ? { status: 'ok' }
        : url.pathname.endsWith('/requests')
          ? { requests: [], dropped: 0, next_after_id: null }
          : { requests: [], codes: [], faults: [], fault: {} };
      return new Response(JSON.stringify(body), { status: 200 });
    };
    const dev = createDevClient('http://127.0.0.1:4010', { fetch });
    const calls: { [M in DevClientMethod]: (client: DevClient) => Promise<unknown> } = {
      health: (client) => client.health(),
      latestCode: (client) => client.latestCode('alice@example.com'),
      codes: (client) => client.codes(),
      requests: (client) => client.requests(),
      requestLog: (client) => client.requestLog(),
      journal: (client) => client.journal(),
      buckets: (client) => client.buckets({ sort: 'key' }),
      bucket: (client) => client.bucket('client:demo'),
      resetBuckets: (client) => client.resetBuckets('client:demo'),
      reset: (client) => client.reset(),
      configure: (client) => client.configure({}),
      config: (client) => client.config(),
      users: (client) => client.users({ limit: 10 }),
      addUsers: (client) => client.addUsers([]),
      removeUser: (client) => client.removeUser('alice@example.com'),
      failNext: (client) => client.failNext({ status: 503 }),
      faults: (client) => client.faults(),
      clearFaults: (client) => client.clearFaults(),
      clock: (client) => client.clock(),
      advanceClock: (client) => client.advanceClock(1),
      setClock: (client) => client.setClock(0),
      metrics: (client) => client.metrics(),
    };
    for (const [operation, coverage] of Object.entries(DEV_CLIENT_ROUTES)) {
      if (!Array.isArray(coverage)) continue;
      const route = DEV_API_TABLE[operation as DevApiOperation];
      const pattern = new RegExp(`^${route.method} ${route.path.replace(/\{\w+\}/, '[^/]+')}$`);
      for (const method of coverage as readonly DevClientMethod[]) {
        // resetBuckets() without a key resets them all: the other route.
        if (method === 'resetBuckets' && operation === 'resetBuckets') {
          sent.length = 0;
          await dev.resetBuckets();
        } else {
          sent.length = 0;
          await calls[method](dev);
        }
        expect(sent, `${method} calls ${operation}`).toHaveLength(1);
        expect(sent[0], `${method} calls ${operation}`).toMatch(pattern);
      }
    }
  });
});
