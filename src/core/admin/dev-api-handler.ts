import type { MaybePromise } from '../async/maybe-promise.js';
import type { EmulatorRequest, EmulatorResponse, GiveWay } from '../service/exchange.js';
import type { DevApiProviders } from './dev-api-providers.js';
import type { DevRoute, PathItem } from './dev-api-route.js';
import type { DEV_API_TABLE } from './dev-api-table.js';
import type { DevApiTarget } from './dev-api-target.js';

/** A query parameter's value as a handler gets it, from its declaration. */
type QueryValue<P> = P extends { kind: 'whole'; fallback: number }
  ? number
  : P extends { kind: 'whole' }
    ? number | undefined
    : P extends { kind: 'choice'; choices: readonly (infer C)[] }
      ? C | undefined
      : string | undefined;

/** The query of a route, read as declared. */
export type QueryOf<R> = R extends { query: infer Q }
  ? { readonly [P in keyof Q]: QueryValue<Q[P]> }
  : Readonly<Record<string, never>>;

/** A request to a route of the dev API, as its handler gets it: checked as the route declares. */
export interface DevCall<R extends DevRoute = DevRoute> {
  target: DevApiTarget;
  /** What the emulator's assembly handed down; undefined for a core emulator assembled without. */
  providers: DevApiProviders | undefined;
  request: EmulatorRequest;
  path: string;
  /** The path's item (a bucket key, an e-mail), percent-decoded. */
  item: R extends { item: PathItem } ? string : undefined;
  query: QueryOf<R>;
  /** The parsed JSON body. */
  body: R extends { body: string } ? unknown : undefined;
  /** The transport's, when it gave one: long work awaits it between steps. */
  giveWay: GiveWay | undefined;
}

/** The handler of a route. */
export type DevHandler<R extends DevRoute> = (call: DevCall<R>) => MaybePromise<EmulatorResponse>;

/** A handler for every route of a table: a route without one does not compile. */
export type DevHandlersFor<T extends Record<string, DevRoute>> = {
  readonly [K in keyof T]: DevHandler<T[K]>;
};

/** The handlers of the dev API's routes, by operation id. */
export type DevHandlers = DevHandlersFor<typeof DEV_API_TABLE>;
