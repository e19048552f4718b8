import type { AnyEmulator } from '../core/emulator.js';
import type { HostPolicy } from './host-guard.js';
import type { StaticSite } from './static-site.js';
import type { Engine } from './transport-exchange.js';
import type { TransportShutdown } from './transport-shutdown.js';

/** What every request of one transport's server shares: its emulator, engine, options, shutdown. */
export interface TransportContext {
  readonly emulator: AnyEmulator;
  /** The engine; undefined for the default one, the core called directly. */
  readonly engine: Engine | undefined;
  /** Who may reach the dev API by name. */
  readonly policy: HostPolicy;
  /** Milliseconds between heartbeat comments on event streams. */
  readonly heartbeatMs: number;
  /** Milliseconds a client has to take an answer larger than the socket's buffers. */
  readonly stalledAnswerMs: number | undefined;
  readonly shutdown: TransportShutdown;
  /** The dashboard's files, served under `/__uas/ui/` while the dev API is on; none when undefined. */
  readonly site: StaticSite | undefined;
}
