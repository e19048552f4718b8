/** Counters of a running emulator, rendered in the Prometheus text format. */
export interface MetricsSnapshot {
  requests: Map<string, number>;
  buckets: { client: number; caller: number };
  evictions: number;
  codesIssued: number;
}

/** Counts a request under its operation (or `none`) and status. */
export function countRequest(
  requests: Map<string, number>,
  operation: string,
  status: number,
): void {
  const key = `${operation}\u0000${status}`;
  requests.set(key, (requests.get(key) ?? 0) + 1);
}

/**
 * Renders the Prometheus text exposition format. Written here rather than with a client library
 * because those read the process and the clock, which the core must not; the format is four
 * metric families of a few lines each.
 */
export function renderMetrics(snapshot: MetricsSnapshot): string {
  const lines = [
    '# HELP uas_requests_total Service requests answered, by operation and status.',
    '# TYPE uas_requests_total counter',
  ];
  for (const [key, count] of [...snapshot.requests.entries()].sort()) {
    const [operation, status] = key.split('\u0000');
    lines.push(`uas_requests_total{operation="${operation}",status="${status}"} ${count}`);
  }
  lines.push(
    '# HELP uas_buckets Buckets held in memory, by level.',
    '# TYPE uas_buckets gauge',
    `uas_buckets{level="client"} ${snapshot.buckets.client}`,
    `uas_buckets{level="caller"} ${snapshot.buckets.caller}`,
    '# HELP uas_bucket_evictions_total Buckets dropped to keep memory bounded.',
    '# TYPE uas_bucket_evictions_total counter',
    `uas_bucket_evictions_total ${snapshot.evictions}`,
    '# HELP uas_codes_issued_total One-time codes issued by start.',
    '# TYPE uas_codes_issued_total counter',
    `uas_codes_issued_total ${snapshot.codesIssued}`,
  );
  return `${lines.join('\n')}\n`;
}
