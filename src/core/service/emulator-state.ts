import { createFaultQueue, type FaultQueue } from './faults.js';
import { createJournal, type Journal } from '../records/journal.js';
import type { RequestRecord } from '../records/records.js';
import type { ResolvedConfig } from '../config/config.js';
import { createInputRules, type InputRules } from './input-rules.js';
import { createDirectory, type Directory } from '../signin/directory.js';
import type { EmulatorStore } from '../store/emulator-store.js';

/** Counters the metrics report; a reset zeroes them. */
export interface Counters {
  /** Service requests by operation (or `none`), then by status. */
  requests: Map<string, Map<number, number>>;
  codesIssued: number;
}

/** Counters about this instance's connections (event readers, the store), which a reset leaves. */
export interface InstanceCounters {
  /** Event readers connected now. */
  readers: number;
  /** Those of them that read whole request records (not `?requests=summary`). */
  wholeReaders: number;
  /** Event readers cut off because they fell behind. */
  dropped: number;
  /** Requests answered while the shared store could not be reached. */
  storeErrors: number;
}

/**
 * Everything an emulator holds. One object, so a reset can start it afresh and every part (the
 * request pipeline, the dev API) reads the current state through it. Buckets and codes are in
 * its store (this process's memory, or shared); the rest is this instance's own.
 */
export interface EmulatorState {
  config: ResolvedConfig;
  rules: InputRules;
  directory: Directory;
  store: EmulatorStore;
  journal: Journal<RequestRecord>;
  counters: Counters;
  faults: FaultQueue;
  nextRequestId: number;
}

/** The state of a new emulator over a resolved config and its store. */
export function createState(config: ResolvedConfig, store: EmulatorStore): EmulatorState {
  return {
    config,
    rules: createInputRules(config.callerIdMaxLength),
    directory: createDirectory(config),
    store,
    journal: createJournal<RequestRecord>(config.journalSize),
    counters: { requests: new Map(), codesIssued: 0 },
    faults: createFaultQueue(),
    nextRequestId: 1,
  };
}

/** Runs on a new config (a live change): what depends on it follows. */
export function useConfig(state: EmulatorState, config: ResolvedConfig): void {
  state.config = config;
  state.rules = createInputRules(config.callerIdMaxLength);
  state.store.useConfig(config);
}
