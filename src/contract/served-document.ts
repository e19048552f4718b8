import type { ServedDocument } from '../core/admin/dev-api-table.js';
import type { ResolvedConfig } from '../core/config/config.js';
import { createDevApiDocument } from './dev-api-document.js';
import { createOpenApiDocument, DEFAULT_SERVER_URL } from './openapi-document.js';
import type { OpenApiDocument } from './openapi-types.js';

/**
 * The origin a `Host` names, `http://<host>`, when it is a plain host name or address with an
 * optional port from 1 to 65535; undefined for anything else (absent, `localhost:`, `a_b`,
 * `x:0`, `x:99999`, ...).
 */
export function hostOrigin(host: string | undefined | null): string | undefined {
  if (typeof host !== 'string') return undefined;
  const parts = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/.exec(host);
  if (parts === null) return undefined;
  const port = parts[1] === undefined ? undefined : Number(parts[1]);
  return port === undefined || (port >= 1 && port <= 65_535) ? `http://${host}` : undefined;
}

/**
 * The server a document fetched from the emulator names: the origin it was fetched from (its
 * `Host`), since that is where the emulator answers; when the `Host` is absent or not usable
 * (see {@link hostOrigin}), the origin of the server that answered (`localOrigin`, its listening
 * address); the default only when neither is known.
 */
export function serverUrlFor(host: string | undefined, localOrigin?: string): string {
  return hostOrigin(host) ?? localOrigin ?? DEFAULT_SERVER_URL;
}

/**
 * The document `GET /__uas/openapi.json` serves under the running config. `mountPath`, where an
 * app mounts the emulator (`/uas`), follows the origin in its server: its paths start under it.
 */
export function servedDocument(
  config: ResolvedConfig,
  which: ServedDocument,
  host: string | undefined,
  localOrigin: string | undefined,
  mountPath = '',
): OpenApiDocument {
  const options = { serverUrl: `${serverUrlFor(host, localOrigin)}${mountPath}` };
  return which === 'dev-api'
    ? createDevApiDocument(config, options)
    : createOpenApiDocument(config, options);
}
