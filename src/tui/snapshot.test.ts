import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { requestRecord } from '../../test/helpers/request-record.js';
import { upstreamFacts } from '../core/service/upstream-answer.js';
import { formatSnapshot } from './snapshot.js';

describe('formatSnapshot', () => {
  it('says a request whose answer the real service cut short, whatever its status line said', () => {
    const cut = requestRecord({
      caller_id: 'cutme',
      outcome: 'upstream-failed',
      upstream: { ...upstreamFacts(), cut: 'upstream' },
    });
    const text = formatSnapshot(
      {
        target: 'http://127.0.0.1:4010',
        uptime_ms: null,
        total_buckets: 0,
        buckets: [],
        recent: [cut],
      },
      new Chalk({ level: 0 }),
    );
    expect(text).toContain('GET /v1/users/exists - 200 [cut by the real service]');
  });
});
