import type { EmulatorHttpServer } from '../../adapters/http/http-server.js';
import type { AnyEmulator } from '../../core/emulator.js';
import type { StaticSite } from '../../transport/static-site.js';
import type { CliIO } from '../io.js';
import { isLoopbackHost } from '../options.js';
import { listenError } from './listen-error.js';
import type { ServeFlags } from './serve-flags.js';
import {
  describeStoreStatus,
  openStore,
  storeSource,
  type OpenedStore,
  type StoreSpec,
} from './serve-store.js';
import { shutDown, type ServeParts } from './shut-down.js';
import { startRecording, type Recording } from './start-recording.js';
import type { WorkerRole } from './worker-role.js';

/** One `uas serve` process that listens: its emulator, and the parts to shut down. */
export interface StartedServer {
  emulator: AnyEmulator;
  server: EmulatorHttpServer;
  store: OpenedStore | undefined;
  parts: ServeParts;
  /** Whether it serves the dashboard at `/__uas/ui/`. */
  dashboard: boolean;
}

/** What {@link startServer} starts from. */
export interface ServerPlan {
  flags: ServeFlags;
  io: CliIO;
  /** The config file with the flags written over it, already checked. */
  config: Record<string, unknown>;
  spec: StoreSpec;
  role: WorkerRole | undefined;
  /** Where a manual clock starts. */
  clockStart: number;
  note(state: string, message: string): void;
  /** Turns a config error into the command's error (anything else is thrown as it is). */
  configError(error: unknown): Error;
}

/**
 * Starts one `uas serve` process: the store, the recording (`--record`), the emulator, and the
 * server listening. What fails on the way shuts down what had started, and is thrown.
 */
export async function startServer(plan: ServerPlan): Promise<StartedServer> {
  const { flags, io, spec } = plan;
  const parts: ServeParts = {};
  parts.store = await openStore(spec, {
    config: plan.config,
    url: plan.role?.storeUrl,
    from: storeSource(flags),
    manualClock: flags.clock === 'manual' ? { startMs: plan.clockStart } : undefined,
    onStatus: (status, target) =>
      plan.note(status.state, describeStoreStatus(status, target, spec.onError ?? 'closed')),
    onWarning: (message) => plan.note('warning', `store: ${message}`),
  });
  try {
    // A file that cannot be opened stops the start before the server listens (exit 2).
    parts.recording = startRecording(flags, io);
    const emulator = await createServeEmulator(plan, parts.store, parts.recording);
    parts.recording?.attach(emulator);
    // The dashboard is served while the dev API is on (it is a client of it).
    const site =
      flags.ui && emulator.devApi.enabled
        ? (await import('../../adapters/http/dashboard-site.js')).loadDashboardSite()
        : undefined;
    parts.server = await listenOn(emulator, flags, io.cwd, site);
    return {
      emulator,
      server: parts.server,
      store: parts.store,
      parts,
      dashboard: site !== undefined,
    };
  } catch (error) {
    await shutDown(parts, { by: 'failed-start' });
    throw error;
  }
}

/** The emulator of `uas serve`: over the memory store, or over the shared (Redis) one. */
async function createServeEmulator(
  plan: ServerPlan,
  opened: OpenedStore | undefined,
  recording: Recording | undefined,
): Promise<AnyEmulator> {
  const { flags, config } = plan;
  const [{ createEmulator, createSharedEmulator }, { createManualClock }] = await Promise.all([
    import('../../emulator.js'),
    import('../../core/time/clock.js'),
  ]);
  const devApi = {
    enabled: isLoopbackHost(flags.host) || flags.adminToken !== undefined,
    adminToken: flags.adminToken,
  };
  const moreMetrics = recording?.metrics;
  try {
    return opened === undefined
      ? createEmulator({
          clock: flags.clock === 'manual' ? createManualClock(plan.clockStart) : undefined,
          config,
          devApi,
          moreMetrics,
        })
      : createSharedEmulator({
          clock: opened.store.clock,
          config,
          devApi,
          store: opened.store,
          moreMetrics,
        });
  } catch (error) {
    throw plan.configError(error);
  }
}

/** The server of `emulator` listening where the flags say, on the engine they choose. */
async function listenOn(
  emulator: AnyEmulator,
  flags: ServeFlags,
  cwd: string,
  site: StaticSite | undefined,
): Promise<EmulatorHttpServer> {
  const { listen } = await import('../../adapters/http/http-server.js');
  try {
    const engine =
      flags.upstream !== undefined
        ? await (await import('./load-proxy-engine.js')).loadProxyEngine(emulator, flags, cwd)
        : flags.engine === 'msw'
          ? await (
              await import('./load-msw-engine.js')
            ).loadMswEngine(emulator, flags.handlers, cwd)
          : undefined;
    return await listen(emulator, flags.port, flags.host, {
      engine,
      allowedHosts: flags.allowedHosts,
      site,
    });
  } catch (error) {
    throw listenError(error as NodeJS.ErrnoException, flags.port, flags.host);
  }
}
