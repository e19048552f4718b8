import type { TransportResponse } from './transport-exchange.js';

/** The prefix of the dashboard's pages and assets, under the dev API's own prefix. */
export const SITE_PREFIX = '/__uas/ui';

/**
 * Static files a transport serves beside the dev API (the dashboard): the answer to a request
 * for `path` (under {@link SITE_PREFIX}), or undefined when the site has no such file. It holds
 * no traffic, so it needs no admin token; the transport applies the dev API's Host check first.
 */
export type StaticSite = (request: {
  method: string;
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}) => TransportResponse | undefined;

/** Whether a path is the static site's. */
export function isSitePath(path: string): boolean {
  return (
    path.startsWith(SITE_PREFIX) &&
    (path.length === SITE_PREFIX.length || path.charCodeAt(SITE_PREFIX.length) === 47)
  );
}
