import { describe, expect, it } from 'vitest';
import { blankRecord } from './request-facts.js';
import { finishUpstreamRecord, retryAfterSeconds } from './upstream-answer.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('retryAfterSeconds', () => {
  it('reads delay-seconds, and an HTTP date as the seconds from now to it', () => {
    expect(retryAfterSeconds('30', NOW)).toBe(30);
    expect(retryAfterSeconds(new Date(NOW + 90_500).toUTCString(), NOW)).toBe(90);
    expect(retryAfterSeconds(new Date(NOW - 5_000).toUTCString(), NOW)).toBe(0);
  });

  it('gives undefined for what is neither, and bounds a huge value', () => {
    expect(retryAfterSeconds('soon', NOW)).toBeUndefined();
    expect(retryAfterSeconds(undefined, NOW)).toBeUndefined();
    expect(retryAfterSeconds('9'.repeat(40), NOW)).toBe(1_000_000_000_000);
  });

  it('reads an HTTP date in its three forms only, as GMT: not what Date.parse would guess at', () => {
    // Date.parse takes these for 1 January 2030, 1 May 2001 and 2 January 2003.
    expect(retryAfterSeconds('Monday 2030', NOW)).toBeUndefined();
    expect(retryAfterSeconds('Mon 5', NOW)).toBeUndefined();
    expect(retryAfterSeconds('Mon, 1 2 3', NOW)).toBeUndefined();
    expect(retryAfterSeconds('Thursday, 01-Jan-26 12:01:00 GMT', NOW)).toBe(60);
    // asctime has no zone: it is GMT, not the local time Date.parse would read.
    expect(retryAfterSeconds('Thu Jan  1 12:02:00 2026', NOW)).toBe(120);
  });
});

describe('finishUpstreamRecord', () => {
  it('keeps the real answer: Retry-After, the remaining tokens of a draft-6 answer, the bucket and problem it names', () => {
    const record = blankRecord(1, NOW, 'GET', '/v1/users/exists');
    finishUpstreamRecord(
      record,
      {
        status: 429,
        headers: {
          'retry-after': '7',
          'ratelimit-limit': '10',
          'ratelimit-remaining': '0',
          'ratelimit-policy': '10;w=60',
        },
        body: '{"type":"https://errors.example/too-many#slow","bucket":"caller:x:y"}',
      },
      NOW,
      [],
    );
    expect(record).toMatchObject({
      status: 429,
      outcome: 'rate-limited',
      retry_after: 7,
      remaining: 0,
      bucket: 'caller:x:y',
      level: 'caller',
      problem: 'slow',
      upstream: {
        answered_by: 'upstream',
        headers: ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-policy'],
        policy: '10;w=60',
        problem_type: 'https://errors.example/too-many#slow',
      },
    });
  });

  it('redacts a secret the real service echoes back, and reads no problem from a body that is not JSON', () => {
    const record = blankRecord(1, NOW, 'GET', '/v1/users/exists');
    finishUpstreamRecord(
      record,
      { status: 502, headers: { 'uas-bucket': 'client:the-secret-token-1234' }, body: '<html>' },
      NOW,
      ['the-secret-token-1234'],
    );
    expect(JSON.stringify(record)).not.toContain('the-secret-token-1234');
    expect(record.problem).toBeUndefined();
    expect(record.outcome).toBe('allowed');
  });

  it('takes the problem of a 429 from the real answer only: none when its body is empty or not a problem', () => {
    for (const body of ['', 'Too Many Requests', undefined]) {
      const record = blankRecord(1, NOW, 'GET', '/v1/users/exists');
      finishUpstreamRecord(record, { status: 429, headers: {}, body }, NOW, []);
      expect(record.problem).toBeUndefined();
      expect(record.outcome).toBe('rate-limited');
    }
  });

  it('treats an unusable Retry-After (repeated, negative) as absent, never 0, and keeps its text', () => {
    for (const text of ['5, 10', '-3']) {
      const record = blankRecord(1, NOW, 'GET', '/v1/users/exists');
      finishUpstreamRecord(
        record,
        { status: 429, headers: { 'retry-after': text }, body: '' },
        NOW,
        [],
      );
      expect(record.retry_after).toBeUndefined();
      expect(record.upstream?.retry_after_text).toBe(text);
    }
  });

  it('gives an answer uas made because the real service failed its own outcome', () => {
    const record = blankRecord(1, NOW, 'GET', '/v1/users/exists');
    finishUpstreamRecord(record, { status: 504, headers: {}, body: '{}', failed: true }, NOW, []);
    expect(record.outcome).toBe('upstream-failed');
  });
});
