import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, isoTime, operationCosts, parseHttpUrl, sizeFlag } from './options.js';

describe('sizeFlag', () => {
  it('reads bytes and units of 1024, kb and kib alike, in any case', () => {
    expect(sizeFlag('--x', '65536')).toBe(65_536);
    expect(sizeFlag('--x', '512kb')).toBe(512 * 1024);
    expect(sizeFlag('--x', '16MiB')).toBe(16 * 1024 ** 2);
    expect(sizeFlag('--x', '256mb')).toBe(256 * 1024 ** 2);
    expect(sizeFlag('--x', '1 GiB')).toBe(1024 ** 3);
    expect(sizeFlag('--x', '1.5kb')).toBe(1536);
  });

  it('refuses a fraction of a byte, nothing, a unit it does not know, and more than its most', () => {
    for (const text of ['1.5', '1.5b', '0', '', 'mb', '12abc', '1e9', '1tb', '1mibb'])
      expect(() => sizeFlag('--x', text), text).toThrow(/^invalid --x: expected a size above zero/);
    const max = { bytes: 1024, text: '1kb', why: 'a test' };
    expect(() => sizeFlag('--x', '2kib', max)).toThrow(
      'invalid --x: expected at most 1kb (a test); got "2kib"',
    );
  });
});

describe('isoTime', () => {
  it('reads an ISO 8601 date or time, with or without a zone', () => {
    expect(isoTime('2026-01-01T00:00:00Z')).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(isoTime('2026-01-01')).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(isoTime('2028-02-29T23:59:59.5+05:00')).toBe(Date.parse('2028-02-29T18:59:59.500Z'));
  });

  it('refuses a day the month does not have, and hours or minutes past their end', () => {
    for (const text of ['2026-02-30T00:00:00Z', '2026-02-29', '2026-04-31', '2026-01-01T24:00:00Z'])
      expect(() => isoTime(text), text).toThrow(/^expected an ISO 8601 time/);
  });
});

describe('parseHttpUrl', () => {
  it('refuses a URL with a password without repeating it, naming only the token flag the command has', () => {
    expect(() => parseHttpUrl('--server-url', 'http://me:secret@x.example/')).toThrow(
      /^invalid --server-url: a user name or password in the URL is not supported \(uas sends no URL credentials\); give http:\/\/x\.example\/$/,
    );
    expect(() => parseHttpUrl('--url', 'http://me:secret@127.0.0.1:4010', ADMIN_TOKEN)).toThrow(
      /give http:\/\/127\.0\.0\.1:4010\/ and the admin token with --admin-token or UAS_ADMIN_TOKEN$/,
    );
  });
});

describe('operationCosts', () => {
  it('reads operation=tokens pairs', () => {
    expect(operationCosts('start=2, verify=1')).toEqual({ start: 2, verify: 1 });
  });

  it('refuses an operation given twice, as either cost would be a guess', () => {
    expect(() => operationCosts('start=1,start=2')).toThrow(
      'expected each operation once; got start twice in "start=1,start=2"',
    );
  });

  it('adds the pairs of another --cost to those of the one before', () => {
    expect(operationCosts('verify=3', { start: 2 })).toEqual({ start: 2, verify: 3 });
  });

  it('refuses an operation given again in another --cost', () => {
    expect(() => operationCosts('start=3', { start: 2 })).toThrow(
      'expected each operation once; got start in two --cost flags (start=2, then "start=3")',
    );
  });
});
