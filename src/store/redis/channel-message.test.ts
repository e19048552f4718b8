import { describe, expect, it } from 'vitest';
import { readChannelMessage } from './channel-message.js';

const CONTEXT = { instance: 'me', eventsChannel: 'uas:events', readersHere: true };
const RECORD = {
  ...{ id: 1, at: Date.UTC(2026, 0, 1), method: 'GET', path: '/v1/users/exists' },
  ...{ fingerprint: 'f', status: 200, outcome: 'allowed' },
};
const send = (message: object) => JSON.stringify(message);

describe('readChannelMessage', () => {
  it('reads a change, a move of the clock and an event of another instance', () => {
    const change = { type: 'reset' };
    expect(readChannelMessage('uas:changes', send({ from: 'a', change }), CONTEXT)).toEqual({
      kind: 'change',
      change,
    });
    expect(readChannelMessage('uas:changes', send({ from: 'a', clock: 5 }), CONTEXT)).toEqual({
      kind: 'clock',
      ms: 5,
    });
    const event = { type: 'reset', bucket: 'client:demo', emulator: false };
    expect(readChannelMessage('uas:events', send({ from: 'a', event }), CONTEXT)).toEqual({
      kind: 'event',
      event,
    });
  });

  it('reads the version a config change was kept as, when it is a whole number above 0', () => {
    const change = { type: 'config', live: {} };
    const version = (value: unknown) =>
      readChannelMessage('uas:changes', send({ from: 'a', change, version: value }), CONTEXT);
    expect(version(3)).toEqual({ kind: 'change', change, version: 3 });
    for (const junk of [0, -1, 1.5, '3', 2 ** 60, null])
      expect(version(junk)).toEqual({ kind: 'change', change, version: undefined });
  });

  it('marks a request event with the instance that sent it, in 64 characters at most', () => {
    const from = 'x'.repeat(100);
    const heard = readChannelMessage(
      'uas:events',
      send({ from, event: { type: 'request', request: RECORD } }),
      CONTEXT,
    );
    expect(heard).toMatchObject({
      kind: 'event',
      event: { type: 'request', from: 'x'.repeat(64) },
    });
  });

  it('ignores its own messages, events while it has no reader, and what it cannot use', () => {
    const event = { type: 'reset', emulator: true };
    for (const [channel, text, context] of [
      ['uas:changes', send({ from: 'me', change: { type: 'reset' } }), CONTEXT],
      ['uas:events', send({ from: 'a', event }), { ...CONTEXT, readersHere: false }],
      ['uas:events', send({ from: 'a', event: { type: 'mystery' } }), CONTEXT],
      ['uas:changes', 'not json', CONTEXT],
      ['uas:changes', 'null', CONTEXT],
      ['uas:changes', '[]', CONTEXT],
      ['uas:changes', send({ from: 'a', clock: 'soon' }), CONTEXT],
      ['uas:changes', send({ from: 'a', change: 'reset' }), CONTEXT],
      ['uas:changes', `"${'x'.repeat(32 * 1_048_576)}"`, CONTEXT],
    ] as const)
      expect(readChannelMessage(channel, text, context), text.slice(0, 80)).toBeUndefined();
  });
});
