import { describe, expect, it } from 'vitest';
import { readLossMarker } from '../../check/recording-loss.js';
import { createRecordWriter, type RecordSink, type RecordWriterNews } from './record-writer.js';

/** A sink that keeps each write until the test finishes it. */
function fakeSink() {
  const writes: Array<{
    text: string;
    done: (error: NodeJS.ErrnoException | null, bytes: number) => void;
  }> = [];
  let closed = false;
  const sink: RecordSink = {
    write: (text, done) => writes.push({ text, done }),
    close: () => (closed = true),
  };
  return {
    sink,
    writes,
    closed: () => closed,
    /** Finishes the oldest write: whole, or failed with `code` after `bytes` bytes. */
    finish(code?: string, bytes = 0) {
      const write = writes.shift()!;
      if (code === undefined) write.done(null, Buffer.byteLength(write.text));
      else write.done(Object.assign(new Error(code), { code }), bytes);
      return write.text;
    },
  };
}

/** A writer over a fake sink, its flushes run when the test says. */
function setup(maxBufferChars = 10_000, format = (text: string) => text) {
  const target = fakeSink();
  const queue: Array<() => void> = [];
  const news: RecordWriterNews[] = [];
  const writer = createRecordWriter({
    sink: target.sink,
    format,
    maxBufferChars,
    schedule: (flush) => queue.push(flush),
    tell: (item) => news.push(item),
  });
  const turn = () => queue.splice(0).forEach((flush) => flush());
  return { writer, target, news, turn };
}

const line = (id: number) => `{"id":${id},"at":${id}}\n`;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (offset: number) => new Date(T0 + offset).toISOString();

describe('createRecordWriter', () => {
  it('writes the records of one turn in one write, and waits for it before the next', () => {
    const { writer, target, turn } = setup();
    for (let id = 1; id <= 3; id++) writer.push(line(id), T0 + id);
    expect(target.writes).toHaveLength(0);
    turn();
    expect(target.writes.map((write) => write.text)).toEqual([line(1) + line(2) + line(3)]);

    // While that write is out, records wait, then go together.
    writer.push(line(4), T0 + 4);
    writer.push(line(5), T0 + 5);
    turn();
    expect(target.writes).toHaveLength(1);
    target.finish();
    turn();
    expect(target.writes.map((write) => write.text)).toEqual([line(4) + line(5)]);
    target.finish();
    expect(writer.counts()).toEqual({ written: 5, lost: 0, buffered: 0 });
  });

  it('drops and counts the records that do not fit while a write is stuck, says so once, and marks the loss in the file', () => {
    const { writer, target, news, turn } = setup(3 * line(1).length);
    writer.push(line(1), T0 + 1);
    turn(); // written, never finished: a reader that stopped reading
    for (let id = 2; id <= 10; id++) writer.push(line(id), T0 + id);
    turn();
    // Three fit in the buffer; six are dropped.
    expect(writer.counts()).toEqual({ written: 0, lost: 6, buffered: 4 });
    expect(news).toEqual([{ type: 'behind', lost: 1 }]);

    target.finish();
    turn();
    const text = target.finish();
    const [marker, ...rest] = text.trimEnd().split('\n');
    expect(readLossMarker(JSON.parse(marker!))).toEqual({
      lost: 6,
      from: iso(5),
      to: iso(10),
      reason: 'buffer-full',
    });
    expect(rest).toEqual([line(2), line(3), line(4)].map((text) => text.trimEnd()));
    expect(writer.counts()).toEqual({ written: 4, lost: 6, buffered: 0 });
    expect(news.at(-1)).toEqual({ type: 'resumed', lost: 6 });
  });

  it('counts the records of a failed write, says so once, stops until resumed, and then writes the marker first', () => {
    const { writer, target, news, turn } = setup();
    writer.push(line(1), T0 + 1);
    writer.push(line(2), T0 + 2);
    turn();
    target.finish('ENOSPC');
    expect(news).toEqual([{ type: 'failed', reason: 'ENOSPC', lost: 2 }]);

    // Nothing is written while it fails: records wait for the retry.
    writer.push(line(3), T0 + 3);
    turn();
    expect(target.writes).toHaveLength(0);
    writer.resume();
    turn();
    target.finish('ENOSPC');
    expect(news).toHaveLength(1);
    expect(writer.counts()).toEqual({ written: 0, lost: 3, buffered: 0 });

    writer.push(line(4), T0 + 4);
    writer.resume();
    turn();
    const text = target.finish();
    expect(text).toBe(
      `{"uas_recording":"loss","lost":3,"from":"${iso(1)}","to":"${iso(3)}","reason":"write-failed: ENOSPC"}\n${line(4)}`,
    );
    expect(news.at(-1)).toEqual({ type: 'resumed', lost: 3 });
    expect(writer.counts()).toEqual({ written: 1, lost: 3, buffered: 0 });
  });

  it('counts the lines a failed write got out as written, and ends a line it cut before the marker', () => {
    const { writer, target, turn } = setup();
    for (let id = 1; id <= 3; id++) writer.push(line(id), T0 + id);
    turn();
    // The first line and half the second made it to the disk.
    target.finish('ENOSPC', line(1).length + 5);
    expect(writer.counts()).toMatchObject({ written: 1, lost: 2 });
    writer.resume();
    writer.push(line(4), T0 + 4);
    turn();
    const text = target.finish();
    expect(text.startsWith('\n{"uas_recording":"loss","lost":2,')).toBe(true);
    expect(text.endsWith(line(4))).toBe(true);
  });

  it('writes to a reopened sink, closing the old one after its write; a deleted file loses what went to it since the last check', () => {
    const { writer, target, turn } = setup();
    writer.push(line(1), T0 + 1);
    turn();
    target.finish();
    writer.checkpoint();
    writer.push(line(2), T0 + 2);
    turn();
    const next = fakeSink();
    writer.replaceSink(next.sink, 'file-deleted');
    expect(target.closed()).toBe(false);
    target.finish();
    expect(target.closed()).toBe(true);
    writer.push(line(3), T0 + 3);
    turn();
    expect(next.finish()).toBe(
      `{"uas_recording":"loss","lost":1,"from":"${iso(2)}","to":"${iso(2)}","reason":"file-deleted"}\n${line(3)}`,
    );
    expect(writer.counts()).toEqual({ written: 2, lost: 1, buffered: 0 });
  });

  it('closes its sink, and one still waiting to replace it, when it is closed', () => {
    const { writer, target, turn } = setup();
    writer.push(line(1), T0 + 1);
    turn();
    const next = fakeSink();
    writer.replaceSink(next.sink, undefined);
    writer.abandon('shutdown');
    writer.close();
    expect(target.closed()).toBe(true);
    expect(next.closed()).toBe(true);
  });

  it('settles once everything is written, and on shutdown counts what a stuck write holds as lost', async () => {
    const { writer, target, turn } = setup();
    writer.push(line(1), T0 + 1);
    turn();
    let settled = false;
    const settling = writer.settled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    target.finish();
    await settling;

    writer.push(line(2), T0 + 2);
    turn();
    writer.push(line(3), T0 + 3);
    writer.abandon('shutdown');
    expect(writer.counts()).toEqual({ written: 1, lost: 2, buffered: 0 });
    // The stuck write ending later changes nothing.
    target.finish();
    writer.push(line(4), T0 + 4);
    expect(writer.counts()).toEqual({ written: 1, lost: 3, buffered: 0 });
  });

  it('formats records at the flush, not as they come, and loses (counts and marks) one it cannot format', () => {
    const formatted: string[] = [];
    const { writer, target, turn } = setup(10_000, (record) => {
      if (record === 'bad') throw new Error('cannot be formatted');
      formatted.push(record);
      return `${record}\n`;
    });
    writer.push('a', T0 + 1);
    writer.push('bad', T0 + 2);
    writer.push('b', T0 + 3);
    expect(formatted).toEqual([]);
    expect(writer.counts()).toEqual({ written: 0, lost: 0, buffered: 3 });
    turn();
    expect(formatted).toEqual(['a', 'b']);
    expect(target.writes.map((write) => write.text)).toEqual([
      `{"uas_recording":"loss","lost":1,"from":"${iso(2)}","to":"${iso(2)}","reason":"unformattable"}\na\nb\n`,
    ]);

    // While a write is out, the next flush formats what came, to count it exactly.
    writer.push('c', T0 + 4);
    turn();
    expect(formatted).toEqual(['a', 'b', 'c']);
    target.finish();
    turn();
    expect(target.finish()).toBe('c\n');
    expect(writer.counts()).toEqual({ written: 3, lost: 1, buffered: 0 });
  });

  it('takes a record not formatted yet to be as long as the lines formatted so far, to bound what it holds', () => {
    const { writer, turn } = setup(4 * line(1).length);
    writer.push(line(1), T0 + 1);
    turn(); // out, never finished: the average line is now line(1)'s length
    for (let id = 2; id <= 9; id++) writer.push(line(id), T0 + id);
    expect(writer.counts()).toEqual({ written: 0, lost: 4, buffered: 5 });
  });
});
