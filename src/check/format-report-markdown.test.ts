import { describe, expect, it } from 'vitest';
import { hostileRecords, politeShoppers } from '../../test/helpers/check-records.js';
import { checkIntegration } from './check-integration.js';
import { formatReportMarkdown } from './format-report-markdown.js';

describe('formatReportMarkdown', () => {
  const markdown = formatReportMarkdown(checkIntegration(hostileRecords()));

  it('opens with the verdict and a table of every rule and its status', () => {
    expect(markdown.startsWith('### uas check: 2 errors, 1 warning\n')).toBe(true);
    expect(markdown).toContain('| Rule | Severity | Status |');
    expect(markdown.match(/^\| `[a-z0-9-]+` \| (error|warn) \| /gm)).toHaveLength(14);
    expect(markdown).toContain('| `caller-id-missing` | error | ❌ failed |');
    expect(markdown).toContain('| `caller-id-internal-ip` | warn | ⚠️ failed |');
    expect(markdown).toContain('| `unauthenticated` | error | ✅ passed |');
    expect(markdown).toMatch(/\| `retry-cap-exceeded` \| error \| ⏭️ not exercised: no request/);
  });

  it('gives each finding its evidence, spec and fix, worst first', () => {
    const missing = markdown.indexOf('#### ❌ `caller-id-missing` (error)');
    const shared = markdown.indexOf('#### ❌ `caller-id-shared` (error)');
    const internal = markdown.indexOf('#### ⚠️ `caller-id-internal-ip` (warn)');
    expect(missing).toBeGreaterThan(0);
    expect(shared).toBeGreaterThan(missing);
    expect(internal).toBeGreaterThan(shared);
    expect(markdown).toContain('- **Evidence:** 1 (judged 6); requests #1');
    expect(markdown).toContain('  - `127.0.0.1 (loopback)`');
    expect(markdown).toMatch(/- \*\*Spec:\*\* §1 /);
    expect(markdown).toMatch(/- \*\*Fix:\*\* Send caller\\_id on every request/);
  });

  it('names each request of the evidence by its method, path, status, time and fields', () => {
    expect(markdown).toContain(
      '  - `#1 2026-01-01T00:00:00.000Z GET /v1/users/exists 200 {"email":"victim@example.com"}`\n',
    );
  });

  it('puts a failed command in the verdict', () => {
    const clean = checkIntegration(politeShoppers());
    const command = {
      exit_code: null,
      signal: 'SIGTERM',
      stopped_by: 'timeout' as const,
      left_running: false,
      failed: true,
      message: 'the command ran longer than --timeout 1s and was stopped',
    };
    const failed = formatReportMarkdown(clean, { command });
    expect(failed.split('\n')[0]).toBe(
      '### uas check: no findings; the command ran longer than --timeout 1s and was stopped',
    );
  });

  it('keeps request values from adding links, images, HTML or cells', () => {
    // A value is a code span: nothing inside is markup, and the fence outlasts the backticks.
    expect(markdown).toContain(
      '  - ``\\x1b]0;pwned\\x07<b>&"x"</b> ![img](http://evil.test/t.png) `tick` | cell (4 end-users)``',
    );
    // The message quotes it as text, with every markup character escaped.
    const message = markdown.split('\n').find((line) => line.startsWith('1 caller\\_id value'));
    expect(message).toContain('\\<b\\>\\&');
    expect(message).toContain('\\!\\[img\\]');
    expect(message).toContain('\\`tick\\` \\| cell');
    // Outside code spans no raw tag is left.
    expect(markdown.replace(/``.*``/g, '')).not.toContain('<b>');
  });

  it('says a clean run has no findings', () => {
    const clean = formatReportMarkdown(checkIntegration(politeShoppers()));
    expect(clean.startsWith('### uas check: no findings\n')).toBe(true);
    expect(clean).not.toContain('####');
  });
});
