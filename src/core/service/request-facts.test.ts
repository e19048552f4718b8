import { describe, expect, it } from 'vitest';
import { RECORD_TEXT_MAX } from '../records/records.js';
import { blankRecord, clip, completeRecord, deferFacts } from './request-facts.js';

const TOKEN = 'uas-demo-token'; // 14 characters: its redacted form shows none of them
const LONG = 'sk_live_0123456789abcdef'; // 24: its redacted form shows the first 4
const ADMIN = 'Adm"in\\Tok123'; // printable ASCII, as --admin-token allows: JSON escapes two of them

/** A record of a request whose fields were `fields`, completed as the journal and --record do. */
function recorded(fields: Record<string, unknown>, place: 'query' | 'body' = 'query') {
  const record = blankRecord(1, 0, 'GET', '/v1/users/exists');
  deferFacts(record, fields, place, undefined);
  return JSON.stringify(completeRecord(record, [TOKEN, LONG, ADMIN]));
}

/** Every start of `secret` longer than its redacted form shows. */
function startsOf(secret: string): string[] {
  const shown = secret.length >= 16 ? 4 : 0;
  return Array.from({ length: secret.length - shown }, (_, index) =>
    secret.slice(0, shown + index + 1),
  );
}

describe('completeRecord: secrets', () => {
  it.each([TOKEN, LONG, ADMIN])(
    'keeps no start of %s that the 256-character clip cut short, wherever the cut falls',
    (secret) => {
      for (let pad = RECORD_TEXT_MAX - secret.length; pad < RECORD_TEXT_MAX; pad++) {
        const text = `${'a'.repeat(pad)}${secret}`;
        const record = blankRecord(1, 0, 'GET', '/v1/users/exists');
        record.user_agent = clip(text);
        deferFacts(
          record,
          { email: 'alice@example.com', x: text, [text]: '1' },
          'query',
          undefined,
        );
        const shown = completeRecord(record, [TOKEN, LONG, ADMIN]);
        const texts = [shown.user_agent!, ...Object.keys(shown.fields!), String(shown.fields!.x)];
        for (const value of texts)
          for (const start of startsOf(secret))
            expect(value.endsWith(`${start}…`), `${pad}: ${value.slice(-30)}`).toBe(false);
      }
    },
  );

  it('leaves a clipped text alone when its end starts no secret', () => {
    const text = 'b'.repeat(RECORD_TEXT_MAX + 10);
    expect(recorded({ x: text })).toContain(`"x":"${'b'.repeat(RECORD_TEXT_MAX - 1)}…"`);
  });

  it('redacts a secret that JSON escapes in a nested value (an admin token with " or \\)', () => {
    const shown = recorded(
      { email: 'alice@example.com', nested: { a: [ADMIN] }, callerId: { b: ADMIN } },
      'body',
    );
    expect(shown).toContain('…(13 chars)');
    expect(shown).not.toContain('Tok123');
  });
});
