import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { requestRecord } from '../../test/helpers/request-record.js';
import type { AnswerCut, UpstreamFacts } from '../core/records/records.js';
import { upstreamFacts } from '../core/service/upstream-answer.js';
import { RecentRequests } from './recent-requests.js';

const upstream = (cut: AnswerCut | undefined): UpstreamFacts => ({ ...upstreamFacts(), cut });

describe('RecentRequests', () => {
  it('says an answer the real service cut short, or its client left, whatever its status line said', () => {
    const records = [
      requestRecord({ id: 3, caller_id: 'whole', upstream: upstream(undefined) }),
      requestRecord({ id: 2, caller_id: 'left', upstream: upstream('client') }),
      requestRecord({
        id: 1,
        caller_id: 'cut',
        outcome: 'upstream-failed',
        upstream: upstream('upstream'),
      }),
    ];
    const screen = render(<RecentRequests records={records} rows={3} columns={80} />);
    const lines = (screen.lastFrame() ?? '').split('\n');
    screen.unmount();
    expect(lines[1]).toMatch(/ whole +200$/);
    expect(lines[2]).toMatch(/ left +200 \[client left\]$/);
    expect(lines[3]).toMatch(/ cut +200 \[cut by the real service\]$/);
  });
});
