import { describe, expect, it } from 'vitest';
import { createInputRules } from './input-rules.js';
import { setOwnField } from './own-field.js';
import { readExistsInput } from './request-input.js';

const rules = createInputRules(64);

/** The fields URLSearchParams reads from a query, the first of each name kept, and repeats. */
function expected(query: string) {
  const fields: Record<string, string> = {};
  const counts = new Map<string, number>();
  for (const [name, value] of new URLSearchParams(query)) {
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (!Object.hasOwn(fields, name)) setOwnField(fields, name, value);
  }
  return { fields, counts };
}

const QUERIES = [
  '',
  'email=alice%40example.com',
  'email=alice@example.com&caller_id=u-1',
  'email=a%2Bb%40example.com&caller_id=a+b',
  'email=alice%40example.com&email=bob%40example.com',
  'caller_id=1&caller_id=2&caller_id=3&email=a@b.co',
  '&&email=a@b.co&&',
  '=x&email',
  'email=&caller_id',
  'email==a@b.co',
  'e%6dail=a@b.co',
  'email=%E0%A4%A&caller_id=%ZZ',
  'email=%C3%A9@b.co&caller_id=%F0%9F%98%80',
  'constructor=1&toString=2&email=a@b.co',
  '__proto__=x&__proto__=y&email=a@b.co',
  'caller%5Fid=u&email=a@b.co',
  'email=a@b.co&phone_number=%2B15550100',
];

describe('readExistsInput', () => {
  it.each(QUERIES)('reads %j as URLSearchParams does', (query) => {
    const { fields, counts } = expected(query);
    const input = readExistsInput(query, rules, '/v1/users/exists');
    expect(Object.entries(input.fields ?? {})).toEqual(Object.entries(fields));
    const repeated = [...counts].filter(
      ([name, count]) => count > 1 && ['email', 'phone_number', 'caller_id'].includes(name),
    );
    if (repeated.length > 0) {
      expect(input.ok).toBe(false);
      if (!input.ok) {
        expect(input.problem.type).toMatch(/duplicate-parameter$/);
        for (const [name, count] of repeated)
          expect(input.problem.detail).toContain(`${name} is given ${count} times`);
      }
    }
  });

  it('takes a valid e-mail and caller_id', () => {
    const input = readExistsInput('email=alice%40example.com&caller_id=u-1', rules, '/x');
    expect(input).toMatchObject({
      ok: true,
      callerId: 'u-1',
      input: { operation: 'exists', email: 'alice@example.com', caller_id: 'u-1' },
    });
  });
});
