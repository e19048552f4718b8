import { andThen, recover, type MaybePromise } from '../async/maybe-promise.js';
import type { EmulatorState, InstanceCounters } from '../service/emulator-state.js';
import type { BucketCounts } from '../store/emulator-store.js';

/** Counters of a running emulator, rendered in the Prometheus text format. */
export interface MetricsSnapshot {
  /** Counts by operation, then by status. */
  requests: Map<string, Map<number, number>>;
  /** Undefined when a shared store could not be asked. */
  buckets: { client: number; caller: number } | undefined;
  evictions: number;
  codesIssued: number;
  /** Event-stream readers connected now. */
  eventReaders: number;
  /** Event-stream readers cut off because they fell behind. */
  eventReadersDropped: number;
  /** Requests answered while the shared store could not be reached. */
  storeErrors: number;
  /** A shared store's health; undefined for the memory store. */
  store: { up: boolean; failedOpen: number } | undefined;
}

/**
 * The metrics of an emulator: its counters, and its store's bucket counts. The counters of this
 * instance are worth reporting even when the store cannot be asked.
 */
export function emulatorMetrics(
  state: EmulatorState,
  streams: InstanceCounters,
): MaybePromise<string> {
  return andThen(
    recover<BucketCounts | undefined>(state.store.counts(), () => undefined),
    (counts) =>
      renderMetrics({
        requests: state.counters.requests,
        buckets:
          counts === undefined ? undefined : { client: counts.client, caller: counts.caller },
        evictions: counts?.evictions ?? 0,
        codesIssued: state.counters.codesIssued,
        eventReaders: streams.readers,
        eventReadersDropped: streams.dropped,
        storeErrors: streams.storeErrors,
        store: state.store.health?.(),
      }),
  );
}

/** Counts a request under its operation (or `none`) and status. */
export function countRequest(
  requests: Map<string, Map<number, number>>,
  operation: string,
  status: number,
): void {
  let byStatus = requests.get(operation);
  if (byStatus === undefined) requests.set(operation, (byStatus = new Map()));
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
}

/**
 * Renders the Prometheus text exposition format. Written here rather than with a client library
 * because those read the process and the clock, which the core must not; the format is nine
 * metric families of a few lines each.
 */
export function renderMetrics(snapshot: MetricsSnapshot): string {
  const lines = [
    '# HELP uas_requests_total Service requests answered, by operation and status.',
    '# TYPE uas_requests_total counter',
  ];
  for (const operation of [...snapshot.requests.keys()].sort()) {
    const byStatus = snapshot.requests.get(operation) ?? new Map<number, number>();
    for (const status of [...byStatus.keys()].sort()) {
      lines.push(
        `uas_requests_total{operation="${operation}",status="${status}"} ${byStatus.get(status)}`,
      );
    }
  }
  if (snapshot.buckets !== undefined)
    lines.push(
      '# HELP uas_buckets Buckets held in the store, by level.',
      '# TYPE uas_buckets gauge',
      `uas_buckets{level="client"} ${snapshot.buckets.client}`,
      `uas_buckets{level="caller"} ${snapshot.buckets.caller}`,
    );
  lines.push(
    '# HELP uas_bucket_evictions_total Buckets dropped to keep memory bounded.',
    '# TYPE uas_bucket_evictions_total counter',
    `uas_bucket_evictions_total ${snapshot.evictions}`,
    '# HELP uas_codes_issued_total One-time codes issued by start.',
    '# TYPE uas_codes_issued_total counter',
    `uas_codes_issued_total ${snapshot.codesIssued}`,
    '# HELP uas_event_readers Readers of GET /__uas/events connected now.',
    '# TYPE uas_event_readers gauge',
    `uas_event_readers ${snapshot.eventReaders}`,
    '# HELP uas_event_readers_dropped_total Event readers cut off because they fell behind.',
    '# TYPE uas_event_readers_dropped_total counter',
    `uas_event_readers_dropped_total ${snapshot.eventReadersDropped}`,
    '# HELP uas_store_errors_total Requests answered 503 because the shared store did not answer (let through as if full: uas_store_failed_open_total).',
    '# TYPE uas_store_errors_total counter',
    `uas_store_errors_total ${snapshot.storeErrors}`,
  );
  if (snapshot.store !== undefined)
    lines.push(
      '# HELP uas_store_up Whether the shared store answered its last call (1) or not (0).',
      '# TYPE uas_store_up gauge',
      `uas_store_up ${snapshot.store.up ? 1 : 0}`,
      '# HELP uas_store_failed_open_total Bucket decisions let through while the store was unreachable.',
      '# TYPE uas_store_failed_open_total counter',
      `uas_store_failed_open_total ${snapshot.store.failedOpen}`,
    );
  return `${lines.join('\n')}\n`;
}
