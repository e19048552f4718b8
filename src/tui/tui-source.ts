import type { BucketQuery, Emulator } from '../core/emulator.js';
import type { BucketView } from '../core/limits/bucket-view.js';
import type { EmulatorEvent, RequestRecord } from '../core/admin/records.js';

/** Where the screen gets its data: a running emulator's dev API, or an emulator in this process. */
export interface TuiSource {
  /** Shown in the header. */
  readonly label: string;
  /** Streams events; `onState` hears of connection changes. Returns the function that stops. */
  subscribe(
    onEvent: (event: EmulatorEvent) => void,
    onState: (state: { connected: boolean; problem?: string }) => void,
  ): () => void;
  listBuckets(query: BucketQuery): Promise<{ total: number; buckets: BucketView[] }>;
  /** Resets one bucket, or all without a key. */
  reset(key?: string): Promise<void>;
  /** Milliseconds the target has been up, when known. */
  uptime(): Promise<number | undefined>;
  /** The latest requests, newest first. */
  recent(limit: number): Promise<RequestRecord[]>;
}

/** A source over an emulator in this process (`uas serve --tui`, `uas simulate --watch`). */
export function createLocalSource(emulator: Emulator, label: string): TuiSource {
  return {
    label,
    subscribe(onEvent, onState) {
      onState({ connected: true });
      return emulator.subscribe(onEvent);
    },
    listBuckets: async (query) => emulator.listBuckets(query),
    async reset(key) {
      emulator.resetBuckets(key);
    },
    uptime: async () => emulator.clock.now() - emulator.startedAt,
    recent: async (limit) => emulator.journal(limit),
  };
}
