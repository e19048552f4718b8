import { createParser } from 'eventsource-parser';
import type { RequestsEvent } from '../core/admin/server-sent-events.js';
import type { EmulatorEvent, RequestRecord } from '../core/records/records.js';
import { devHeaders } from './dev-api.js';

/** Milliseconds between batches handed to the page. */
const FLUSH_MS = 200;

/** Why a stream was refused 503: the most readers the server allows are reading. */
const FULL =
  'the server has as many event readers as it allows: close another tab of the dashboard or another reader';

/** The state of the event stream, as the header shows it. */
export type FeedStatus = 'connecting' | 'live' | 'reconnecting' | 'token';

/** What a feed tells its owner. */
export interface FeedListener {
  /** The events of one animation frame, in order. */
  events(batch: EmulatorEvent[]): void;
  status(status: FeedStatus, detail: string): void;
  /** The stream is (again) open: the owner reads what it missed. */
  opened(): void;
}

/**
 * Reads `GET /__uas/events?requests=summary` with fetch (EventSource cannot send the admin
 * token): request events as summaries, which cost the server much less than whole records (those
 * come from the journal). Hands the events over in one batch per animation frame, at most every
 * 200 ms, however many came. It reconnects after a restart, a drop or a refusal, waiting longer
 * each time (at most 5 s). Returns the function that stops it.
 */
export function startEventFeed(listener: FeedListener): () => void {
  let stopped = false;
  let controller: AbortController | undefined;
  let pending: EmulatorEvent[] = [];
  let frame: number | undefined;
  let failures = 0;
  const flush = () => {
    frame = undefined;
    const batch = pending;
    pending = [];
    if (batch.length > 0) listener.events(batch);
  };
  const parser = createParser({
    onEvent(message) {
      try {
        const event = JSON.parse(message.data) as EmulatorEvent | RequestsEvent;
        if (event.type !== 'requests') pending.push(event);
        // The requests of one read of a reader of summaries: one request event each.
        else
          for (const { from, ...request } of event.requests)
            pending.push({ type: 'request', request: request as RequestRecord, from });
      } catch {
        return; // not an event of the emulator
      }
      // One batch per animation frame, at most every FLUSH_MS: a flood of traffic costs the
      // page (and the machine it shares with the server) a few renders a second.
      frame ??= window.setTimeout(() => requestAnimationFrame(flush), FLUSH_MS);
    },
  });
  const connect = async (): Promise<void> => {
    controller = new AbortController();
    try {
      const response = await fetch('/__uas/events?requests=summary', {
        headers: devHeaders({ accept: 'text/event-stream' }),
        signal: controller.signal,
        cache: 'no-store',
      });
      if (response.status === 401) {
        listener.status('token', 'the dev API needs the admin token');
        return;
      }
      if (response.status === 503) throw new Error(FULL);
      if (!response.ok || response.body === null) throw new Error(`status ${response.status}`);
      failures = 0;
      parser.reset();
      listener.status('live', 'live');
      listener.opened();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      throw new Error('the stream ended');
    } catch (error) {
      if (stopped) return;
      failures++;
      const wait = Math.min(5000, 250 * 2 ** Math.min(failures, 5));
      const { message } = error as Error;
      const why = message === FULL ? FULL : `lost the server (${message})`;
      listener.status('reconnecting', `${why}; reconnecting in ${(wait / 1000).toFixed(1)} s`);
      setTimeout(() => void (stopped || connect()), wait);
    }
  };
  listener.status('connecting', 'connecting');
  void connect();
  return () => {
    stopped = true;
    controller?.abort();
    if (frame !== undefined) clearTimeout(frame);
  };
}
