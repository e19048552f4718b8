import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { endCutLine } from './end-cut-line.js';

describe('endCutLine', () => {
  const folder = mkdtempSync(join(tmpdir(), 'uas-cut-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  let files = 0;
  const fileWith = (text: string) => {
    const path = join(folder, `requests-${files++}.ndjson`);
    writeFileSync(path, text);
    return path;
  };

  it('ends a line cut short with a loss line, a whole last line with its newline alone', () => {
    const cut = fileWith('{"id":1}\n{"id":2,"pa');
    endCutLine(cut);
    const [, piece, loss] = readFileSync(cut, 'utf8').split('\n');
    expect(piece).toBe('{"id":2,"pa');
    expect(JSON.parse(loss!)).toMatchObject({
      uas_recording: 'loss',
      lost: 1,
      reason: 'cut-short',
    });
    const whole = fileWith('{"id":1}');
    endCutLine(whole);
    expect(readFileSync(whole, 'utf8')).toBe('{"id":1}\n');
  });

  it('ends the last line of a file it may write but not read with a newline, never gluing to it', () => {
    const path = fileWith('{"id":1}\n{"partial');
    endCutLine(path, () => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    });
    expect(readFileSync(path, 'utf8')).toBe('{"id":1}\n{"partial\n');
  });
});
