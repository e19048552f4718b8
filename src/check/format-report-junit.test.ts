import { describe, expect, it } from 'vitest';
import { hostileRecords, politeShoppers } from '../../test/helpers/check-records.js';
import { checkIntegration } from './check-integration.js';
import type { CommandOutcome } from './command-outcome.js';
import { formatReportJunit } from './format-report-junit.js';

describe('formatReportJunit', () => {
  const report = checkIntegration(hostileRecords());
  const xml = formatReportJunit(report, { failOn: 'warn' });

  it('has one test case per rule, with the counts on the suite', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')).toBe(true);
    expect(xml.match(/<testcase /g)).toHaveLength(14);
    expect(xml).toContain(
      '<testsuite name="uas check" tests="14" failures="3" errors="0" skipped="8">',
    );
    expect(xml).toContain('<testcase classname="uas.check" name="unauthenticated"/>');
  });

  it('fails failed rules with their severity and evidence, and skips those not exercised', () => {
    expect(xml).toMatch(
      /<testcase classname="uas.check" name="caller-id-missing">\n\s+<failure type="error" message="1 request of 6 sent no caller_id, so they shared the client bucket">[^<]*evidence: 1; requests #1\n[^<]*fix: Send caller_id/,
    );
    expect(xml).toContain('<failure type="warn" message="1 request used an internal address');
    expect(xml).toMatch(
      /name="retry-cap-exceeded">\n\s+<skipped message="not exercised: no request was refused 3 times in a row, so the cap was never reached"\/>/,
    );
  });

  it('names each request of the evidence by its method, path, status, time and fields', () => {
    expect(xml).toContain(
      '  #1 2026-01-01T00:00:00.000Z GET /v1/users/exists 200 {&quot;email&quot;:&quot;victim@example.com&quot;}\n',
    );
  });

  it('fails only the findings at --fail-on or worse; one below it passes, told in system-out', () => {
    const lenient = formatReportJunit(report);
    expect(lenient).toContain(
      '<testsuite name="uas check" tests="14" failures="2" errors="0" skipped="8">',
    );
    expect(lenient).toMatch(/<failure type="error" message="1 request of 6 sent no caller_id/);
    expect(lenient).not.toContain('<failure type="warn"');
    expect(lenient).toMatch(
      /<testcase classname="uas.check" name="caller-id-internal-ip">\n\s+<system-out>warn: below --fail-on\n1 request used an internal address[^<]*<\/system-out>\n\s+<\/testcase>/,
    );
  });

  it('adds a test case for the command, failed when the command failed', () => {
    const exited = (code: number): CommandOutcome => ({
      exit_code: code,
      signal: null,
      stopped_by: null,
      left_running: false,
      failed: code !== 0,
      message: `the command exited ${code}`,
    });
    const clean = checkIntegration(politeShoppers());
    const failed = formatReportJunit(clean, { command: exited(3) });
    expect(failed).toContain('tests="15" failures="1"');
    expect(failed).toMatch(
      /<testcase classname="uas.check" name="command">\n\s+<failure type="command" message="the command exited 3">the command exited 3\nexit code: 3; signal: none; stopped by uas: no<\/failure>/,
    );
    const passed = formatReportJunit(clean, { command: exited(0) });
    expect(passed).toContain('tests="15" failures="0"');
    expect(passed).toMatch(/name="command">\n\s+<system-out>the command exited 0\n/);
  });

  it('escapes markup and control characters from requests', () => {
    expect(xml).toContain('\\x1b]0;pwned\\x07&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;');
    expect(xml).not.toContain('<b>');
    // eslint-disable-next-line no-control-regex -- XML 1.0 cannot hold these at all
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    const opened = xml.match(/<(testsuites|testsuite|testcase|failure)[ >]/g)?.length ?? 0;
    const closed = xml.match(/<\/(testsuites|testsuite|testcase|failure)>/g)?.length ?? 0;
    const selfClosed = xml.match(/<testcase [^>]*\/>/g)?.length ?? 0;
    expect(opened - selfClosed).toBe(closed);
  });
});
