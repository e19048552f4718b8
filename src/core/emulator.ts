import type { Admin } from './admin/admin.js';
import type { DevApiProviders } from './admin/dev-api-providers.js';
import type { EmulatorInfo } from './admin/dev-api-target.js';
import type { Answer, MaybePromise, SyncOrAsync } from './async/maybe-promise.js';
import type { EmulatorEvent, RequestRecord } from './records/records.js';
import type { EmulatorRequest, EmulatorResponse, GiveWay } from './service/exchange.js';
import type { ServiceCall, ServiceResult } from './service/service.js';
import type { EmulatorStore } from './store/emulator-store.js';
import type { Clock } from './time/clock.js';
import type { UpstreamSide } from './upstream-side.js';
import type { RandomSource } from './time/random.js';

export type { ServiceCall, ServiceResult } from './service/service.js';
export type { BucketQuery } from './store/emulator-store.js';
export type { DevApiProviders } from './admin/dev-api-providers.js';

/** Who may use the dev API under `/__uas/`. */
export interface DevApiOptions {
  /**
   * Whether the dev API answers at all.
   * @default true
   */
  enabled?: boolean;
  /** When set, dev API requests must send `Authorization: Bearer <adminToken>`. */
  adminToken?: string | undefined;
}

/** Options of `createCoreEmulator`: everything it needs is injected. */
export interface CoreEmulatorOptions {
  /** The config, in config-file form (see `fixtures/uas.config.json`). */
  config: unknown;
  clock: Clock;
  random: RandomSource;
  devApi?: DevApiOptions;
  /**
   * Reported by `GET /__uas/health`: 1 to 64 printable ASCII characters.
   * @default '0.0.0'
   */
  version?: string;
  /**
   * Bytes of events a reader of `GET /__uas/events` may leave unread before it is cut off.
   * @default 1_048_576
   */
  eventQueueBytes?: number;
  /**
   * Readers of `GET /__uas/events` at once; more are answered 503 (each holds a queue).
   * @default 32
   */
  maxEventReaders?: number;
  /**
   * More metric families for `GET /__uas/metrics`, in the Prometheus text format, each line
   * ending in a newline: counters of what runs beside the emulator (`uas serve --record`'s).
   */
  moreMetrics?: (() => string) | undefined;
  /**
   * What `GET /__uas/check` and `GET /__uas/openapi.json` need from above the core (the
   * integration check, the contract): `createEmulator` of `uas` passes them. Without them those
   * routes answer 501.
   */
  providers?: DevApiProviders | undefined;
}

/**
 * The emulated service: transports call {@link Emulator.handle}. `M` says when its answers come:
 * at once (over the memory store, the default), or later (over a shared store).
 */
export interface Emulator<out M extends Answer = 'sync'> extends Admin<M>, EmulatorInfo {
  /** Answers one request. Never throws (nor rejects) for any request. */
  handle(request: EmulatorRequest): SyncOrAsync<M, EmulatorResponse>;
  /**
   * The same, for a transport: long dev-API work (`GET /__uas/check`) awaits `giveWay` between
   * its steps, so other requests are answered meanwhile, and its answer then comes later.
   */
  handle(request: EmulatorRequest, giveWay: GiveWay): MaybePromise<EmulatorResponse>;
  /**
   * Runs an already authenticated and parsed call at the clock's time, without HTTP and without
   * journaling it: the fast path of the simulator.
   */
  execute(call: ServiceCall): SyncOrAsync<M, ServiceResult>;
  /**
   * Listens to this instance's requests, codes, resets and config changes; returns the function
   * that stops listening. With `records: 'deferred'`, a request event's record may come before it
   * is complete (its fields parsed, secrets redacted): the listener completes it with
   * {@link Emulator.completeRecord} when it reads it (later, in a batch, say); the record object
   * is not changed meanwhile but by that completion.
   */
  subscribe(
    listener: (event: EmulatorEvent) => void,
    options?: { records?: 'whole' | 'deferred' },
  ): () => void;
  /**
   * Completes a record heard with `records: 'deferred'`, in place, and returns it: its fields
   * parsed, the secrets redacted. A complete record is returned as it is.
   */
  completeRecord(record: RequestRecord): RequestRecord;
  /** The most bytes of body read for a request to `path` (more is answered 413). */
  bodyLimit(path: string): number;
  /** In front of the real service (`uas serve --upstream`): the proxy reads and journals through it. */
  readonly upstream: UpstreamSide;
  /** Where buckets and codes are: this process's memory, or a store shared by instances. */
  readonly storeKind: EmulatorStore['kind'];
  /** `memory`; or whether a shared store answered its last call (`up`) or not (`down`). */
  readonly storeState: 'memory' | 'up' | 'down';
}

/** An emulator over a store shared with other instances (Redis): every answer comes later. */
export type SharedEmulator = Emulator<'async'>;

/** An emulator over any store, as transports take it. */
export type AnyEmulator = Emulator<Answer>;

/** Options of `createCoreSharedEmulator`: those of `createCoreEmulator`, and the store. */
export interface CoreSharedEmulatorOptions extends CoreEmulatorOptions {
  /** A store shared with other instances, connected (see `uas/node`'s `connectRedisStore`). */
  store: EmulatorStore;
}
