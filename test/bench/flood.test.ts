import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const FLOOD = ['--expose-gc', 'bench/flood.mjs'];

describe('npm run bench:flood', () => {
  it('does not call the budget of a million live buckets met by a flood too small to reach it', async () => {
    const { stdout } = await run(process.execPath, [...FLOOD, '--count', '12']);
    const budget = stdout.split('\n').find((line) => line.startsWith('budget:'));
    expect(budget).toMatch(
      /^budget: 1,000,000 live caller buckets under 150 MB \(heap \+ array buffers\): not judged, 12 requests held at most 12 live buckets \(\d+\.\d MB at the peak\); --count 1000000 or more judges it$/,
    );
    // A row every eighth of the flood (12 / 8: every request), the last one at its end.
    const rows = stdout.split('\n').filter((line) => /^ {2}\d+ /.test(line));
    expect(rows.map((row) => Number(row.trim().split(/\s+/)[0]))).toEqual([
      ...Array.from({ length: 12 }, (_, index) => index + 1),
      ...Array.from({ length: 12 }, (_, index) => index + 1),
    ]);
  });

  it('refuses a --count that is not a whole number of requests, in one line', async () => {
    for (const count of ['abc', '0', '1e6', '-5']) {
      const failed = await run(process.execPath, [...FLOOD, `--count=${count}`]).catch(
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed, count).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `bench:flood: --count must be a whole number of requests from 1 to 999999999, not "${count}"\n`,
      });
    }
  });
});
