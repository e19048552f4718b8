import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordMaker } from '../helpers/check-records.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'uas-check-paging-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const make = recordMaker();
const RECORDS = [0, 1].map((index) =>
  make({ at: index, email: `s${index}@example.com`, callerId: `203.0.113.${index + 1}` }),
);

/** A saved `GET /__uas/requests` answer with these paging fields; returns its path. */
function savedAnswer(name: string, paging: string): string {
  const path = join(dir, name);
  writeFileSync(path, `{"requests":${JSON.stringify(RECORDS)},${paging}}`);
  return path;
}

describe('uas check --journal of a saved GET /__uas/requests answer', () => {
  it('warns of the requests the journal had dropped, as --url does', async () => {
    const path = savedAnswer('dropped.json', '"dropped":7,"next_after_id":null');
    const result = await runCli(['check', '--json', '--journal', path]);
    const warning =
      'the journal had let 7 older requests go; they are not judged (uas serve --journal-size unbounded keeps them all)';
    expect(JSON.parse(result.stdout)).toMatchObject({ dropped: 7, warnings: [warning] });
    expect(result.stderr).toBe(`uas: ${warning}\n`);
  });

  it('warns that a page with a next_after_id left the later requests out', async () => {
    const path = savedAnswer('page.json', '"dropped":0,"next_after_id":2');
    const result = await runCli(['check', '--json', '--journal', path, '--fail-on', 'warn']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      warnings: [
        `the recording ${path} is one page of GET /__uas/requests: the requests after #2 were not in it and are not judged (uas check --url reads every page)`,
      ],
    });
  });

  it('refuses paging fields that are not counts, in one line, exit 2', async () => {
    const path = savedAnswer('bad.json', '"dropped":-1,"next_after_id":null');
    const result = await runCli(['check', '--journal', path]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `uas: recording ${path} holds {"requests": [...]} with a dropped that is not a whole number from 0 up (-1)\n`,
    });
  });
});
