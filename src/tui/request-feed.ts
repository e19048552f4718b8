import type { CodeRecord, EmulatorEvent, RequestRecord } from '../core/records/records.js';
import { SEED_LIMIT, seedFrom, type FeedEvent } from './tui-source.js';

/** What a feed reads to catch up with the requests it did not hear on the event stream. */
export interface FeedHistory {
  /** The latest `limit` requests, newest first (`GET /__uas/journal`). */
  journal(limit: number): Promise<RequestRecord[]>;
  /** Every request after id `afterId` the journal still holds, oldest first (`GET /__uas/requests?after_id=`). */
  after(afterId: number): Promise<RequestRecord[]>;
  /**
   * The latest one-time code the target holds, if any (`GET /__uas/codes`): one issued before the
   * screen attached, or while it was away, is shown as the stream would have shown it.
   */
  latestCode?(): Promise<CodeRecord | undefined>;
}

/** Puts a target's journal and its event stream together into one {@link FeedEvent} sequence. */
export interface RequestFeed {
  /**
   * Called once a connection to the event stream is open (so every later request will arrive on
   * it): reads what the stream cannot have sent, the journal at first and the requests after the
   * last one heard of on a reconnection, while the stream's events wait; then lets them through.
   * Rejects when a read fails; call {@link RequestFeed.close} then.
   */
  catchUp(): Promise<void>;
  /** An event from the stream. */
  event(event: EmulatorEvent): void;
  /** The stream closed: waiting events are dropped, as the next catch-up reads them again. */
  close(): void;
}

/**
 * Creates the feed. Requests are told apart by id (one a request, from 1 since the emulator
 * started or was reset): one already heard of is never passed on again. On a reconnection the
 * last request heard of is looked up again; when the journal holds a different one under its id,
 * or none and nothing after it, the emulator was reset in the meantime and the feed starts over.
 */
export function createRequestFeed(
  history: FeedHistory,
  emit: (event: FeedEvent) => void,
  seedLimit = SEED_LIMIT,
): RequestFeed {
  let seeded = false;
  let last: RequestRecord | undefined;
  let waiting: EmulatorEvent[] | undefined;

  const pass = (records: RequestRecord[]) => {
    const fresh = last === undefined ? records : records.filter((record) => record.id > last!.id);
    if (fresh.length === 0) return;
    last = fresh[fresh.length - 1];
    emit({ type: 'requests', records: fresh });
  };
  const handle = (event: EmulatorEvent) => {
    if (event.type === 'request') {
      // Id 0: a simulated call, never journaled, so never read twice; one of another instance
      // sharing the store has an id of that instance's journal, not of the one read here.
      if (event.request.id === 0 || event.from !== undefined)
        emit({ type: 'requests', records: [event.request] });
      else pass([event.request]);
    } else if (event.type === 'reset' && event.emulator) {
      last = undefined;
      emit({ type: 'restart' });
    } else if (event.type === 'code') emit({ type: 'code', code: event.code });
  };
  const seed = async () => {
    const event = seedFrom(await history.journal(seedLimit));
    seeded = true;
    last = event.records[event.records.length - 1];
    emit(event);
  };
  // The code line is a help, not the feed: a code list that cannot be read leaves it as it is.
  const tellLatestCode = async () => {
    const code = await history.latestCode?.().catch(() => undefined);
    if (code !== undefined) emit({ type: 'code', code });
  };
  const resume = async (from: RequestRecord) => {
    const records = await history.after(from.id - 1);
    const first = records[0];
    if (first !== undefined && first.id === from.id && sameRequest(first, from)) {
      pass(records);
    } else if (first !== undefined && first.id > from.id) {
      // The journal let the oldest of them go while the screen was away.
      emit({ type: 'gap', missed: first.id - from.id - 1 });
      pass(records);
    } else {
      last = undefined;
      emit({ type: 'restart' });
      await seed();
    }
  };

  return {
    async catchUp() {
      waiting = [];
      if (!seeded) await seed();
      else if (last === undefined) pass(await history.after(0));
      else await resume(last);
      await tellLatestCode();
      const held = waiting;
      waiting = undefined;
      for (const event of held) handle(event);
    },
    event(event) {
      if (waiting !== undefined) waiting.push(event);
      else handle(event);
    },
    close() {
      waiting = undefined;
    },
  };
}

function sameRequest(a: RequestRecord, b: RequestRecord): boolean {
  return a.id === b.id && a.at === b.at && a.fingerprint === b.fingerprint && a.path === b.path;
}
