import { describe, expect, it } from 'vitest';
import { requestRecord } from '../../../test/helpers/request-record.js';
import { readEvent } from './read-event.js';

const CODE = {
  merchant_id: 'm',
  email: 'a@example.com',
  code: '123456',
  issued_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-01-01T00:10:00.000Z',
  attempts_left: 5,
  used: false,
};

describe('readEvent', () => {
  it('takes every event the emulator sends, as it sent it', () => {
    const request = JSON.parse(JSON.stringify(requestRecord({ id: 7 })));
    expect(readEvent({ type: 'request', request })).toEqual({ type: 'request', request });
    expect(readEvent({ type: 'request', request, from: 'instance-b' })).toMatchObject({
      from: 'instance-b',
    });
    expect(readEvent({ type: 'code', code: CODE })).toEqual({ type: 'code', code: CODE });
    expect(readEvent({ type: 'reset', emulator: true })).toEqual({
      type: 'reset',
      bucket: undefined,
      emulator: true,
    });
    const config = { type: 'config', limits: {}, behavior: {}, otp: {} };
    expect(readEvent(config)).toEqual(config);
    expect(readEvent({ type: 'users', added: 3 })).toEqual({
      type: 'users',
      added: 3,
      removed: undefined,
    });
    const removed = { type: 'users', added: 0, removed: 'a@example.com' };
    expect(readEvent(removed)).toEqual(removed);
  });

  it.each([
    ['not an object', 'zz'],
    ['an unknown type', { type: 'mystery' }],
    ['a type that would break an SSE frame', { type: 'request\ndata: injected' }],
    ['a request that is not a record', { type: 'request', request: 'zz' }],
    [
      'a request past the last date',
      { type: 'request', request: { ...requestRecord(), at: 9e15 } },
    ],
    ['a code with a time that is not one', { type: 'code', code: { ...CODE, issued_at: 'soon' } }],
    ['a code that is not digits', { type: 'code', code: { ...CODE, code: '12ab' } }],
    ['a reset of a bucket that is not text', { type: 'reset', bucket: 7, emulator: false }],
    ['a config without its parts', { type: 'config', limits: {} }],
    ['users added a fraction of', { type: 'users', added: 1.5 }],
    ['users removed by something else than text', { type: 'users', added: 0, removed: 7 }],
  ])('refuses %s', (_name, value) => {
    expect(readEvent(value)).toBeUndefined();
  });
});
