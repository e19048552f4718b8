import type { EmulatorHttpServer } from '../../adapters/http/http-server.js';
import { redactSecret } from '../../core/records/redact.js';
import type { AnyEmulator } from '../../core/emulator.js';
import { pluralize } from '../../text/pluralize.js';
import { bannerBehavior, type Banner } from './banner.js';
import type { ServeFlags } from './serve-flags.js';
import type { OpenedStore } from './serve-store.js';
import type { WorkerRole } from './worker-role.js';

/** The banner of a `uas serve` process that listens: what it serves, where, and with what. */
export function listeningBanner(facts: {
  flags: ServeFlags;
  loaded: { path: string; bundled: boolean };
  emulator: AnyEmulator;
  server: EmulatorHttpServer;
  store: OpenedStore | undefined;
  role: WorkerRole | undefined;
  /** Whether the server serves the dashboard. */
  dashboard: boolean;
}): Banner {
  const { flags, loaded, emulator, server, store, role } = facts;
  const { limits } = emulator.config;
  return {
    type: 'listening',
    url: server.url,
    engine: flags.engine,
    config: loaded.path,
    bundled: loaded.bundled,
    clients: emulator.config.clients.map((client) => ({
      id: client.id,
      // The demo tokens are public; a config's own are not printed.
      token: loaded.bundled ? client.token : redactSecret(client.token),
      merchants: client.merchants,
    })),
    limits: {
      client: `${pluralize(limits.client.burst, 'token')} at ${limits.client.rateText}`,
      caller: `${pluralize(limits.caller.burst, 'token')} at ${limits.caller.rateText}`,
    },
    store:
      store === undefined
        ? { kind: 'memory' }
        : {
            kind: 'redis',
            url: store.store.target,
            embedded: store.embedded !== undefined || role?.storeUrl.startsWith('unix:') === true,
            prefix: store.store.prefix,
            on_error: store.store.onError,
            joined: store.store.joined,
          },
    ...bannerBehavior(emulator.config),
    workers: role === undefined ? 1 : flags.workers,
    clock: { mode: flags.clock, now: new Date(emulator.clock.now()).toISOString() },
    dev_api: emulator.devApi.enabled ? `${server.url}/__uas` : null,
    dashboard: facts.dashboard ? `${server.url}/__uas/ui/` : null,
    admin_token: flags.adminToken !== undefined,
    ...(flags.upstream === undefined
      ? {}
      : { upstream: { url: flags.upstream, enforce: flags.enforce ?? 'upstream' } }),
  };
}
