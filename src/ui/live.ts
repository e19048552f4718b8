import { signal } from '@preact/signals';
import type { CodeRecord, EmulatorEvent, RequestRecord } from '../core/records/records.js';
import { devApi } from './dev-api.js';
import { startEventFeed, type FeedStatus } from './event-feed.js';
import { applyEvents, emptyLiveState, REQUESTS_KEPT, type ApplyMode } from './live-state.js';

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

/** The stream of summaries, always read: what every count comes from. */
let counting: (() => void) | undefined;
/** The stream of whole records, read while a page lists requests. */
let listing: (() => void) | undefined;
/** Events that came while the journal was read: applied after it, in order. */
let heldCounts: EmulatorEvent[] | undefined;
let heldList: EmulatorEvent[] | undefined;

function apply(batch: EmulatorEvent[], mode: ApplyMode): void {
  const before = live.value.resets;
  live.value = applyEvents(live.value, batch, mode);
  if (live.value.resets !== before) {
    notice.value = 'The emulator was reset: totals start again.';
    // Whole records of after the reset may have come before it, and gone with the rest.
    if (listing !== undefined) void readJournal('list');
  }
  ticks.value++;
}

/**
 * Starts (or restarts, after the admin token is given) the live feeds: the summaries that every
 * count comes from, and whole records while a page lists requests ({@link listRequests}).
 */
export function startLive(): void {
  counting?.();
  counting = startEventFeed(
    {
      events(batch) {
        if (heldCounts === undefined) apply(batch, 'count');
        else heldCounts.push(...batch);
      },
      status(status, detail) {
        feed.value = { status, detail };
      },
      opened() {
        heldCounts = [];
        void catchUp().finally(() => {
          const batch = heldCounts ?? [];
          heldCounts = undefined;
          apply(batch, 'count');
        });
      },
    },
    'summary',
  );
  if (listing !== undefined) {
    listing();
    listing = undefined;
    listRequests(true);
  }
}

/**
 * Reads whole request records while `on` (a page that lists requests), beside the summaries,
 * which are never interrupted: counts miss nothing however the pages change. On opening, the
 * journal brings this instance's requests not listed yet.
 */
export function listRequests(on: boolean): void {
  if (on === (listing !== undefined)) return;
  if (!on) {
    listing?.();
    listing = undefined;
    heldList = undefined;
    return;
  }
  listing = startEventFeed(
    {
      events(batch) {
        if (heldList === undefined) apply(batch, 'list');
        else heldList.push(...batch);
      },
      // The stream of summaries says how the server is reached.
      status() {},
      opened() {
        heldList = [];
        void readJournal('list').finally(() => {
          const batch = heldList ?? [];
          heldList = undefined;
          apply(batch, 'list');
        });
      },
    },
    'full',
  );
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
  // While whole records are read, their stream's own reading of the journal lists them.
  await readJournal(listing === undefined ? 'both' : 'count');
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

type JournalPage = { requests: RequestRecord[]; next_after_id: number | null };

/**
 * Reads this instance's journal a page at a time (2,000 requests each), from the last request
 * held (after a reconnection, only what was missed), or from the newest {@link REQUESTS_KEPT}
 * when more are missed: the newest are what a page shows.
 */
async function readJournal(mode: ApplyMode): Promise<void> {
  const { lastId, listId } = live.value;
  const held = mode === 'count' ? lastId : mode === 'list' ? listId : Math.min(lastId, listId);
  const newest = await devApi<{ requests: RequestRecord[] }>('GET', '/journal?limit=1');
  if (!newest.ok) return;
  const newestId = newest.body.requests[0]?.id ?? 0;
  let after: number | null = Math.max(held, newestId - REQUESTS_KEPT);
  while (after !== null) {
    const page: Awaited<ReturnType<typeof devApi<JournalPage>>> = await devApi(
      'GET',
      `/requests?limit=2000${after > 0 ? `&after_id=${after}` : ''}`,
    );
    if (!page.ok) return;
    live.value = applyEvents(
      live.value,
      page.body.requests.map((request) => ({ type: 'request', request })),
      mode,
    );
    after = page.body.next_after_id;
  }
}
