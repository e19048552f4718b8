import type { ResolvedConfig } from '../../config/config.js';
import { redactSecret, redactUrlPassword } from '../../records/redact.js';
import { configProblem, json, unlessInvalid } from '../dev-api-answers.js';
import type { DevHandlers } from '../dev-api-handler.js';

/** The routes of the running config: read it, and change it live. */
export const configHandlers = {
  getConfig: ({ target }) => json(200, publicConfig(target.config)),
  changeConfig: ({ target, body, path }) =>
    unlessInvalid(
      () => target.configure(body),
      // The config the change left, which a change heard since (another instance's) may not be.
      (config) => json(200, publicConfig(config)),
      (error) => configProblem('invalid-config', error, path, ''),
    ),
} satisfies Pick<DevHandlers, 'getConfig' | 'changeConfig'>;

/** The running config without secrets: client tokens are redacted. */
function publicConfig(config: ResolvedConfig): unknown {
  const source = config.source;
  return {
    ...source,
    clients: source.clients.map((client) => ({ ...client, token: redactSecret(client.token) })),
    ...(source.store === undefined
      ? {}
      : { store: { ...source.store, url: redactUrlPassword(source.store.url ?? 'memory') } }),
  };
}
