import { describe, expect, it, vi } from 'vitest';
import { requestRecord } from '../../test/helpers/request-record.js';
import { codeState, replacedCodes } from './code-state.js';
import { configChange } from './config-change.js';
import {
  answerText,
  callerIdPlace,
  fillPercent,
  formatDuration,
  oneLine,
  outcomeLabel,
  retryAfterText,
} from './format.js';
import { filterRequests, NO_FILTER, STATUS_CHOICES } from './request-filter.js';
import { OUTCOMES } from '../core/records/records.js';
import { curlCommand, replayRequest, shellQuote } from './replay-request.js';
import { replaceQuestion, userCall, userChangeText, usersShownText } from './user-change.js';

describe('formatting', () => {
  it('says durations, fills and outcomes in words, never by colour alone', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1500)).toBe('1.5 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(-1)).toBe('—');
    expect(answerText({ status: 429, outcome: 'rate-limited', problem: 'rate-limited' })).toBe(
      '429 refused (rate-limited)',
    );
    expect(answerText({ status: 200, outcome: 'allowed', upstream: { cut: 'client' } })).toBe(
      '200 ok; the client left before it ended',
    );
    expect(
      answerText({ status: 200, outcome: 'upstream-failed', upstream: { cut: 'upstream' } }),
    ).toBe('200 failed; cut short by the real service');
    expect(answerText({ status: 200, outcome: 'allowed', upstream: { cut: 'shutdown' } })).toBe(
      '200 ok; cut when uas shut down',
    );
    expect(fillPercent(3, 5)).toBe(60);
    expect(fillPercent(9, 5)).toBe(100);
    expect(fillPercent(1, 0)).toBe(0);
    expect(outcomeLabel(429, 'rate-limited')).toBe('429 refused');
    expect(outcomeLabel(429, 'injected-429')).toBe('429 injected');
    expect(outcomeLabel(503, 'injected-fault')).toBe('503 fault');
  });

  it('escapes control and direction characters of traffic, and cuts long values', () => {
    expect(oneLine('a\nb\u202ec')).toBe('a\\u000ab\\u202ec');
    expect(oneLine('a\u200fb\u061c')).toBe('a\\u200fb\\u061c');
    // Characters that show as nothing: two caller_ids must not look the same.
    expect(oneLine('\u200bx\u2060\ufeff')).toBe('\\u200bx\\u2060\\ufeff');
    expect(oneLine('x'.repeat(10), 4)).toBe('xxxx…');
    expect(oneLine({ a: 1 })).toBe('{"a":1}');
  });

  it("says the Retry-After a request got, and the real service's text it could not read", () => {
    expect(retryAfterText(requestRecord({ retry_after: undefined }))).toBe('none sent');
    expect(retryAfterText(requestRecord({ retry_after: 7 }))).toBe('7 s');
    const upstream = (text: string | undefined) => ({
      answered_by: 'upstream' as const,
      local: undefined,
      headers: ['retry-after'],
      policy: undefined,
      retry_after_text: text,
      problem_type: undefined,
      bucket: undefined,
      cut: undefined,
    });
    expect(retryAfterText(requestRecord({ retry_after: 7, upstream: upstream('7') }))).toBe('7 s');
    expect(
      retryAfterText(requestRecord({ retry_after: undefined, upstream: upstream('-5') })),
    ).toBe('"-5" as sent by the real service: neither delay-seconds nor an HTTP date');
    const date = 'Wed, 21 Oct 2015 07:28:00 GMT';
    expect(retryAfterText(requestRecord({ retry_after: 0, upstream: upstream(date) }))).toBe(
      `0 s (sent as "${date}")`,
    );
  });

  it('says where a caller_id was found, or that it was misplaced', () => {
    const inBody = requestRecord({ caller_id: 'c', caller_id_source: 'body' });
    expect(callerIdPlace(inBody)).toMatch(/^in the JSON body/);
    const inHeader = requestRecord({
      caller_id: undefined,
      caller_id_source: undefined,
      caller_id_misplaced: [{ place: 'header', name: 'x-caller-id', value: 'c' }],
    });
    expect(callerIdPlace(inHeader)).toMatch(/^misplaced: header x-caller-id/);
  });

  it('tells a verified, expired, exhausted and live code apart', () => {
    const code = {
      merchant_id: 'm',
      email: 'a@x',
      code: '1',
      issued_at: '',
      expires_at: '2026-01-01T00:10:00Z',
      attempts_left: 5,
      used: false,
    };
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(codeState({ ...code, used: true }, now)).toBe('verified');
    expect(codeState(code, Date.parse('2026-01-01T00:10:00Z'))).toBe('dead: expired');
    expect(codeState({ ...code, attempts_left: 0 }, now)).toBe('dead: no attempts left');
    expect(codeState(code, now)).toBe('live, expires in 10 min 0 s');
    expect(codeState(code, undefined)).toBe('…');
    expect(codeState(code, now, true)).toBe('dead: replaced by a newer code');
    expect(codeState({ ...code, used: true }, now, true)).toBe('verified');
    expect(codeState({ ...code, attempts_left: 0 }, undefined)).toBe('dead: no attempts left');
  });
});

describe('replacedCodes', () => {
  const code = (email: string, merchant_id = 'm') => ({
    merchant_id,
    email,
    code: '1',
    issued_at: '',
    expires_at: '',
    attempts_left: 5,
    used: false,
  });

  it('names the codes listed after a newer one of the same e-mail (in any case) and merchant', () => {
    const codes = [code('A@x'), code('b@x'), code('a@x'), code('a@x', 'n'), code('a@X')];
    const replaced = replacedCodes(codes);
    expect(codes.map((each) => replaced.has(each))).toEqual([false, false, true, false, true]);
  });

  it('looks at each of a thousand codes once, not at every code before it', () => {
    const codes = Array.from({ length: 1000 }, (_, index) => code(`u${index}@x`));
    const lower = vi.spyOn(String.prototype, 'toLowerCase');
    try {
      expect(replacedCodes(codes).size).toBe(0);
      expect(lower.mock.calls.length).toBeLessThanOrEqual(codes.length);
    } finally {
      lower.mockRestore();
    }
  });
});

describe('filterRequests', () => {
  const records = [
    requestRecord({
      id: 1,
      operation: 'exists',
      status: 200,
      email: 'alice@example.com',
      caller_id: 'ip-1',
    }),
    requestRecord({
      id: 2,
      operation: 'start',
      status: 429,
      outcome: 'rate-limited',
      bucket: 'client:demo',
      caller_id: undefined,
      caller_id_misplaced: [{ place: 'header', name: 'x-caller-id', value: 'ip-2' }],
    }),
  ];
  it('filters by operation, status class, bucket, caller_id (misplaced ones too), e-mail and text', () => {
    const ids = (filter: Partial<typeof NO_FILTER>) =>
      filterRequests(records, { ...NO_FILTER, ...filter }).map((each) => each.id);
    expect(ids({})).toEqual([1, 2]);
    expect(ids({ operation: 'start' })).toEqual([2]);
    expect(ids({ status: '4xx' })).toEqual([2]);
    expect(ids({ status: '429' })).toEqual([2]);
    expect(ids({ status: 'rate-limited' })).toEqual([2]);
    expect(ids({ bucket: 'client:' })).toEqual([2]);
    expect(ids({ callerId: 'ip-2' })).toEqual([2]);
    expect(ids({ email: 'ALICE' })).toEqual([1]);
    expect(ids({ text: 'X-CALLER' })).toEqual([2]);
  });

  it('serialises a record for the text filter once, however often the list is filtered again', () => {
    const many = Array.from({ length: 100 }, (_, index) => requestRecord({ id: index + 1 }));
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      filterRequests(many, { ...NO_FILTER, text: 'nothing like it' });
      const first = stringify.mock.calls.length;
      expect(first).toBeGreaterThanOrEqual(100);
      for (const text of ['alice', 'ALICE@', 'exists'])
        filterRequests(many, { ...NO_FILTER, text });
      expect(stringify.mock.calls.length).toBe(first);
    } finally {
      stringify.mockRestore();
    }
  });
});

describe('replayRequest and curlCommand', () => {
  it('sends a GET again with its fields in the query and a misplaced caller_id where it was', () => {
    const record = requestRecord({
      method: 'GET',
      path: '/v1/users/exists',
      fields: { email: 'a@x' },
      caller_id: undefined,
      caller_id_source: undefined,
      caller_id_misplaced: [{ place: 'header', name: 'X-Caller-Id', value: "it's" }],
    });
    expect(replayRequest(record, 'tok')).toEqual({
      method: 'GET',
      url: '/v1/users/exists?email=a%40x',
      headers: { authorization: 'Bearer tok', 'x-caller-id': "it's" },
      body: undefined,
    });
    expect(curlCommand(record, 'http://127.0.0.1:4010')).toBe(
      `curl -i -H "Authorization: Bearer $UAS_TOKEN" -H 'x-caller-id: it'\\''s' 'http://127.0.0.1:4010/v1/users/exists?email=a%40x'`,
    );
  });

  it('sends a POST again as JSON with its caller_id in the body', () => {
    const record = requestRecord({
      method: 'POST',
      path: '/v1/p',
      fields: { email: 'a@x' },
      caller_id: 'c',
      caller_id_source: 'body',
      caller_id_misplaced: [],
    });
    const replay = replayRequest(record, 't');
    expect(JSON.parse(replay.body ?? '')).toEqual({ email: 'a@x', caller_id: 'c' });
    expect(replay.headers['content-type']).toBe('application/json');
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
});

describe('configChange', () => {
  it('sends only the fields changed, numbers as numbers and anything else as typed', () => {
    const running = {
      '/limits/caller/burst': '5',
      '/limits/caller/rate': '1/s',
      '/behavior/chaos': '0',
    };
    const values = { ...running, '/limits/caller/burst': '-1', '/behavior/chaos': 'lots' };
    const numeric = new Set(['/limits/caller/burst', '/behavior/chaos']);
    expect(configChange(values, running, numeric)).toEqual({
      limits: { caller: { burst: -1 } },
      behavior: { chaos: 'lots' },
    });
  });
});

describe('the Users form', () => {
  it('removes a user by its e-mail in the path, percent-encoded', () => {
    expect(userCall('remove', 'a+b/c@example.com')).toEqual({
      method: 'DELETE',
      path: '/users/a%2Bb%2Fc%40example.com',
    });
    expect(userCall('add', 'dave@example.com')).toEqual({
      method: 'POST',
      path: '/users',
      body: { users: [{ email: 'dave@example.com' }] },
    });
  });

  it('adds a user with the phone number and token_count typed, a bad count left to the server', () => {
    expect(userCall('add', 'dave@example.com', { phone: ' +15550000001 ', tokens: '3' })).toEqual({
      method: 'POST',
      path: '/users',
      body: {
        users: [{ email: 'dave@example.com', phone_number: '+15550000001', token_count: 3 }],
      },
    });
    expect(userCall('add', 'dave@example.com', { phone: '', tokens: 'two' }).body).toEqual({
      users: [{ email: 'dave@example.com', token_count: 'two' }],
    });
  });

  it('asks before Add replaces a user, saying what it has and what it would have', () => {
    const alice = { email: 'alice@example.com', phone_number: '+14155550101', token_count: 2 };
    expect(replaceQuestion(alice, { phone: '', tokens: '' })).toBe(
      'alice@example.com is a user already (phone +14155550101, token_count 2). Replace it with no phone number, token_count 0?',
    );
    expect(
      replaceQuestion(
        { email: 'bob@example.com', token_count: 0 },
        { phone: '+1555', tokens: '4' },
      ),
    ).toBe(
      'bob@example.com is a user already (no phone number, token_count 0). Replace it with phone +1555, token_count 4?',
    );
  });

  it('says what the server did: the user removed and its codes dropped, as text', () => {
    const answer = (body: unknown) => ({ ok: true, status: 200, body });
    expect(userChangeText('remove', answer({ removed: 'alice@example.com', codes: 1 }))).toBe(
      'Removed alice@example.com; 1 code dropped',
    );
    expect(userChangeText('remove', answer({ removed: 'x\u202e@example.com', codes: 2 }))).toBe(
      'Removed x\\u202e@example.com; 2 codes dropped',
    );
    expect(userChangeText('add', answer({ added: 0, replaced: 1 }))).toBe(
      'Replaced the user of that e-mail',
    );
    expect(userChangeText('add', answer({ added: 1, replaced: 0 }))).toBe('Added');
    expect(usersShownText(1, 1)).toBe('1 user');
    expect(usersShownText(3, 3)).toBe('3 users');
    expect(usersShownText(1_000_000, 50)).toBe('1,000,000 users; the first 50 shown');
  });
});

describe('the status filter of Requests', () => {
  it('offers every outcome a record can have, the proxy’s upstream-failed included', () => {
    const values = STATUS_CHOICES.map((choice) => choice.value);
    expect(values).toEqual(expect.arrayContaining([...OUTCOMES]));
    expect(values).toContain('upstream-failed');
    expect(new Set(values).size).toBe(values.length);
    expect(STATUS_CHOICES.every((choice) => choice.label !== '')).toBe(true);
  });

  it('keeps only the requests the real service could not be reached for', () => {
    const failed = requestRecord({ id: 1, status: 502, outcome: 'upstream-failed' });
    const fault = requestRecord({ id: 2, status: 502, outcome: 'injected-fault' });
    const kept = filterRequests([failed, fault], { ...NO_FILTER, status: 'upstream-failed' });
    expect(kept.map((request) => request.id)).toEqual([1]);
  });
});
