import type { ProblemKind } from '../service/problems.js';
import type { Admin } from './admin.js';
import type { DevApiSchemaName } from './dev-api-schemas.js';

/** Where the dev API lives. */
export const DEV_API_PREFIX = '/__uas';

/** The methods of the dev API. */
export type DevApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The groups the dev API's document sorts its routes into. */
export type DevApiTag = 'server' | 'buckets' | 'codes' | 'requests' | 'faults' | 'clock' | 'config';

/** A whole-number query parameter: refused outside `min` to `max`; `fallback` when absent. */
export interface WholeParam {
  kind: 'whole';
  min: number;
  max: number;
  /** Its value when absent; without one, a handler gets undefined. */
  fallback?: number;
  description: string;
}

/** A query parameter that takes one of `choices`. */
export interface ChoiceParam<C extends readonly string[] = readonly string[]> {
  kind: 'choice';
  choices: C;
  description: string;
}

/** A free-text query parameter (a filter) of at most `maxLength` characters. */
export interface TextParam {
  kind: 'text';
  maxLength: number;
  description: string;
  /** What `GET /__uas` shows after `name=`. */
  usage?: string;
}

/** A query parameter of a route: how the router reads it, and what the document says of it. */
export type QueryParam = WholeParam | ChoiceParam | TextParam;

/** The part of a path after the resource (`{key}`, `{email}`), percent-decoded. */
export interface PathItem {
  maxLength: number;
  description: string;
}

/** A non-JSON answer: the event stream, the metrics. */
export interface MediaAnswer {
  media: 'text/event-stream' | 'text/plain';
  description: string;
}

/** The methods of the admin surface (not its properties). */
export type AdminMethod = {
  [K in keyof Admin]: Admin[K] extends (...args: never[]) => unknown ? K : never;
}[keyof Admin];

/**
 * A route of the dev API, declared once: the router, the route listing, the OpenAPI document,
 * the shared emulator's surface and the dev client are all derived from its declaration.
 */
export interface DevRoute {
  method: DevApiMethod;
  /** `/__uas/<resource>`, with `/{name}` after it for an item: `/__uas/buckets/{key}`. */
  path: string;
  summary: string;
  tag: DevApiTag;
  /** The item of the path, when it has one. */
  item?: PathItem;
  /** Query parameters, read (and refused when they do not fit) in this order. */
  query?: Readonly<Record<string, QueryParam>>;
  /** The JSON body it reads (which must be `application/json`), by schema name. */
  body?: DevApiSchemaName;
  /** What it answers on success: a JSON schema by name, or another media type. */
  answer: DevApiSchemaName | MediaAnswer;
  /** @default 200 */
  status?: 200 | 201;
  /** Problems it answers besides those every route (and every body) can. */
  problems?: readonly ProblemKind[];
  /**
   * Whether it shows traffic (requests, codes) or costs much to answer: then a read from a web
   * page of another origin is refused too, as writes are.
   */
  showsTraffic?: boolean;
  /** The admin method it calls. */
  admin?: AdminMethod;
  /**
   * Whether that method's answer comes from the store: later on a shared store (the shared
   * emulator makes it a promise), and a 503 `store-unavailable` when the store does not answer.
   */
  store?: boolean;
}

/** A whole-number query parameter; its type says whether it has a fallback. */
export const wholeParam = <F extends number | undefined = undefined>(
  min: number,
  max: number,
  description: string,
  fallback?: F,
): WholeParam & { fallback: F } => ({
  kind: 'whole',
  min,
  max,
  description,
  fallback: fallback as F,
});

/** A query parameter that takes one of `choices`. */
export const choiceParam = <const C extends readonly string[]>(
  choices: C,
  description: string,
): ChoiceParam<C> => ({ kind: 'choice', choices, description });

/** A free-text query parameter. */
export const textParam = (maxLength: number, description: string, usage?: string): TextParam => ({
  kind: 'text',
  maxLength,
  description,
  usage,
});
