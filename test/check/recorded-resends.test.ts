import { describe, expect, it } from 'vitest';
import { checkIntegration } from '../../src/check/check-integration.js';
import { readRequestRecord } from '../../src/core/records/record-schema.js';
import { createManualClock } from '../../src/core/time/clock.js';
import { createSeededRandom } from '../../src/core/time/random.js';
import { DEMO_CONFIG, DEMO_TOKEN } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { findingOf } from '../helpers/check-records.js';

// What uas check relies on to tell a resend and an injected 429 must survive the whole way: the
// request's headers, the journal's record, a recording of it (JSON), and the record read back.

describe('a record, from the request to a recording and back', () => {
  it('keeps Idempotency-Key, Retry-Attempt, the injected outcome and the tokens left', () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const emulator = createEmulator({
      config: { ...DEMO_CONFIG, behavior: { chaos: 1 } },
      clock,
      random: createSeededRandom(5),
    });
    // One request, resent three times a second apart whatever Retry-After said, with its key.
    for (let attempt = 0; attempt < 4; attempt++) {
      const answer = emulator.handle({
        method: 'GET',
        url: '/v1/users/exists?email=alice%40example.com&caller_id=203.0.113.7',
        headers: {
          authorization: `Bearer ${DEMO_TOKEN}`,
          'idempotency-key': 'order-42',
          'retry-attempt': String(attempt),
        },
      });
      expect(answer.status).toBe(429);
      clock.advance(1000);
    }
    const recording = emulator
      .journal()
      .reverse()
      .map((record) => JSON.parse(JSON.stringify(record)) as unknown);
    const records = recording.map((line) => {
      const read = readRequestRecord(line);
      if (!read.ok) throw new Error(read.error);
      return read.record;
    });
    expect(records.map((record) => record.retry_attempt)).toEqual(['0', '1', '2', '3']);
    expect(records[3]).toMatchObject({
      idempotency_key: 'order-42',
      outcome: 'injected-429',
      remaining: 5,
    });
    const report = checkIntegration(records);
    expect(report.summary.logical_requests).toBe(1);
    expect(findingOf(report, 'retry-cap-exceeded')?.evidence.figures.most_attempts).toBe(4);
  });
});
