import { escapeControls } from './escape-controls.js';

/** A test case of a JUnit report: passed, failed (with its lines), or skipped (with why). */
export interface JunitCase {
  name: string;
  failure?: { message: string; type?: string; lines: string[] } | undefined;
  skipped?: string | undefined;
}

/**
 * A JUnit XML report of one suite, for CI (`uas check --junit`, `uas conform --junit`). Every
 * text is escaped for XML; control characters, which XML 1.0 cannot hold at all, are written as
 * `\xNN`.
 */
export function junitXml(
  /** `title` names the report, `name` its one suite, `classname` every case. */
  suite: { title: string; name: string; classname: string },
  cases: JunitCase[],
): string {
  const failures = cases.filter((entry) => entry.failure !== undefined).length;
  const skipped = cases.filter((entry) => entry.failure === undefined && entry.skipped).length;
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suite.title)}" ${counts}>`,
    `  <testsuite name="${xml(suite.name)}" ${counts}>`,
  ];
  for (const entry of cases) {
    const open = `    <testcase classname="${xml(suite.classname)}" name="${xml(entry.name)}"`;
    const { failure } = entry;
    if (failure !== undefined) {
      const type = failure.type === undefined ? '' : ` type="${xml(failure.type)}"`;
      lines.push(
        `${open}>`,
        `      <failure${type} message="${xml(failure.message)}">${failure.lines.map(xml).join('\n')}</failure>`,
        '    </testcase>',
      );
    } else if (entry.skipped !== undefined)
      lines.push(`${open}>`, `      <skipped message="${xml(entry.skipped)}"/>`, '    </testcase>');
    else lines.push(`${open}/>`);
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

/** Escapes text for XML content and attributes, after making control characters visible. */
function xml(text: string): string {
  return (
    escapeControls(text, { keepNewlines: false })
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // A lone surrogate, U+FFFE and U+FFFF are not XML characters either.
      .replace(
        /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g,
        '\ufffd',
      )
  );
}
