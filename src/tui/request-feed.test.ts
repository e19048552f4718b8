import { describe, expect, it } from 'vitest';
import { codeRecord } from '../../test/helpers/code-record.js';
import { requestRecord } from '../../test/helpers/request-record.js';
import type { EmulatorEvent, RequestRecord } from '../core/records/records.js';
import { createRequestFeed, type FeedHistory } from './request-feed.js';
import type { FeedEvent } from './tui-source.js';

/** A journal the test writes to, as the emulator would: ids from 1, the newest `size` kept. */
function fakeTarget(size = Infinity) {
  let journal: RequestRecord[] = [];
  let nextId = 1;
  let epoch = 0;
  const history: FeedHistory = {
    journal: async (limit) => journal.slice(-limit).reverse(),
    after: async (afterId) => journal.filter((record) => record.id > afterId),
  };
  return {
    history,
    request(): EmulatorEvent {
      const record = requestRecord({ id: nextId, at: epoch * 1_000_000 + nextId });
      nextId++;
      journal = [...journal, record].slice(-size);
      return { type: 'request', request: record };
    },
    reset(): EmulatorEvent {
      journal = [];
      nextId = 1;
      epoch++;
      return { type: 'reset', bucket: undefined, emulator: true };
    },
  };
}

function listen() {
  const events: FeedEvent[] = [];
  return {
    events,
    emit: (event: FeedEvent) => events.push(event),
    /** The ids of the requests passed on, in order, with restarts and gaps between them. */
    ids: () =>
      events.flatMap((event): Array<number | string> =>
        event.type === 'seed' || event.type === 'requests'
          ? event.records.map((record) => record.id)
          : event.type === 'restart'
            ? ['restart']
            : event.type === 'gap'
              ? [`gap ${event.missed}`]
              : [],
      ),
  };
}

describe('createRequestFeed', () => {
  it('passes each request once when the stream and the journal both have it', async () => {
    const target = fakeTarget();
    const screen = listen();
    const feed = createRequestFeed(target.history, screen.emit);
    const before = [target.request(), target.request()];
    // Subscribed: these reach the stream and the journal alike, before the journal is read.
    const early = [target.request(), target.request()];
    const catching = feed.catchUp();
    for (const event of early) feed.event(event);
    const during = target.request();
    feed.event(during);
    await catching;
    feed.event(target.request());
    expect(before).toHaveLength(2);
    expect(screen.ids()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(screen.events[0]).toMatchObject({ type: 'seed', missed: 0 });
  });

  it("passes a request of another instance sharing the store, whatever its id (that instance's journal)", async () => {
    const target = fakeTarget();
    const screen = listen();
    const feed = createRequestFeed(target.history, screen.emit);
    target.request();
    target.request();
    await feed.catchUp();
    const elsewhere = requestRecord({ id: 1, at: 99 });
    feed.event({ type: 'request', request: elsewhere, from: 'instance-b' });
    feed.event({ type: 'request', request: elsewhere, from: 'instance-c' });
    // One of this instance's, already counted: still passed on once only.
    feed.event({ type: 'request', request: requestRecord({ id: 2, at: 2 }) });
    expect(screen.ids()).toEqual([1, 2, 1, 1]);
  });

  it('says how many requests the journal no longer held when it was first read', async () => {
    const target = fakeTarget(3);
    for (let index = 0; index < 5; index++) target.request();
    const screen = listen();
    await createRequestFeed(target.history, screen.emit).catchUp();
    expect(screen.events).toEqual([expect.objectContaining({ type: 'seed', missed: 2 })]);
    expect(screen.ids()).toEqual([3, 4, 5]);
  });

  it('reads what came while disconnected on a reconnection, and nothing twice', async () => {
    const target = fakeTarget();
    const screen = listen();
    const feed = createRequestFeed(target.history, screen.emit);
    await feed.catchUp();
    feed.event(target.request());
    feed.event(target.request());
    const unread = target.request();
    feed.close();
    target.request();
    target.request();
    const catching = feed.catchUp();
    feed.event(target.request());
    await catching;
    // The stream sent it late, after the new connection read it from the journal.
    feed.event(unread);
    feed.event(target.request());
    expect(screen.ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('counts what the journal let go while disconnected as missed', async () => {
    const target = fakeTarget(3);
    const screen = listen();
    const feed = createRequestFeed(target.history, screen.emit);
    await feed.catchUp();
    feed.event(target.request());
    feed.close();
    for (let index = 0; index < 5; index++) target.request();
    await feed.catchUp();
    expect(screen.ids()).toEqual([1, 'gap 2', 4, 5, 6]);
  });

  it('starts over on a reset it heard, and on one it missed while disconnected', async () => {
    const target = fakeTarget();
    const screen = listen();
    const feed = createRequestFeed(target.history, screen.emit);
    await feed.catchUp();
    feed.event(target.request());
    feed.event(target.request());
    feed.event(target.reset());
    feed.event(target.request());
    feed.close();
    // Missed: a reset, then more requests than before it, so ids 1 and 2 exist again.
    target.reset();
    for (let index = 0; index < 3; index++) target.request();
    await feed.catchUp();
    feed.close();
    // Missed: a reset and nothing since.
    target.reset();
    await feed.catchUp();
    feed.event(target.request());
    expect(screen.ids()).toEqual([1, 2, 'restart', 1, 'restart', 1, 2, 3, 'restart', 1]);
  });

  it('passes simulated requests (id 0, never journaled) every time', async () => {
    const target = fakeTarget();
    const screen = listen();
    const feed = createRequestFeed(target.history, screen.emit);
    await feed.catchUp();
    const simulated: EmulatorEvent = { type: 'request', request: requestRecord({ id: 0 }) };
    feed.event(simulated);
    feed.event(simulated);
    expect(screen.ids()).toEqual([0, 0]);
  });

  it('rejects when the journal cannot be read, and reads it on the next connection', async () => {
    const target = fakeTarget();
    target.request();
    let fail = true;
    const screen = listen();
    const feed = createRequestFeed(
      {
        ...target.history,
        journal: async (limit) => {
          if (fail) throw new Error('ECONNRESET');
          return target.history.journal(limit);
        },
      },
      screen.emit,
    );
    await expect(feed.catchUp()).rejects.toThrow('ECONNRESET');
    feed.close();
    fail = false;
    await feed.catchUp();
    expect(screen.ids()).toEqual([1]);
  });

  it('passes the codes the target issues, after catching up', async () => {
    const target = fakeTarget();
    const screen = listen();
    const feed = createRequestFeed(target.history, screen.emit);
    const code = codeRecord();
    const catching = feed.catchUp();
    feed.event({ type: 'code', code });
    await catching;
    expect(screen.events.map((event) => event.type)).toEqual(['seed', 'code']);
    expect(screen.events[1]).toEqual({ type: 'code', code });
  });
});
