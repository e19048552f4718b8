import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/config/config.js';
import { blankRecord } from '../core/service/request-facts.js';
import { finishUpstreamRecord, type UpstreamAnswer } from '../core/service/upstream-answer.js';
import { DEMO_CONFIG } from '../demo-config.js';
import { compareWithService } from './fidelity-report.js';
import { formatFidelityText } from './format-fidelity-text.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

function recordOf(answer: UpstreamAnswer) {
  return finishUpstreamRecord(blankRecord(1, NOW, 'GET', '/v1/users/exists'), answer, NOW, []);
}

const draft7 = { ratelimit: 'limit=10, remaining=9, reset=60', 'ratelimit-policy': '10;w=60' };

describe('compareWithService', () => {
  it('judges the header style only from answers that carry rate-limit fields (a 400 or 401 without them is not "mixed")', () => {
    const records = [
      recordOf({ status: 200, headers: draft7, body: '{}' }),
      recordOf({ status: 400, headers: {}, body: undefined }),
      recordOf({ status: 401, headers: {}, body: undefined }),
    ];
    const config = resolveConfig({ ...DEMO_CONFIG, behavior: { headers: 'draft-6' } });
    const report = compareWithService(records, config);
    expect(report.headers.style).toBe('draft-7');
    expect(report.config.behavior.headers).toBe('draft-7');
  });

  it('counts a 429 without a problem+json body as a difference', () => {
    const records = [recordOf({ status: 429, headers: { 'retry-after': '1' }, body: '' })];
    const report = compareWithService(records, resolveConfig(DEMO_CONFIG));
    expect(report.differences.map((difference) => difference.topic)).toContain('problem-type');
  });

  it('does not take a 429 whose answer was cut for one without a problem type', () => {
    // Its client left before the body came in: uas read none of it.
    const records = [
      recordOf({ status: 429, headers: { 'retry-after': '1' }, body: '', cut: 'client' }),
      recordOf({ status: 429, headers: { 'retry-after': '1' }, body: '', cut: 'upstream' }),
    ];
    const report = compareWithService(records, resolveConfig(DEMO_CONFIG));
    expect(report.differences.map(({ real }) => real).join('\n')).not.toContain(
      'gave no problem type',
    );
  });

  it('suggests no fixed Retry-After the config would refuse (over 86400 s), but still names the difference', () => {
    const records = [1, 2].map(() =>
      recordOf({ status: 429, headers: { 'retry-after': '1000000000000' }, body: '' }),
    );
    const report = compareWithService(records, resolveConfig(DEMO_CONFIG));
    expect(report.config.behavior.retryAfter).toBeUndefined();
    const difference = report.differences.find(({ topic }) => topic === 'retry-after');
    expect(difference?.real).toBe('Retry-After 1000000000000 s (31,688 years) on 2 of 2 429s');
    expect(formatFidelityText(report)).toContain(
      '429s        2: Retry-After 1000000000000 s (31,688 years)\n',
    );
    expect(difference?.emulator).toMatch(/at most 86400 s/);
  });

  it('names a Retry-After that is neither seconds nor a date as a difference, not as none sent', () => {
    const records = ['-5', '1.5'].map((value) =>
      recordOf({ status: 429, headers: { 'retry-after': value }, body: '' }),
    );
    const report = compareWithService(records, resolveConfig(DEMO_CONFIG));
    expect(report.differences).toContainEqual({
      topic: 'retry-after',
      real: 'a Retry-After neither delay-seconds nor an HTTP date on 2 of 2 429s',
      emulator: 'Retry-After in delay-seconds',
    });
    const text = formatFidelityText(report);
    expect(text).toContain('429s        2: Retry-After unreadable on 2\n');
    expect(text).not.toContain('never');
  });
});

describe('formatFidelityText', () => {
  it('lists each Retry-After value once with its count, the most frequent first, at most 32', () => {
    const sent = [...Array.from({ length: 100 }, (_, index) => index + 1), 7, 7, 7, 50, 50];
    const records = sent.map((seconds) =>
      recordOf({ status: 429, headers: { 'retry-after': String(seconds) }, body: '' }),
    );
    const seen = compareWithService(records, resolveConfig(DEMO_CONFIG)).retry_after;
    expect(seen).toMatchObject({ refusals: 105, absent: 0, unreadable: 0, least: 1, most: 100 });
    expect(seen.values).toHaveLength(32);
    // More distinct values than a function call takes as arguments.
    const many = Array.from({ length: 200_000 }, (_, index) => ({
      ...records[0]!,
      retry_after: index + 1,
    }));
    expect(compareWithService(many, resolveConfig(DEMO_CONFIG)).retry_after).toMatchObject({
      least: 1,
      most: 200_000,
    });
    expect(seen.values.slice(0, 3)).toEqual([
      { seconds: 7, count: 4 },
      { seconds: 50, count: 3 },
      { seconds: 1, count: 1 },
    ]);
  });

  it('says one Retry-After seen on every 429 once ("30 s"), never "30 to 30 s"', () => {
    const records = [1, 2].map(() =>
      recordOf({ status: 429, headers: { 'retry-after': '30' }, body: '' }),
    );
    const text = formatFidelityText(compareWithService(records, resolveConfig(DEMO_CONFIG)));
    expect(text).toContain('429s        2: Retry-After 30 s\n');
  });

  it('says "1 difference" and "no rate-limit fields", never "1 differences" or "none fields"', () => {
    const records = [recordOf({ status: 200, headers: {}, body: '{}' })];
    const report = compareWithService(records, resolveConfig(DEMO_CONFIG));
    const text = formatFidelityText(report);
    expect(text).toContain('1 difference from');
    expect(text).toContain('no rate-limit fields');
    expect(text).toContain('1 exchange answered');
    expect(text).not.toMatch(/1 differences|none fields|1 exchanges/);
  });
});
