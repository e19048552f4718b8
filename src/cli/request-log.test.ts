import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { EmulatorEvent, RequestRecord } from '../core/records/records.js';
import { createRequestLogger, formatEvent } from './request-log.js';

const chalk = new Chalk({ level: 0 });

/** A record as `uas serve --upstream` journals a 429 of a hostile real service. */
const hostile = {
  id: 1,
  at: Date.UTC(2026, 0, 1),
  method: 'GET',
  path: '/v1/users/exists',
  caller_id: 'b\u001b]0;TITLE\u0007\u009b2J',
  caller_id_misplaced: [],
  bucket: '\u001b]0;TITLE\u0007caller:\u009b2J',
  status: 429,
  outcome: 'rate-limited',
  problem: 'urn:x:\u001b[31m\u009b2J\u2028',
} as unknown as RequestRecord;
const event: EmulatorEvent = { type: 'request', request: hostile } as EmulatorEvent;

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028]/;

describe('the request log of uas serve', () => {
  it('escapes the control characters of a bucket and problem the real service named (pretty)', () => {
    const line = formatEvent(event, chalk) ?? '';
    expect(line).not.toMatch(CONTROLS);
    expect(line).toContain('\\x1b]0;TITLE\\x07caller:\\x9b2J');
    expect(line).toContain('urn:x:\\x1b[31m\\x9b2J\\u2028');
  });

  it('says when an answer of the real service did not reach its client whole', () => {
    const cut = (upstream: unknown) =>
      formatEvent(
        {
          type: 'request',
          request: { ...hostile, bucket: 'client:demo', problem: undefined, status: 200, upstream },
        } as EmulatorEvent,
        chalk,
      );
    expect(cut({ answered_by: 'upstream', cut: 'upstream' })).toMatch(
      / 200 \(rate-limited\) \[cut short by the real service\]$/,
    );
    expect(cut({ answered_by: 'upstream', cut: 'client' })).toMatch(/\[client left\]$/);
    expect(cut({ answered_by: 'upstream', cut: 'shutdown' })).toMatch(/\[cut at shutdown\]$/);
    expect(cut({ answered_by: 'upstream' })).not.toContain('[');
  });

  it('escapes the C1 controls of a record in --log json, which still parses to the event', () => {
    const lines: string[] = [];
    const log = createRequestLogger(
      'json',
      { write: (text: string) => lines.push(text) } as never,
      chalk,
    );
    log?.(event);
    expect(lines).toHaveLength(1);
    // eslint-disable-next-line no-control-regex
    expect(lines[0]!.trimEnd()).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(JSON.parse(lines[0]!)).toEqual(JSON.parse(JSON.stringify(event)));
  });
});
