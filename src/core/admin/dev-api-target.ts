import type { Answer, MaybePromise } from '../async/maybe-promise.js';
import type { Clock } from '../time/clock.js';
import type { Admin } from './admin.js';
import type { RequestEvents } from './event-stream.js';

/** What `GET /__uas/health` says of the store (see {@link EmulatorInfo.storeHealth}). */
export type StoreHealth = 'memory' | 'up' | 'down' | 'degraded';

/** Who may use the dev API of a running emulator. */
export interface DevApiAccess {
  /** Whether the dev API answers at all. */
  enabled: boolean;
  /** When set, dev API requests must send `Authorization: Bearer <adminToken>`. */
  adminToken?: string | undefined;
}

/** What an emulator says of itself besides its admin surface: what the dev API reports. */
export interface EmulatorInfo {
  /**
   * A stream of server-sent events (what `GET /__uas/events` sends): this instance's, and those
   * of every instance sharing its store. A reader that falls more than its queue behind is cut
   * off and counted in the metrics. Undefined when the most readers allowed at once are already
   * reading. With `requests` `summary`, request events carry only their records' summaries.
   */
  openEventStream(requests?: RequestEvents): ReadableStream<Uint8Array> | undefined;
  /**
   * What `GET /__uas/health` says of the store: `memory`; or, of a shared store asked now, `up`,
   * `down`, or `degraded` (keys of its own hold junk that a reset repairs).
   */
  storeHealth(): MaybePromise<StoreHealth>;
  readonly clock: Clock;
  readonly startedAt: number;
  readonly version: string;
  readonly devApi: DevApiAccess;
}

/** What the dev API reads and changes of an emulator, whatever its store. */
export type DevApiTarget = Admin<Answer> & EmulatorInfo;
