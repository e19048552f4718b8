import { describe, expect, it } from 'vitest';
import {
  readBucket,
  readCode,
  readInstant,
  readNumber,
  readTakeReply,
  readUserChanges,
  userChangeText,
  type UserChange,
  readVerifyReply,
  readWhole,
} from './redis-decoders.js';

const T0 = String(Date.UTC(2026, 0, 1));
const CODE = ['m-1', 'a@b.co', '123456', T0, String(Number(T0) + 600_000), '3', '0'];

describe('the fields of a hash, read as the scripts read them', () => {
  it('reads finite decimal numbers only', () => {
    for (const [text, value] of [
      ['1', 1],
      ['-1.5', -1.5],
      ['.5', 0.5],
      ['1e3', 1000],
      ['2.5E-1', 0.25],
    ] as const)
      expect(readNumber(text), text).toBe(value);
    for (const text of ['nan', 'inf', '-inf', '0x10', '', '-', 'abc', '1e999', ' 1', '1 ', null])
      expect(readNumber(text), String(text)).toBeUndefined();
  });

  it('reads a time only when a Date can show it', () => {
    expect(readInstant('8.64e15')).toBe(8.64e15);
    expect(readInstant('-8.64e15')).toBe(-8.64e15);
    expect(readInstant('8.7e15')).toBeUndefined();
    expect(readInstant('1e300')).toBeUndefined();
  });

  it('reads a counter as HINCRBY takes it, of 15 digits at most', () => {
    for (const [text, value] of [
      ['0', 0],
      ['-3', -3],
      ['123456789012345', 123456789012345],
    ] as const)
      expect(readWhole(text), text).toBe(value);
    for (const text of ['1.5', '01', '-0', '1234567890123456', '1e3', 'x', '', null])
      expect(readWhole(text), String(text)).toBeUndefined();
  });
});

describe('readBucket', () => {
  it('reads a bucket, its missing counters as none', () => {
    expect(readBucket(['2.5', T0, '3', null, '1'])).toEqual({
      tokens: 2.5,
      updatedAt: Number(T0),
      allowed: 3,
      rejected: 0,
      shadowRejected: 1,
    });
  });

  it('reads no bucket from a hash that is not one (written by something else)', () => {
    for (const fields of [
      [null, T0, null, null, null],
      ['nan', T0, null, null, null],
      ['1', 'inf', null, null, null],
      ['1', '9e15', null, null, null],
      ['1', T0, 'x', null, null],
      ['1', T0, null, '1.5', null],
    ])
      expect(readBucket(fields), JSON.stringify(fields)).toBeUndefined();
  });
});

describe('readCode', () => {
  it('reads a code with its attempts and whether it is used', () => {
    expect(readCode(CODE)).toEqual({
      merchantId: 'm-1',
      email: 'a@b.co',
      code: '123456',
      issuedAt: Number(T0),
      expiresAt: Number(T0) + 600_000,
      attemptsLeft: 3,
      used: false,
    });
    expect(readCode([...CODE.slice(0, 6), '1'])?.used).toBe(true);
  });

  it('reads no code from a hash that is not one', () => {
    const changed = (index: number, value: string | null) =>
      CODE.map((field, at) => (at === index ? value : field));
    for (const fields of [
      changed(0, null),
      changed(2, null),
      changed(3, 'abc'),
      changed(4, '1e99'),
      changed(5, 'three'),
      changed(6, '2'),
      [],
    ])
      expect(readCode(fields), JSON.stringify(fields)).toBeUndefined();
  });
});

describe("the scripts' replies", () => {
  it('reads the bucket before a take, none when the script found none', () => {
    expect(readTakeReply(['', '', T0])).toEqual({ stored: undefined, now: Number(T0) });
    expect(readTakeReply(['0.5', '12', T0])).toEqual({
      stored: { tokens: 0.5, updatedAt: 12 },
      now: Number(T0),
    });
  });

  it('reads the outcome of a verification with the code after it', () => {
    expect(readVerifyReply(['not-found'])).toEqual({ result: 'not-found' });
    expect(readVerifyReply(['verified', ...CODE])).toMatchObject({
      result: 'verified',
      code: { code: '123456', attemptsLeft: 3 },
    });
    expect(readVerifyReply(['wrong', ...CODE.slice(0, 5), '2', '0'])).toMatchObject({
      result: 'wrong',
      attemptsLeft: 2,
    });
  });

  it('reads a result it does not know as a wrong try, and a code that does not read back as none', () => {
    expect(readVerifyReply(['mystery', ...CODE])).toMatchObject({
      result: 'wrong',
      attemptsLeft: 3,
    });
    expect(readVerifyReply(['verified', 'm-1'])).toEqual({ result: 'not-found' });
  });
});

describe('readUserChanges', () => {
  it('keeps the batches that are JSON arrays', () => {
    expect(readUserChanges(['[{"email":"a@b.co"}]', 'junk', '{}', '[]', '7'])).toEqual([
      { type: 'users', users: [{ email: 'a@b.co' }] },
      { type: 'users', users: [] },
    ]);
  });

  it('reads a removal between batches, in the order they were kept', () => {
    const added: UserChange = { type: 'users', users: [{ email: 'a@b.co' }] };
    const removed: UserChange = { type: 'remove-user', email: 'a@b.co' };
    const texts = [added, removed, added].map(userChangeText);
    expect(texts[1]).toBe('["remove","a@b.co"]');
    expect(readUserChanges(texts)).toEqual([added, removed, added]);
  });
});
