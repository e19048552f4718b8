import { signal } from '@preact/signals';
import type { CodeRecord, EmulatorEvent, RequestRecord } from '../core/records/records.js';
import { devApi } from './dev-api.js';
import { startEventFeed, type FeedStatus } from './event-feed.js';
import { addJournal, applyEvents, emptyLiveState, REQUESTS_KEPT } from './live-state.js';

/** Everything the pages show from the stream. */
export const live = signal(emptyLiveState());
/** The stream's state and its words. */
export const feed = signal<{ status: FeedStatus; detail: string }>({
  status: 'connecting',
  detail: 'connecting',
});
/** A line the page says once (a reset, a restart), until the next one. */
export const notice = signal<string | undefined>(undefined);
/** Counts every batch applied, so pages that read the dev API know when to read again. */
export const ticks = signal(0);

interface Health {
  started_at?: string;
  store?: string;
  version?: string;
}
/** The server's health, read at each (re)connection. */
export const health = signal<Health | undefined>(undefined);

let stop: (() => void) | undefined;
/** Events that came while the journal was read: applied after it, in order. */
let held: EmulatorEvent[] | undefined;
/**
 * What the feed reads of each request: whole records for the pages that list requests, summaries
 * (enough to count them, at a small part of the server's cost) for the others.
 */
let requestEvents: 'full' | 'summary' = 'summary';

function apply(batch: EmulatorEvent[], summaries: boolean): void {
  const before = live.value.resets;
  live.value = applyEvents(live.value, batch, summaries);
  if (live.value.resets !== before) notice.value = 'The emulator was reset: totals start again.';
  ticks.value++;
}

/** Starts (or restarts, after the admin token is given) the live feed. */
export function startLive(): void {
  stop?.();
  const summaries = requestEvents === 'summary';
  stop = startEventFeed(
    {
      events(batch) {
        if (held === undefined) apply(batch, summaries);
        else held.push(...batch);
      },
      status(status, detail) {
        feed.value = { status, detail };
      },
      opened() {
        held = [];
        void catchUp().finally(() => {
          const batch = held ?? [];
          held = undefined;
          apply(batch, summaries);
        });
      },
    },
    requestEvents,
  );
}

/**
 * Reads whole request records (`full`) or their summaries from now on, reconnecting when that
 * changes: a page that lists requests asks for whole ones, and the journal brings those missed.
 */
export function readRequests(what: 'full' | 'summary'): void {
  if (what === requestEvents) return;
  requestEvents = what;
  if (stop !== undefined) startLive();
}

/** After (re)connecting: a restarted server starts the totals again; then the journal and codes. */
async function catchUp(): Promise<void> {
  const answer = await devApi<Health>('GET', '/health');
  if (!answer.ok) return;
  const before = health.value?.started_at;
  health.value = answer.body;
  if (before !== undefined && before !== answer.body.started_at) {
    live.value = emptyLiveState();
    notice.value = 'The server restarted: totals start again.';
  }
  await readJournal();
  const codes = await devApi<{ codes: CodeRecord[] }>('GET', '/codes');
  if (codes.ok) {
    const known = new Set(live.value.codes.map((code) => `${code.email}|${code.issued_at}`));
    const more = codes.body.codes.filter((code) => !known.has(`${code.email}|${code.issued_at}`));
    const all = [...live.value.codes, ...more].sort((a, b) =>
      b.issued_at.localeCompare(a.issued_at),
    );
    live.value = { ...live.value, codes: all };
  }
  ticks.value++;
}

/**
 * Reads the journal a page at a time (2,000 requests each), from the last request held (after
 * a reconnection, only what was missed), as far as the dashboard keeps.
 */
async function readJournal(): Promise<void> {
  let after: number | null = live.value.listIds[''] ?? 0;
  let read = 0;
  while (after !== null && read < REQUESTS_KEPT) {
    const page: Awaited<
      ReturnType<typeof devApi<{ requests: RequestRecord[]; next_after_id: number | null }>>
    > = await devApi('GET', `/requests?limit=2000${after > 0 ? `&after_id=${after}` : ''}`);
    if (!page.ok) return;
    live.value = addJournal(live.value, page.body.requests);
    read += page.body.requests.length;
    after = page.body.next_after_id;
  }
}
