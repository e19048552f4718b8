import type { ResolvedConfig } from '../core/config/config.js';
import { createDevApiDocument } from './dev-api-document.js';
import { createOpenApiDocument, DEFAULT_SERVER_URL } from './openapi-document.js';
import type { OpenApiDocument } from './openapi-types.js';

/** The documents `GET /__uas/openapi.json` serves, by its `document` parameter. */
export const SERVED_DOCUMENTS = ['service', 'dev-api'] as const;

/** A document `GET /__uas/openapi.json` serves. */
export type ServedDocument = (typeof SERVED_DOCUMENTS)[number];

/**
 * The server a document fetched from the emulator names: the origin it was fetched from (its
 * `Host`), since that is where the emulator answers; the default when the `Host` is absent or
 * not a plain host name or address with an optional port.
 */
export function serverUrlFor(host: string | undefined): string {
  if (host !== undefined && /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host))
    return `http://${host}`;
  return DEFAULT_SERVER_URL;
}

/** The document `GET /__uas/openapi.json` serves under the running config. */
export function servedDocument(
  config: ResolvedConfig,
  which: ServedDocument,
  host: string | undefined,
): OpenApiDocument {
  const options = { serverUrl: serverUrlFor(host) };
  return which === 'dev-api'
    ? createDevApiDocument(config, options)
    : createOpenApiDocument(config, options);
}
