import { describe, expect, it } from 'vitest';
import { checkAnswer, createCoalescedCheck } from './check-answer.js';
import { checkIntegration } from './check-integration.js';
import type { CheckReport } from './check-report.js';
import { ITEMS_PER_PAUSE } from './paced.js';
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

  it('yields within its work on the records, not only between rules: more pauses as the journal grows', async () => {
    const pausesOf = async (count: number) => {
      const emulator = busyEmulator(count);
      let pauses = 0;
      const answer = await emulator.handle(CHECK, async () => {
        pauses++;
      });
      expect(answer.status).toBe(200);
      return pauses;
    };
    const small = await pausesOf(10);
    const large = await pausesOf(4 * ITEMS_PER_PAUSE);
    // Keys, grouping, the summary and the heavy rules each pause every ITEMS_PER_PAUSE records.
    expect(large - small).toBeGreaterThanOrEqual(4 * 8);
  });

  it('answers concurrent checks of one journal with one computation', async () => {
    const emulator = busyEmulator(50);
    const giveWay = () => Promise.resolve();
    const [first, second] = await Promise.all([
      emulator.handle(CHECK, giveWay),
      emulator.handle(CHECK, giveWay),
    ]);
    expect(first.status).toBe(200);
    // One computation: both answers hold the same findings.
    const findings = (answer: EmulatorResponse) => (answer.body as { findings: unknown }).findings;
    expect(findings(second)).toBe(findings(first));
    expect(second.body).toEqual(first.body);
  });
});

describe('createCoalescedCheck', () => {
  const records = busyEmulator(20).requests();
  const context = { dropped: 0, giveWay: () => Promise.resolve() };

  function counted() {
    const calls: number[] = [];
    const check = createCoalescedCheck((judged) => {
      calls.push(judged.length);
      return Promise.resolve(checkIntegration(judged));
    });
    return { check, calls };
  }

  it('computes once for checks that arrive while one is running, and once more only when the journal changed', async () => {
    const { check, calls } = counted();
    const [first, second] = await Promise.all([check(records, context), check(records, context)]);
    expect(calls).toEqual([20]);
    expect(second.findings).toBe(first.findings);
    expect(first).toEqual(await checkAnswer(records, { dropped: 0, giveWay: undefined }));
    // The journal has not changed since: the last answer.
    expect((await check(records, context)).findings).toBe(first.findings);
    expect(calls).toEqual([20]);
    // A dev-API request (a health probe) changes only what the summary ignores.
    const probed = [...records, { ...records[0]!, id: 1_000, operation: undefined }];
    const answer = await check(probed, context);
    expect(calls).toEqual([20]);
    expect(answer).toEqual(await checkAnswer(probed, { dropped: 0, giveWay: undefined }));
    expect(answer.summary.ignored).toBe(1);
    await check(records.slice(0, 19), context);
    await check(records, { ...context, dropped: 1 });
    expect(calls).toEqual([20, 19, 20]);
  });

  it('computes again after a check that failed', async () => {
    let fail = true;
    const check = createCoalescedCheck((judged) =>
      fail
        ? Promise.reject(new Error('boom'))
        : Promise.resolve<CheckReport>(checkIntegration(judged)),
    );
    await expect(check(records, context)).rejects.toThrow('boom');
    fail = false;
    expect(await check(records, context)).toMatchObject({ dropped: 0 });
  });

  it('answers at once, without keeping anything, when nobody gives it a way to pause', () => {
    const { check, calls } = counted();
    const answer = check(records, { dropped: 0, giveWay: undefined });
    expect(answer).not.toBeInstanceOf(Promise);
    expect(calls).toEqual([]);
  });
});
