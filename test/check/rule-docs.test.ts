import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkIntegration } from '../../src/check/check-integration.js';
import { formatReportJunit } from '../../src/check/format-report-junit.js';
import { formatReportMarkdown } from '../../src/check/format-report-markdown.js';
import { formatReportText } from '../../src/check/format-report-text.js';
import { NO_COLORS } from '../../src/check/report-colors.js';
import { CHECK_RULES } from '../../src/check/rule-catalog.js';
import { ruleDocsLink } from '../../src/check/rule-docs.js';
import { anchorsOf } from '../docs/doc-links.js';
import { hostileRecords } from '../helpers/check-records.js';

// A finding cites a rule of a spec the user does not have; it also links to the section of
// docs/check-rules.md that quotes that rule, says what was found and how to fix it.

const page = readFileSync(new URL('../../docs/check-rules.md', import.meta.url), 'utf8');
const sections = new Map(
  page
    .split(/^## /m)
    .slice(1)
    .map((section) => [section.slice(0, section.indexOf('\n')).trim(), section] as const),
);
const words = (text: string) => text.replace(/\s+/g, ' ');

describe('the link of each rule to its section of docs/check-rules.md', () => {
  it.each(CHECK_RULES.map((rule) => [rule.id, rule] as const))(
    'leads to a section of that page for %s',
    (id, rule) => {
      const link = ruleDocsLink(id);
      expect(link).toBe(`docs/check-rules.md#${id}`);
      // GitHub's anchor of a heading: lower case, spaces as hyphens; a rule id is one already.
      expect(anchorsOf(page)).toContain(link.split('#')[1]);
      const section = sections.get(id);
      expect(section, `a section headed "## ${id}"`).toBeDefined();
      expect(section).toContain(`**${rule.severity}**.`);
      expect(words(section!)).toContain(words(rule.fix));
      expect(section).toMatch(/^> /m);
    },
  );

  it.each([...sections.keys()])(
    'quotes, in %s, the spec rules it cites under the numbers the spec gives them',
    (id) => {
      // "rules 1 and 3:" then the quote: its numbered items must read 1 and 3 (a Markdown list
      // renumbers the items of one list from its first, so each rule is quoted as a list of its own).
      const lines = sections.get(id)!.split('\n');
      for (const [index, line] of lines.entries()) {
        const cited = /\brules? (\d+)(?: and (\d+))?:$/.exec(line);
        if (cited === null) continue;
        const quoted: string[] = [];
        for (const next of lines.slice(index + 1)) {
          if (next !== '' && !next.startsWith('>')) break;
          const item = /^> (\d+)\. /.exec(next);
          if (item !== null) quoted.push(item[1]!);
        }
        expect(quoted, `${id}: ${line}`).toEqual(cited.slice(1).filter(Boolean));
      }
    },
  );

  it('has a section for every rule, and none for a rule that does not exist', () => {
    expect([...sections.keys()].sort()).toEqual(CHECK_RULES.map((rule) => rule.id).sort());
  });
});

describe('every report format', () => {
  const report = checkIntegration(hostileRecords());
  const link = 'docs/check-rules.md#caller-id-missing';

  it('gives each finding the link to its rule, in the JSON too', () => {
    expect(report.findings.length).toBeGreaterThan(1);
    for (const finding of report.findings) expect(finding.docs).toBe(ruleDocsLink(finding.rule));
  });

  it('shows the link beside the spec it cites, in text, JUnit and Markdown', () => {
    const text = formatReportText(report, NO_COLORS);
    expect(text).toContain(`  spec: §1 `);
    expect(text).toContain(`\n  docs: ${link}\n`);
    expect(formatReportJunit(report)).toContain(`\ndocs: ${link}\n`);
    expect(formatReportMarkdown(report)).toContain(`\n- **Docs:** \`${link}\`\n`);
  });
});
