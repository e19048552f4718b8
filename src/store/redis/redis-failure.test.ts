import { describe, expect, it } from 'vitest';
import { classifyFailure, errorLine, LateReply, onTime, selectRefusal } from './redis-failure.js';

const replyError = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });

describe('classifyFailure', () => {
  it('says a late or timed-out command did not answer in time, and that Redis is away', () => {
    for (const error of [new LateReply('late'), new Error('Command timed out')])
      expect(classifyFailure(error, 300, undefined)).toEqual({
        reason: 'did not answer within 300 ms',
        away: true,
      });
  });

  it('tells an error Redis answers while it cannot serve anyone from one it refuses a command with', () => {
    expect(classifyFailure(replyError('LOADING Redis is loading\nmore'), 1000, undefined)).toEqual({
      reason: 'answered with an error: LOADING Redis is loading',
      away: true,
    });
    expect(classifyFailure(replyError('OOM command not allowed'), 1000, undefined)).toEqual({
      reason: 'answered with an error: OOM command not allowed',
      away: false,
    });
  });

  it('says why the connection was lost rather than what ioredis says of it', () => {
    const closed = new Error('Connection is closed.');
    expect(classifyFailure(closed, 1000, 'connect ECONNREFUSED 127.0.0.1:1')).toEqual({
      reason: 'is not connected: connect ECONNREFUSED 127.0.0.1:1',
      away: true,
    });
    expect(classifyFailure(closed, 1000, undefined).reason).toBe('is not connected');
    expect(classifyFailure('boom', 1000, undefined)).toEqual({
      reason: 'failed: boom',
      away: true,
    });
  });
});

describe('errorLine', () => {
  const allFailed = (lastNodeError?: Error) =>
    Object.assign(new Error('Failed to refresh slots cache.'), {
      name: 'ClusterAllFailedError',
      lastNodeError,
    });

  it("says why a cluster's seed nodes failed, not only that the slots could not be read", () => {
    expect(errorLine(allFailed(replyError('ERR This instance has cluster support disabled')))).toBe(
      'no seed node of the cluster could be used; the last one tried: ERR This instance has cluster support disabled',
    );
    expect(errorLine(allFailed(replyError('WRONGPASS invalid username-password pair')))).toBe(
      'no seed node of the cluster could be used; the last one tried: WRONGPASS invalid username-password pair',
    );
    expect(errorLine(allFailed(new Error('Connection is closed.')))).toBe(
      'no seed node of the cluster could be reached',
    );
    expect(errorLine(allFailed())).toBe('no seed node of the cluster could be reached');
  });

  it('says a node that redirects every key is one of a cluster, to be given ?cluster=1', () => {
    expect(errorLine(replyError('MOVED 6688 127.0.0.1:7002'))).toBe(
      'MOVED 6688 127.0.0.1:7002 (a node of a Redis Cluster: give the URL ?cluster=1, see docs/redis.md)',
    );
    expect(errorLine(new Error('first line\nsecond'))).toBe('first line');
  });
});

describe('selectRefusal', () => {
  const refused = (message: string) =>
    Object.assign(replyError(message), { command: { name: 'select' } });

  it('says in words that a database does not exist, or cannot be selected', () => {
    expect(selectRefusal(refused('ERR DB index is out of range'), 99)).toBe(
      'database 99 does not exist (ERR DB index is out of range)',
    );
    expect(selectRefusal(refused('NOPERM no permission'), 3)).toBe(
      'database 3 cannot be selected (NOPERM no permission)',
    );
  });

  it('says nothing of an error of another command', () => {
    expect(selectRefusal(replyError('ERR DB index is out of range'), 1)).toBeUndefined();
    expect(selectRefusal(null, 1)).toBeUndefined();
  });
});

describe('onTime', () => {
  it("passes a reply on, and throws a LateReply for the scripts' 'late'", () => {
    expect(onTime(['1'])).toEqual(['1']);
    expect(() => onTime('late')).toThrow(LateReply);
  });
});
