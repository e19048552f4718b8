import { createAdmin, type Announcer } from './admin/admin.js';
import { codeRecord } from './records/code-record.js';
import type { EventHub } from './admin/event-hub.js';
import type { EmulatorEvent } from './records/records.js';
import { handleDevApi, isDevApiPath } from './admin/dev-api.js';
import type { StoreHealth } from './admin/dev-api-target.js';
import { MAX_EVENT_READERS, openEventStream } from './admin/event-stream.js';
import { answerRequest, recordRequest, type RequestContext } from './answer-request.js';
import { createUpstreamSide } from './upstream-side.js';
import { andThen, type MaybePromise } from './async/maybe-promise.js';
import type { ResolvedConfig } from './config/config.js';
import { createEmulatorEvents } from './emulator-events.js';
import { checkEmulatorOptions, checkVersion, devApiAccess } from './emulator-options.js';
import type { AnyEmulator, CoreEmulatorOptions } from './emulator.js';
import {
  createState,
  type EmulatorState,
  type InstanceCounters,
} from './service/emulator-state.js';
import { serviceContext, type PipelineContext } from './service/pipeline.js';
import { completeRecord } from './service/request-facts.js';
import { executeCall, type ServiceContext } from './service/service.js';
import { simulatedRecord } from './simulated-record.js';
import type { EmulatorRequest, GiveWay } from './service/exchange.js';
import type { EmulatorStore, SharedChange } from './store/emulator-store.js';
import type { RandomSource } from './time/random.js';

/** The largest dev-API body: 100,000 users fit. */
export const DEV_API_MAX_BODY_BYTES = 16 * 1_048_576;

/** An emulator over a store, answering at once or later as the store does. */
export function assembleEmulator(
  options: CoreEmulatorOptions,
  initialConfig: ResolvedConfig,
  store: EmulatorStore,
): AnyEmulator {
  checkEmulatorOptions(options);
  const { clock, random } = options;
  const state = createState(initialConfig, store);
  const counters: InstanceCounters = { readers: 0, wholeReaders: 0, dropped: 0, storeErrors: 0 };
  const devApi = devApiAccess(options.devApi);
  const version = checkVersion(options.version);
  // Tokens a client may send where they do not belong; records never show them.
  const secrets = [
    ...initialConfig.clients.map((client) => client.token),
    ...(devApi.adminToken === undefined ? [] : [devApi.adminToken]),
  ];
  const { local, deferring, readers, announcer } = createEmulatorEvents(
    store.channel,
    () => counters.wholeReaders > 0,
  );
  const announce = announcer.all;
  const pipeline = pipelineOf(state, random, announce);
  const service = serviceContext(pipeline);
  const bodyLimit = (path: string) =>
    isDevApiPath(path) ? DEV_API_MAX_BODY_BYTES : state.config.maxBodyBytes;
  const { admin, hear } = createAdmin(state, clock, announcer, counters, initialConfig, (entry) =>
    completeRecord(entry, secrets),
  );
  const requests: RequestContext = {
    state,
    clock,
    pipeline,
    service,
    counters,
    announce,
    secrets,
    bodyLimit,
    devApi: (request, path, query, giveWay) =>
      handleDevApi(emulator, options.providers, request, path, query, giveWay),
  };
  const emulator: AnyEmulator = {
    ...admin,
    metrics: withMoreMetrics(admin.metrics, options.moreMetrics),
    execute: executeOf(service, clock, announce),
    handle: (request: EmulatorRequest, giveWay?: GiveWay) =>
      answerRequest(requests, request, giveWay),
    subscribe: (listener, options) =>
      (options?.records === 'deferred' ? deferring : local).subscribe(listener),
    completeRecord: (record) => completeRecord(record, secrets),
    openEventStream: eventStreams(readers, counters, options, secrets),
    bodyLimit,
    upstream: createUpstreamSide(requests, recordRequest),
    storeKind: store.kind,
    get storeState() {
      return storeStateOf(store);
    },
    storeHealth: () => storeHealthOf(store),
    clock,
    startedAt: clock.now(),
    version,
    devApi,
  };
  // Getters do not survive the spread above.
  Object.defineProperty(emulator, 'config', { get: () => state.config, enumerable: true });
  Object.defineProperty(emulator, 'requestsDropped', {
    get: () => state.journal.dropped,
    enumerable: true,
  });
  listenToOthers(store, hear, readers);
  return emulator;
}

/**
 * Applies the changes other instances sharing the store send, and hands their events to this
 * one's readers: users changed on another instance once this one has read that change too (its
 * event is sent before it), so that a reader who reads the users on the event finds it.
 */
function listenToOthers(
  { channel }: EmulatorStore,
  hear: (change: SharedChange) => void,
  readers: EventHub<EmulatorEvent>,
): void {
  channel?.listen((change) => {
    if (change.type !== 'event') hear(change);
    else if (change.event.type === 'users' && channel.catchUpUsers !== undefined) {
      const { event } = change;
      void channel
        .catchUpUsers()
        .catch(() => {})
        .then(() => readers.emit(event));
    } else readers.emit(change.event);
  });
}

/**
 * The simulator's fast path: a call run on the service, announced (for a watching screen) but not
 * journaled; no closure is made when no one watches.
 */
function executeOf(
  service: ServiceContext,
  clock: CoreEmulatorOptions['clock'],
  announce: Announcer['all'],
): AnyEmulator['execute'] {
  return (call) => {
    const now = clock.now();
    const result = executeCall(service, call, now, '');
    if (!announce.active) return result;
    return andThen(result, (answer) => {
      announce.emit({ type: 'request', request: simulatedRecord(call, answer, now) });
      return answer;
    });
  };
}

/** Opens event streams on `readers`, as many at once as the options allow. */
function eventStreams(
  readers: EventHub<EmulatorEvent>,
  counters: InstanceCounters,
  options: CoreEmulatorOptions,
  secrets: readonly string[],
): AnyEmulator['openEventStream'] {
  return (requests) =>
    counters.readers >= (options.maxEventReaders ?? MAX_EVENT_READERS)
      ? undefined
      : openEventStream(readers, counters, {
          maxQueuedBytes: options.eventQueueBytes,
          requests,
          secrets,
        });
}

/** The pipeline's context: its state and randomness, and who hears of the codes it issues. */
function pipelineOf(
  state: EmulatorState,
  random: RandomSource,
  announce: Announcer['all'],
): PipelineContext {
  return {
    state,
    random,
    onCode(code) {
      state.counters.codesIssued++;
      if (announce.active) announce.emit({ type: 'code', code: codeRecord(code) });
    },
  };
}

/** `memory`; or whether a shared store answered its last call (`up`) or not (`down`). */
function storeStateOf(store: EmulatorStore): 'memory' | 'up' | 'down' {
  return store.health === undefined ? 'memory' : store.health().up ? 'up' : 'down';
}

/** What `GET /__uas/health` says of a store: its state, or what a shared one says when asked. */
function storeHealthOf(store: EmulatorStore): MaybePromise<StoreHealth> {
  const state = storeStateOf(store);
  return state !== 'up' || store.check === undefined ? state : store.check();
}

/** The metrics, and after them those of what runs beside the emulator (when there are any). */
function withMoreMetrics(
  metrics: () => MaybePromise<string>,
  more: (() => string) | undefined,
): () => MaybePromise<string> {
  return more === undefined ? metrics : () => andThen(metrics(), (text) => text + more());
}
