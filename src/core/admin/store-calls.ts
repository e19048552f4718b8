import { DEV_API_ROUTE_LIST, type DEV_API_TABLE } from './dev-api-table.js';

type Table = typeof DEV_API_TABLE;

/** An admin method whose answer comes from the store, as the route table declares it. */
export type StoreCall = {
  [K in keyof Table]: Table[K] extends { store: true; admin: infer A } ? A : never;
}[keyof Table];

/**
 * The admin methods whose answers come from the store: a shared emulator makes each a promise.
 * Read from the route table (a type test holds it to the methods of `Admin` that answer later).
 */
export const STORE_CALLS: readonly StoreCall[] = [
  ...new Set(
    DEV_API_ROUTE_LIST.flatMap((route) =>
      route.store === true && route.admin !== undefined ? [route.admin as StoreCall] : [],
    ),
  ),
];
