import { describe, expect, it } from 'vitest';
import { checkIntegration } from './check-integration.js';
import { CHECK_RULES } from './rule-catalog.js';
import { DEMO_CONFIG, DEMO_TOKEN } from '../demo-config.js';
import { createEmulator } from '../emulator.js';
import type { EmulatorResponse } from '../core/service/exchange.js';
import { createManualClock } from '../core/time/clock.js';
import { createSeededRandom } from '../core/time/random.js';

const REQUESTS = 5_000;

/** An emulator whose journal holds `count` requests of as many shoppers (no limit reached). */
function busyEmulator(count: number, journalSize: number | 'unbounded' = 'unbounded') {
  const large = { burst: 1_000_000, rate: '1000000/s' };
  const emulator = createEmulator({
    config: {
      ...DEMO_CONFIG,
      limits: { client: large, caller: large },
      journal: { size: journalSize },
    },
    clock: createManualClock(Date.parse('2026-01-01T00:00:00Z')),
    random: createSeededRandom(1),
  });
  for (let index = 0; index < count; index++)
    emulator.handle({
      method: 'GET',
      url: `/v1/users/exists?email=u${index}%40example.com&caller_id=sess-${index}`,
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
  return emulator;
}

const CHECK = { method: 'GET', url: '/__uas/check', headers: {} };
const HEALTH = { method: 'GET', url: '/__uas/health', headers: {} };

describe('GET /__uas/check', () => {
  it('gives way to other requests between its steps when the transport lets it, and answers the same report', async () => {
    const emulator = busyEmulator(REQUESTS);
    const answeredMeanwhile: number[] = [];
    let pauses = 0;
    const giveWay = async () => {
      pauses++;
      // What the event loop would run meanwhile: another request, answered at once.
      answeredMeanwhile.push((emulator.handle(HEALTH) as EmulatorResponse).status);
    };

    const pending = emulator.handle(CHECK, giveWay);
    expect(pending).toBeInstanceOf(Promise);
    const answer = await pending;
    expect(answer.status).toBe(200);
    // The journal is read 2,000 records a step (3 steps here), and every rule is a step.
    expect(pauses).toBeGreaterThanOrEqual(2 + CHECK_RULES.length);
    expect(answeredMeanwhile).toEqual(Array<number>(pauses).fill(200));
    expect(answer.body).toEqual({ ...checkIntegration(emulator.requests()), dropped: 0 });
    expect((answer.body as { summary: { requests: number } }).summary.requests).toBe(REQUESTS);
  });

  it('answers at once, as before, when nobody gives it a way to pause', () => {
    const emulator = busyEmulator(10);
    const answer = emulator.handle(CHECK);
    expect(answer.status).toBe(200);
    expect((answer.body as { summary: { requests: number } }).summary.requests).toBe(10);
  });

  it('says in its warnings how many requests the journal let go', () => {
    const emulator = busyEmulator(12, 10);
    const body = emulator.handle(CHECK).body as { dropped: number; warnings?: string[] };
    expect(body.dropped).toBe(2);
    expect(body.warnings).toEqual([
      'the journal had let 2 older requests go; they are not judged (uas serve --journal-size unbounded keeps them all)',
    ]);
  });
});
