import { signal } from '@preact/signals';
import type { CodeRecord, EmulatorEvent, RequestRecord } from '../core/records/records.js';
import { devApi } from './dev-api.js';
import { startEventFeed, type FeedStatus } from './event-feed.js';
import {
  applyEvents,
  emptyLiveState,
  REQUESTS_KEPT,
  withCodesRead,
  type ApplyMode,
} from './live-state.js';

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

/** The stream of summaries: what every count comes from, the one stream a tab holds. */
let counting: (() => void) | undefined;
/** Whether a page that lists requests is open: the journal is read as requests come. */
let listing = false;
/** Events that came while the journal was read: applied after it, in order. */
let held: EmulatorEvent[] | undefined;
/** A read of the journal for the list: running, and whether another is due after it. */
let listRead: Promise<void> | undefined;
let listAgain = false;

function apply(batch: EmulatorEvent[]): void {
  const before = live.value.resets;
  live.value = applyEvents(live.value, batch, 'count');
  if (live.value.resets !== before) notice.value = 'The emulator was reset: totals start again.';
  if (listing && live.value.lastId > live.value.listId) readList();
  ticks.value++;
}

/**
 * Reads the journal for the list, once at a time: whole records of this server's requests come
 * from it, at most once a batch of the stream, only while a page lists them.
 */
function readList(): void {
  if (listRead !== undefined) {
    listAgain = true;
    return;
  }
  listRead = readJournal('list').finally(() => {
    listRead = undefined;
    if (listAgain && listing) {
      listAgain = false;
      readList();
    }
  });
}

/**
 * Starts (or restarts, after the admin token is given) the live feed: one stream of summaries,
 * whatever page is shown (a browser opens few connections to one host, and each tab holds one).
 */
export function startLive(): void {
  counting?.();
  counting = startEventFeed({
    events(batch) {
      if (held === undefined) apply(batch);
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
        apply(batch);
      });
    },
  });
}

/**
 * Lists this server's requests while `on` (a page that lists them): the journal is read now, and
 * again when the stream says more came.
 */
export function listRequests(on: boolean): void {
  listing = on;
  // Until the stream is open and caught up, its own reading of the journal lists them.
  if (on && held === undefined && feed.value.status === 'live') readList();
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
  await readJournal('both');
  const codes = await devApi<{ codes: CodeRecord[] }>('GET', '/codes');
  if (codes.ok) live.value = withCodesRead(live.value, codes.body.codes);
  ticks.value++;
}

type JournalPage = { requests: RequestRecord[]; next_after_id: number | null };

/**
 * Reads this instance's journal a page at a time (2,000 requests each), from the last request
 * held (after a reconnection, only what was missed), or from the newest {@link REQUESTS_KEPT}
 * when more are missed: the newest are what a page shows.
 */
async function readJournal(mode: Exclude<ApplyMode, 'count'>): Promise<void> {
  const { lastId, listId } = live.value;
  const from = mode === 'list' ? listId : Math.min(lastId, listId);
  const newest = await devApi<{ requests: RequestRecord[] }>('GET', '/journal?limit=1');
  if (!newest.ok) return;
  const newestId = newest.body.requests[0]?.id ?? 0;
  let after: number | null = Math.max(from, newestId - REQUESTS_KEPT);
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
