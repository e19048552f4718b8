import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { recordMaker } from '../../../test/helpers/check-records.js';
import { readRecording } from './read-recording.js';

/** A recording of two records, the second with a caller_id of multibyte characters. */
function recording(): string {
  const make = recordMaker();
  return [
    make({ at: 0, email: 'ann@example.com', callerId: '203.0.113.9' }),
    make({ at: 10, email: 'ben@example.com', callerId: 'café-€-𝄞' }),
  ]
    .map((record) => `${JSON.stringify(record)}\n`)
    .join('');
}

/** Reads `bytes` from stdin, as chunks of `size` bytes (cutting characters in two). */
function readInChunks(bytes: Buffer, size: number, warn?: (line: string) => void) {
  const chunks: Buffer[] = [];
  for (let from = 0; from < bytes.length; from += size)
    chunks.push(bytes.subarray(from, from + size));
  return readRecording({ path: '-', stdin: Readable.from(chunks) }, warn);
}

describe('readRecording', () => {
  const bytes = Buffer.from(`\ufeff${recording()}`, 'utf8');

  it.each([1, 2, 3, 5, 7, 64, 4096])(
    'reads the same records whatever the chunks (%i bytes): the BOM, the first bytes and characters split',
    async (size) => {
      const records = await readInChunks(bytes, size);
      expect(records.map((record) => record.caller_id)).toEqual(['203.0.113.9', 'café-€-𝄞']);
    },
  );

  it('reads a JSON list split into chunks', async () => {
    const list = `\ufeff  [${recording().trim().split('\n').join(',\n')}]`;
    const records = await readInChunks(Buffer.from(list, 'utf8'), 3);
    expect(records.map((record) => record.id)).toEqual([1, 2]);
  });

  it('refuses a JSON list that does not parse, saying where', async () => {
    const list = `[${recording().trim().split('\n').join(',\n')}`;
    await expect(readInChunks(Buffer.from(list), 100)).rejects.toThrow(
      'recording on stdin is a JSON list but not valid JSON: line 2, column ',
    );
  });

  it('reads as NDJSON a recording whose first field is not the id', async () => {
    const lines = recording()
      .trim()
      .split('\n')
      .map((line) => {
        const { id, ...rest } = JSON.parse(line) as { id: number };
        return JSON.stringify({ ...rest, id });
      });
    const records = await readInChunks(Buffer.from(`${lines.join('\n')}\n`), 11);
    expect(records.map((record) => record.id)).toEqual([1, 2]);
  });

  it('leaves out a last line cut short, wherever the chunks end', async () => {
    const cut = Buffer.from(`${recording()}{"id":3,"at":17672256`);
    const warnings: string[] = [];
    const records = await readInChunks(cut, 5, (line) => warnings.push(line));
    expect(records).toHaveLength(2);
    expect(warnings).toEqual([
      'recording on stdin, line 3: cut short (the server stopped while writing it); judged without it',
    ]);
  });

  it.each([1, 4096])(
    'refuses a gzip file, saying to decompress it, whatever the chunks (%i bytes)',
    async (size) => {
      const gzipped = gzipSync(recording());
      await expect(readInChunks(gzipped, size)).rejects.toThrow(
        'recording on stdin is compressed (gzip): decompress it first (gunzip -c, piped to --journal -)',
      );
    },
  );

  it('refuses as not JSON a last line without a newline that does not start as a record', async () => {
    const junk = Buffer.from(`${recording()}\u0000\u0001binary`);
    const warnings: string[] = [];
    await expect(readInChunks(junk, 5, (line) => warnings.push(line))).rejects.toThrow(
      'recording on stdin, line 3: not JSON',
    );
    await expect(readInChunks(Buffer.from('ELF\u0002binary'), 5)).rejects.toThrow(
      'recording on stdin, line 1: not JSON',
    );
    expect(warnings).toEqual([]);
  });

  it('refuses a line over 1 MiB before its end has come', async () => {
    // A source that would never end: the reader must stop at the limit.
    const endless = Readable.from(
      (function* () {
        for (;;) yield Buffer.alloc(65_536, 0x61);
      })(),
    );
    await expect(readRecording({ path: '-', stdin: endless })).rejects.toThrow(
      'recording on stdin, line 1: longer than 1 MiB; not a request record',
    );
  });

  it('refuses a terminal as stdin rather than wait for lines typed', async () => {
    const terminal = Object.assign(Readable.from([]), { isTTY: true });
    await expect(readRecording({ path: '-', stdin: terminal })).rejects.toThrow(
      '--journal -: standard input is a terminal; pipe a recording in',
    );
  });

  it('says there is no stdin when none was given', async () => {
    await expect(readRecording({ path: '-' })).rejects.toThrow(
      '--journal -: there is no standard input to read',
    );
  });
});
