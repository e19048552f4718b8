import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG, DEMO_TOKEN } from '../../demo-config.js';
import { createCoreEmulator } from '../create-core-emulator.js';
import { SUMMARY_PACE_MS } from './event-stream.js';
import type { EmulatorRequest } from '../service/exchange.js';
import { createManualClock } from '../time/clock.js';
import { createSeededRandom } from '../time/random.js';

const START = Date.parse('2026-01-01T00:00:00Z');

/** The fields of a summary, in the order an event lists them. */
const SUMMARY_FIELDS = ['id', 'at', 'operation', 'status', 'outcome', 'level', 'bucket'];

function emulator() {
  return createCoreEmulator({
    config: DEMO_CONFIG,
    clock: createManualClock(START),
    random: createSeededRandom(1),
  });
}

const exists = (callerId: string): EmulatorRequest => ({
  method: 'GET',
  url: `/v1/users/exists?email=alice%40example.com&caller_id=${encodeURIComponent(callerId)}`,
  headers: { authorization: `Bearer ${DEMO_TOKEN}` },
});

/** Opens `GET /__uas/events<query>` and returns a function giving the events sent so far. */
function openEvents(
  target: ReturnType<typeof emulator>,
  query = '',
): () => Promise<
  Array<{
    type: string;
    request?: Record<string, unknown>;
    requests?: Array<Record<string, unknown>>;
  }>
> {
  const answer = target.handle({ method: 'GET', url: `/__uas/events${query}`, headers: {} });
  expect(answer.status).toBe(200);
  const reader = answer.stream!.getReader();
  const decoder = new TextDecoder();
  return async () => {
    const { value } = await reader.read();
    return decoder
      .decode(value)
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string });
  };
}

describe('GET /__uas/events', () => {
  it('sends whole request records by default', async () => {
    const target = emulator();
    const read = openEvents(target);
    target.handle(exists('203.0.113.7'));
    const [event] = await read();
    expect(event?.type).toBe('request');
    expect(event?.request).toMatchObject({
      path: '/v1/users/exists',
      caller_id: '203.0.113.7',
      fields: { email: 'alice@example.com', caller_id: '203.0.113.7' },
      bucket: 'caller:demo:203.0.113.7',
    });
    expect(event?.request?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('sends only the summary of each request with ?requests=summary, those of one read in one event, the bucket scrubbed of tokens', async () => {
    const target = emulator();
    const read = openEvents(target, '?requests=summary');
    expect(await read()).toEqual([]); // the stream's preamble
    // The stream is read now: the first request is handed at once, the next two wait.
    const first = read();
    target.handle(exists('203.0.113.7'));
    // A client that sends its own token as a caller_id names a bucket after it.
    target.handle(exists(DEMO_TOKEN));
    target.handle(exists('203.0.113.8'));
    const events = [...(await first), ...(await read())];
    expect(events.map((event) => event.type)).toEqual(['requests', 'requests']);
    const summaries = events.flatMap((event) => event.requests ?? []);
    expect(summaries.map((summary) => Object.keys(summary))).toEqual(
      Array.from({ length: 3 }, () => [...SUMMARY_FIELDS]),
    );
    expect(events[1]?.requests).toHaveLength(2);
    expect(summaries[0]).toEqual({
      id: 1,
      at: START,
      operation: 'exists',
      status: 200,
      outcome: 'allowed',
      level: 'caller',
      bucket: 'caller:demo:203.0.113.7',
    });
    expect(JSON.stringify(events)).not.toContain(DEMO_TOKEN);
    // The journal still holds the whole records, worked out when read.
    const journal = target.requests();
    expect(journal[1]?.fields).toBeDefined();
    expect(journal[1]?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(journal)).not.toContain(DEMO_TOKEN);
  });

  it('keeps the order of events for a reader of summaries: requests before a reset come before it', async () => {
    const target = emulator();
    const read = openEvents(target, '?requests=summary');
    target.handle(exists('a'));
    target.handle(exists('b'));
    target.handle({ method: 'POST', url: '/__uas/reset', headers: {} });
    target.handle(exists('c'));
    const events = await read();
    expect(
      events.map((event) =>
        event.type === 'requests' ? event.requests?.map((each) => each.bucket) : event.type,
      ),
    ).toEqual([['caller:demo:a', 'caller:demo:b'], 'reset', ['caller:demo:c']]);
  });

  it('cuts off a reader of summaries that leaves too many waiting, and counts it', async () => {
    const target = createCoreEmulator({
      config: DEMO_CONFIG,
      clock: createManualClock(START),
      random: createSeededRandom(1),
      eventQueueBytes: 4096,
    });
    const read = openEvents(target, '?requests=summary');
    for (let index = 0; index < 100; index++) target.handle(exists(`c${index}`));
    await expect(read()).rejects.toThrow(/fell behind/);
    expect(target.handle({ method: 'GET', url: '/__uas/metrics', headers: {} }).text).toMatch(
      /uas_event_readers_dropped_total 1/,
    );
  });

  it('sends whole records to a reader of whole records beside a reader of summaries', async () => {
    const target = emulator();
    const summaries = openEvents(target, '?requests=summary');
    const whole = openEvents(target, '?requests=full');
    target.handle(exists('203.0.113.7'));
    expect(Object.keys((await summaries())[0]?.requests?.[0] ?? {})).toEqual([...SUMMARY_FIELDS]);
    expect((await whole())[0]?.request).toHaveProperty('fields');
  });

  it('asks the transport to write to a reader of summaries at most every tenth of a second', () => {
    const target = emulator();
    const pace = (query: string) =>
      target.handle({ method: 'GET', url: `/__uas/events${query}`, headers: {} }).paceMs;
    expect(pace('?requests=summary')).toBe(SUMMARY_PACE_MS);
    expect(SUMMARY_PACE_MS).toBe(100);
    expect(pace('')).toBe(0);
    expect(pace('?requests=full')).toBe(0);
  });

  it('refuses a value of requests it does not know, naming the parameter', () => {
    const target = emulator();
    const answer = target.handle({
      method: 'GET',
      url: '/__uas/events?requests=everything',
      headers: {},
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('requests');
  });
});
