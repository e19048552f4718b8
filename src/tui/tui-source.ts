import type { AnyEmulator, BucketQuery } from '../core/emulator.js';
import type { BucketView } from '../core/limits/bucket-view.js';
import type { CodeRecord, RequestRecord } from '../core/records/records.js';
import type { Clock } from '../core/time/clock.js';
import { systemClock } from '../runtime/system-clock.js';

/** Requests read from the journal when the screen attaches: totals start from these. */
export const SEED_LIMIT = 10_000;

/**
 * What the screen hears of a target, in order. Every request the target records reaches the
 * screen exactly once: first the ones its journal held as the screen attached (`seed`), then each
 * later one (`requests`), across reconnections.
 */
export type FeedEvent =
  | { type: 'connected' }
  | {
      type: 'lost';
      problem: string;
      needsAdminToken?: boolean | undefined;
      /** The server's event readers are all taken (a 503): the problem says what to do. */
      readersFull?: boolean | undefined;
    }
  /**
   * The requests the journal held as the screen attached (or after a reset), oldest first;
   * `missed`: how many older ones it no longer held.
   */
  | { type: 'seed'; records: RequestRecord[]; missed: number }
  /** Requests after those already heard of, oldest first. */
  | { type: 'requests'; records: RequestRecord[] }
  /** Requests made while disconnected that the journal let go before the screen could read them. */
  | { type: 'gap'; missed: number }
  /** The emulator was reset: its journal and request ids start again. */
  | { type: 'restart' }
  /** The target issued a one-time code (the screen shows the latest: its log is hidden). */
  | { type: 'code'; code: CodeRecord };

/** Where the screen gets its data: a running emulator's dev API, or an emulator in this process. */
export interface TuiSource {
  /** Shown in the header. */
  readonly label: string;
  /** The clock the screen keeps time by: requests per second and the sparkline. */
  readonly clock: Clock;
  /** Follows the target's requests and connection (see {@link FeedEvent}). Returns the function that stops. */
  follow(listener: (event: FeedEvent) => void): () => void;
  listBuckets(query: BucketQuery): Promise<{ total: number; buckets: BucketView[] }>;
  /**
   * Resets one bucket, or all without a key. Absent where the screen must not reset buckets: in a
   * simulation, where a reset would change the results it reports.
   */
  reset?: ((key?: string) => Promise<void>) | undefined;
  /**
   * Holds the target's traffic while the screen is paused (`true`), and lets it go on (`false`):
   * a simulation sends no request and its time stops. Absent for a server, which the screen
   * cannot stop: its pause only freezes the screen.
   */
  hold?: ((held: boolean) => void) | undefined;
  /** Milliseconds the target has been up, when known. */
  uptime(): Promise<number | undefined>;
  /** The latest requests, newest first. */
  recent(limit: number): Promise<RequestRecord[]>;
}

/** The seed of a feed from the journal's newest requests (newest first, as the journal lists them). */
export function seedFrom(newestFirst: RequestRecord[]): FeedEvent & { type: 'seed' } {
  const records = [...newestFirst].reverse();
  // Request ids count from 1 since the emulator started (or was reset), one a request.
  return { type: 'seed', records, missed: Math.max(0, (records[0]?.id ?? 1) - 1) };
}

/** Options of {@link createLocalSource}. */
export interface LocalSourceOptions {
  /**
   * The clock the screen keeps time by; the emulator's own for a virtual-time simulation.
   * @default the wall clock
   */
  clock?: Clock | undefined;
  /**
   * Whether the screen hears of the codes the emulator issues (`uas serve --tui`, whose request
   * log is hidden); a simulation's shoppers' codes are noise.
   * @default true
   */
  codes?: boolean | undefined;
}

/** A source over an emulator in this process (`uas serve --tui`, `uas simulate --watch`). */
export function createLocalSource(
  emulator: AnyEmulator,
  label: string,
  options: LocalSourceOptions = {},
): TuiSource {
  return {
    label,
    clock: options.clock ?? systemClock,
    follow(listener) {
      listener({ type: 'connected' });
      // The journal is read and the listener added in one turn: no request can come in between.
      listener(seedFrom(emulator.journal(SEED_LIMIT)));
      return emulator.subscribe((event) => {
        if (event.type === 'request') listener({ type: 'requests', records: [event.request] });
        else if (event.type === 'reset' && event.emulator) listener({ type: 'restart' });
        else if (event.type === 'code' && options.codes !== false)
          listener({ type: 'code', code: event.code });
      });
    },
    listBuckets: async (query) => emulator.listBuckets(query),
    async reset(key) {
      await emulator.resetBuckets(key);
    },
    uptime: async () => emulator.clock.now() - emulator.startedAt,
    recent: async (limit) => emulator.journal(limit),
  };
}
