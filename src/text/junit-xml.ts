import { escapeControls } from './escape-controls.js';

/**
 * A test case of a JUnit report: passed, failed (with its lines), or skipped (with why); a passed
 * or failed one may carry lines of output (`<system-out>`).
 */
export interface JunitCase {
  name: string;
  failure?: { message: string; type?: string; lines: string[] } | undefined;
  skipped?: string | undefined;
  systemOut?: string[] | undefined;
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
    const inside: string[] = [];
    const { failure } = entry;
    if (failure !== undefined) {
      const type = failure.type === undefined ? '' : ` type="${xml(failure.type)}"`;
      inside.push(
        `      <failure${type} message="${xml(failure.message)}">${failure.lines.map(xml).join('\n')}</failure>`,
      );
    } else if (entry.skipped !== undefined)
      inside.push(`      <skipped message="${xml(entry.skipped)}"/>`);
    if (entry.systemOut !== undefined && entry.skipped === undefined)
      inside.push(`      <system-out>${entry.systemOut.map(xml).join('\n')}</system-out>`);
    if (inside.length === 0) lines.push(`${open}/>`);
    else lines.push(`${open}>`, ...inside, '    </testcase>');
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
