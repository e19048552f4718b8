import { describe, expect, it } from 'vitest';
import { redactAuthorization, redactSecret, redactUrlPassword } from './redact.js';

describe('redactUrlPassword', () => {
  it.each([
    ['redis://:hunter2@127.0.0.1:6379/0', 'redis://:***@127.0.0.1:6379/0'],
    ['redis://user:hunter2@host:6379/0', 'redis://user:***@host:6379/0'],
    ['rediss://user:p%40ss%2Fw%3Ard@host/1', 'rediss://user:***@host/1'],
    ['redis://us@er:hunter2@host', 'redis://us@er:***@host'],
    ['redis://user:@host', 'redis://user:***@host'],
    ['redis://user:a b@host', 'redis://user:***@host'],
  ])('hides the password of %s, and its length', (url, shown) => {
    expect(redactUrlPassword(url)).toBe(shown);
  });

  it.each([
    // Not URLs: the password has a "/" or an "@" in it, not percent-encoded.
    ['redis://:ab/cdefg@127.0.0.1:16392', 'redis://***@127.0.0.1:16392'],
    ['redis://:p@ss:w/rd#1@127.0.0.1:6379/0', 'redis://***@127.0.0.1:6379/0'],
    // URLs whose password a parser reads as a port and a path, query or fragment.
    ['redis://user:12/cd@host:6379/0', 'redis://***@host:6379/0'],
    ['redis://user:12#cd@host', 'redis://***@host'],
    ['redis://user:12?cd@host', 'redis://***@host'],
    ['redis://:pw@host/0@x', 'redis://***@x'],
    ['unix://:hunter2@/var/run/redis.sock', 'unix://***@/var/run/redis.sock'],
    // No "//": whatever comes before the last "@".
    ['redis:/:hunter2@host', 'redis:***@host'],
    [':hunter2@127.0.0.1:6379', '***@127.0.0.1:6379'],
  ])('hides everything between :// and the last @ of %s', (text, shown) => {
    expect(redactUrlPassword(text)).toBe(shown);
  });

  it.each(['redis://127.0.0.1:6379/0', 'unix:///var/run/redis.sock?db=1', 'memory', 'not a url'])(
    'gives %s back as it is',
    (text) => {
      expect(redactUrlPassword(text)).toBe(text);
    },
  );

  it.each([
    ['redis://127.0.0.1:6379/0?password=hunter2', 'redis://127.0.0.1:6379/0?password=***'],
    ['redis://h:1?cluster=1&PASSWORD=hunter2#x', 'redis://h:1?cluster=1&PASSWORD=***#x'],
    ['redis://:pw@h/0?auth=hunter2&db=1', 'redis://:***@h/0?auth=***&db=1'],
  ])('hides the value of a password field in the query of %s', (url, shown) => {
    expect(redactUrlPassword(url)).toBe(shown);
  });

  it('hides user information without a colon, which clients such as redis-cli take for a password', () => {
    expect(redactUrlPassword('redis://Hunter2Secret@127.0.0.1:1/0')).toBe(
      'redis://***@127.0.0.1:1/0',
    );
  });

  it('shows no part of a password nor its length, whatever characters it holds', () => {
    const alphabet = 'aZ9/:@#?%.+-_ ~!$&()*,;=[]';
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let index = 0; index < 500; index++) {
      const length = 6 + (next() % 20);
      let password = '';
      while (password.length < length) password += alphabet[next() % alphabet.length];
      // A marker inside the password: it must not survive, whatever the parser made of the rest.
      password = `${password.slice(0, 3)}SECRET${password.slice(3)}`;
      for (const user of ['', 'user']) {
        const shown = redactUrlPassword(`redis://${user}:${password}@10.0.0.1:6379/0`);
        expect(shown, password).not.toContain('SECRET');
        expect(shown, password).not.toMatch(/\d+ chars/);
        expect(shown, password).toMatch(/^redis:\/\/(user:|:)?\*\*\*@10\.0\.0\.1:6379\/0$/);
      }
    }
  });
});

describe('redactSecret', () => {
  it('shows the first four characters and the length of a long access token only', () => {
    expect(redactSecret('uas-0123456789abcdef')).toBe('uas-…(20 chars)');
    expect(redactSecret('hunter2-hunter2')).toBe('…(15 chars)');
    expect(redactAuthorization('Bearer uas-0123456789abcdef')).toBe('Bearer uas-…(20 chars)');
  });
});
