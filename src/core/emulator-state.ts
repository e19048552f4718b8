import { createFaultQueue, type FaultQueue } from './admin/faults.js';
import { createJournal, type Journal } from './admin/journal.js';
import type { RequestRecord } from './admin/records.js';
import type { ResolvedConfig } from './config/config.js';
import type { BucketLedger } from './limits/bucket-ledger.js';
import { createBucketStore, type BucketStore } from './limits/bucket-store.js';
import { createMemoryLedger } from './limits/memory-ledger.js';
import { createInputRules, type InputRules } from './service/input-rules.js';
import { createDirectory, type Directory } from './signin/directory.js';
import { createOtpStore, type OtpStore } from './signin/otp-codes.js';

/** Counters the metrics report; a reset zeroes them. */
export interface Counters {
  /** Service requests by operation (or `none`), then by status. */
  requests: Map<string, Map<number, number>>;
  codesIssued: number;
}

/** Counters of event-stream readers: about connections, so a reset leaves them. */
export interface StreamCounters {
  /** Readers connected now. */
  readers: number;
  /** Readers cut off because they fell behind. */
  dropped: number;
}

/**
 * Everything an emulator holds. One object, so a reset can start it afresh and every part (the
 * request pipeline, the dev API) reads the current state through it.
 */
export interface EmulatorState {
  config: ResolvedConfig;
  rules: InputRules;
  directory: Directory;
  buckets: BucketStore;
  /** How calls take from buckets: the memory store above, or a shared one. */
  ledger: BucketLedger;
  codes: OtpStore;
  journal: Journal<RequestRecord>;
  counters: Counters;
  faults: FaultQueue;
  nextRequestId: number;
}

/** The state of a new emulator over a resolved config. */
export function createState(config: ResolvedConfig): EmulatorState {
  const state: EmulatorState = {
    config,
    rules: createInputRules(config.callerIdMaxLength),
    directory: createDirectory(config),
    buckets: createBucketStore({ maxBuckets: config.limits.maxBuckets }),
    ledger: createMemoryLedger(
      () => state.buckets,
      () => state.config,
    ),
    codes: createOtpStore(),
    journal: createJournal<RequestRecord>(config.journalSize),
    counters: { requests: new Map(), codesIssued: 0 },
    faults: createFaultQueue(),
    nextRequestId: 1,
  };
  return state;
}

/** Runs on a new config (a live change): what depends on it follows. */
export function useConfig(state: EmulatorState, config: ResolvedConfig): void {
  state.config = config;
  state.rules = createInputRules(config.callerIdMaxLength);
  state.buckets.setMaxBuckets(config.limits.maxBuckets);
}
