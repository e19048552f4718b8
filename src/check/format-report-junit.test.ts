import { describe, expect, it } from 'vitest';
import { hostileRecords } from '../../test/helpers/check-records.js';
import { checkIntegration } from './check-integration.js';
import { formatReportJunit } from './format-report-junit.js';

describe('formatReportJunit', () => {
  const xml = formatReportJunit(checkIntegration(hostileRecords()));

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
