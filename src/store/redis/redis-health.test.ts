import { describe, expect, it } from 'vitest';
import { isStoreUnavailable } from '../../core/store/emulator-store.js';
import { createRedisHealth } from './redis-health.js';
import type { StoreStatus } from './store-modes.js';

const DISPLAY = 'redis://127.0.0.1:6379/0';

function health() {
  const statuses: StoreStatus[] = [];
  const created = createRedisHealth({
    display: DISPLAY,
    timeoutMs: 200,
    onStatus: (status) => statuses.push(status),
  });
  return { health: created, statuses };
}

describe('createRedisHealth', () => {
  it('says nothing of a loss before the connections are made, then says each change once', () => {
    const { health: h, statuses } = health();
    h.markDown('gone');
    expect(statuses).toEqual([]);
    expect(h.state.healthy).toBe(true);
    h.connected();
    h.markDown('gone');
    h.markDown('gone again');
    h.markUp();
    h.markUp();
    expect(statuses).toEqual([{ state: 'down', error: 'gone' }, { state: 'up' }]);
  });

  it('turns a failed command into a 503 in words, and marks Redis down only when it is away', async () => {
    const { health: h, statuses } = health();
    h.connected();
    const oom = Object.assign(new Error('OOM command not allowed'), { name: 'ReplyError' });
    const refused = await h.command(() => Promise.reject(oom)).catch((error: unknown) => error);
    expect(isStoreUnavailable(refused)).toBe(true);
    expect((refused as Error).message).toBe(
      `Redis at ${DISPLAY} answered with an error: OOM command not allowed`,
    );
    expect(statuses).toEqual([]);
    await expect(h.command(() => Promise.reject(new Error('Command timed out')))).rejects.toThrow(
      `Redis at ${DISPLAY} did not answer within 200 ms`,
    );
    expect(statuses).toEqual([{ state: 'down', error: 'did not answer within 200 ms' }]);
    expect(await h.command(async () => 7)).toBe(7);
    expect(h.state.healthy).toBe(true);
  });

  it('keeps Redis up when a read fails: a slow listing is not Redis going away', async () => {
    const { health: h, statuses } = health();
    h.connected();
    await expect(h.read(() => Promise.reject(new Error('Command timed out')))).rejects.toThrow(
      `Redis at ${DISPLAY} did not answer within 200 ms`,
    );
    expect(statuses).toEqual([]);
  });

  it('says why the connection was lost, and a refused database above all', () => {
    const { health: h, statuses } = health();
    h.connected();
    h.connectionError(new Error('connect ECONNREFUSED 127.0.0.1:6379'), undefined);
    h.connectionError(new Error('Connection is closed.'), undefined);
    expect(h.failure(new Error('Connection is closed.')).reason).toBe(
      'is not connected: connect ECONNREFUSED 127.0.0.1:6379',
    );
    expect(statuses).toEqual([{ state: 'down', error: 'connect ECONNREFUSED 127.0.0.1:6379' }]);
    h.connectionError(new Error('NOPERM'), 'database 3 cannot be selected (NOPERM)');
    h.connectionError(new Error('Connection is closed.'), undefined);
    expect(h.startFailure(new Error('Connection is closed.')).message).toBe(
      `Redis at ${DISPLAY}: database 3 cannot be selected (NOPERM)`,
    );
    h.connecting();
    h.ready();
    expect(h.startFailure(new Error('Connection is closed.')).message).toBe(
      `cannot reach Redis at ${DISPLAY}: Connection is closed.`,
    );
    expect(statuses.at(-1)).toEqual({ state: 'up' });
  });

  it('asks whether the port takes TLS when a rediss:// URL timed out at start', () => {
    const tls = createRedisHealth({ display: 'rediss://127.0.0.1:6379/0', timeoutMs: 200 });
    tls.connectionError(new Error('connect ETIMEDOUT'), undefined);
    expect(tls.startFailure(new Error('Connection is closed.')).message).toBe(
      'cannot reach Redis at rediss://127.0.0.1:6379/0: connect ETIMEDOUT (does that port take TLS? rediss:// connects with TLS)',
    );
    const plain = createRedisHealth({ display: DISPLAY, timeoutMs: 200 });
    plain.connectionError(new Error('connect ETIMEDOUT'), undefined);
    expect(plain.startFailure(new Error('Connection is closed.')).message).toBe(
      `cannot reach Redis at ${DISPLAY}: connect ETIMEDOUT`,
    );
  });

  it('counts the bucket decisions let through while Redis was away', () => {
    const { health: h } = health();
    h.failedOpen();
    h.failedOpen();
    expect(h.state.failedOpen).toBe(2);
  });
});
