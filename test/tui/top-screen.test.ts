import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { createApi } from '../helpers/api.js';
import { UAS_BIN } from '../helpers/spawn-uas.js';
import { createTmux, hasTmux, needsTmux } from './tmux.js';

/*
 * uas top as a person sees it: the real binary in a tmux window, read with capture-pane. Each
 * test sends an exact number of requests and expects exactly those numbers on the screen. The
 * buckets cannot refill during a test (one token an hour), so what the screen shows does not
 * depend on how fast this machine runs it; the screen is polled until it shows the final
 * numbers, then compared exactly.
 */

const tmux = createTmux('top-screen');
let running: EmulatorHttpServer | undefined;

afterAll(() => tmux.dispose());
afterEach(async () => {
  tmux.stop();
  await running?.close(100);
  running = undefined;
});

async function serve(options: { journalSize?: number; adminToken?: string } = {}) {
  const emulator = createEmulator({
    config: {
      ...DEMO_CONFIG,
      limits: { client: { burst: 1000, rate: '1/h' }, caller: { burst: 3, rate: '1/h' } },
      ...(options.journalSize === undefined ? {} : { journal: { size: options.journalSize } }),
    },
    devApi: { adminToken: options.adminToken },
  });
  running = await listen(emulator, 0, '127.0.0.1');
  const api = createApi(running.url);
  return {
    url: running.url,
    /** Sends `count` exists requests as `callerId`, one after the other. */
    async send(callerId: string, count: number) {
      for (let index = 0; index < count; index++) {
        const reply = await api.exists(`email=alice%40example.com&caller_id=${callerId}`);
        expect([200, 429]).toContain(reply.status);
      }
    },
    /** Readers of the server's event stream connected now. */
    readers: () => Number(/^uas_event_readers (\d+)$/m.exec(emulator.metrics())?.[1]),
  };
}

const top = (url: string, columns: number, rows: number) =>
  tmux.start(`${process.execPath} ${UAS_BIN} top --url ${url}`, columns, rows);

/** Starts a server and uas top on it at `columns` x `rows`, and waits until the screen is connected. */
async function connectedTop(columns: number, rows: number) {
  const server = await serve();
  top(server.url, columns, rows);
  await until(() => expect(tmux.screen()).toContain('● connected'));
  return server;
}

/** The screen's lines, once checked to be `rows` of them with nothing below the footer. */
function fitted(rows: number): string[] {
  const screen = lines();
  expect(screen).toHaveLength(rows);
  const footer = screen.findIndex((line) => line.startsWith('q quit'));
  expect(footer).toBeGreaterThan(0);
  expect(screen.slice(footer + 1).every((line) => line.trim() === '')).toBe(true);
  return screen;
}

/** Polls the screen: generous, for a loaded machine; the assertion after it is exact. */
const until = (assertion: () => void) => vi.waitFor(assertion, { timeout: 15_000, interval: 100 });

const lines = () => tmux.screen().replace(/\n$/, '').split('\n');
/** The rates line: "N req/s N 429/s <sparkline>  totals N req, N 429 · N buckets, by pressure". */
const rateLine = () => lines()[1] ?? '';
/** A bucket row's allowed and 429 counts (caller buckets: burst 3, one token an hour). */
const bucketCounts = (callerId: string) =>
  new RegExp(`^caller:demo:${callerId} +[█░]{10} caller 3 +1/h +(\\d+) +(\\d+) `, 'm')
    .exec(tmux.screen())
    ?.slice(1);
/** Recent-request rows of one caller. */
const rows = (callerId: string) =>
  tmux
    .screen()
    .match(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} exists +${callerId} +\\d{3}`, 'gm'))
    ?.length ?? 0;

// .ci/run installs tmux; a developer machine without it skips only these terminal tests.
describe.skipIf(!hasTmux)(needsTmux('uas top in a terminal (tmux)'), () => {
  it('counts every request of a server with traffic and of the first moments of the screen', async () => {
    const server = await serve();
    await server.send('early', 2);
    top(server.url, 100, 40);
    // Sent while the screen starts: before it attaches to the event stream, once it has (while
    // it reads the journal), and once it says it is connected.
    await server.send('bot', 2);
    await until(() => expect(server.readers()).toBe(1));
    await server.send('bot', 2);
    await until(() => expect(tmux.screen()).toContain('● connected'));
    await server.send('bot', 1);
    await until(() => expect(rateLine()).toContain('totals 7 req, 2 429 · 2 buckets, by pressure'));
    // The bucket list is polled (every 500 ms): its rows catch up with the totals.
    await until(() => expect(bucketCounts('bot')).toEqual(['3', '2']));
    expect(bucketCounts('early')).toEqual(['2', '0']);
    expect(rows('bot')).toBe(5);
    expect(rows('early')).toBe(2);
    expect(rateLine()).toContain('totals 7 req, 2 429 ·');
  }, 40_000);

  it('says from which request it counts when the journal no longer holds the oldest', async () => {
    const server = await serve({ journalSize: 3 });
    await server.send('old', 5);
    top(server.url, 100, 30);
    await until(() => expect(rateLine()).toContain('totals 3 req, 2 429 since #3 · 1 bucket,'));
    expect(tmux.screen()).toContain('the journal no longer holds the 2 oldest requests');
    expect(rows('old')).toBe(3);
    await server.send('new', 1);
    await until(() => expect(rateLine()).toContain('totals 4 req, 2 429 since #3 · 2 buckets,'));
  }, 40_000);

  it('falls to 0 req/s and scrolls the sparkline while no request comes', async () => {
    const server = await connectedTop(100, 30);
    await server.send('burst', 4);
    await until(() => expect(rateLine()).toContain('totals 4 req, 1 429'));
    // The burst's second shows as a full bar; then idle seconds pass with no request.
    const spark = () => /429\/s (.*?) {2}totals/.exec(rateLine())?.[1] ?? '';
    await until(() => expect(spark()).toContain('█'));
    await until(() => expect(rateLine()).toMatch(/^0 req\/s 0 429\/s /));
    const first = spark().lastIndexOf('█');
    await until(() => expect(spark().lastIndexOf('█')).toBeLessThan(first));
    expect(rateLine()).toMatch(/^0 req\/s 0 429\/s .*totals 4 req, 1 429 · 1 bucket, by pressure$/);
  }, 40_000);

  it('redraws cleanly from 160x45 to 80x24 and sizes the bucket column to its keys', async () => {
    const server = await connectedTop(160, 45);
    await server.send('wide', 3);
    await until(() => expect(rateLine()).toContain('totals 3 req, 0 429 · 1 bucket,'));
    const header = lines().find((line) => line.startsWith('BUCKET')) ?? '';
    // The longest key, caller:demo:wide, is 16 characters: the table does not stretch to 160.
    expect(header.indexOf('TOKENS')).toBe(17);
    tmux.resize(80, 24);
    await server.send('narrow', 4);
    await until(() => expect(rateLine()).toContain('totals 7 req, 1 429 · 2 buckets,'));
    await until(() => expect(rows('narrow')).toBe(4));
    const screen = fitted(24);
    expect(screen[0]).toMatch(/^uas top http:\/\/127\.0\.0\.1:\d+ ● connected/);
    expect(screen.filter((line) => line.includes('uas top'))).toHaveLength(1);
    expect(screen.filter((line) => line.startsWith('BUCKET'))).toHaveLength(1);
    // Two bucket rows leave 14 for requests at 80x24: all seven show.
    expect(rows('wide')).toBe(3);
    await until(() => expect(bucketCounts('narrow')).toEqual(['3', '1']));
  }, 40_000);

  it('fits 60 columns: a long bucket key is cut in the middle and no row wraps', async () => {
    const long = `${'a'.repeat(20)}-${'z'.repeat(20)}`;
    const server = await connectedTop(60, 24);
    await server.send(long, 2);
    await server.send('short', 1);
    await until(() => expect(rateLine()).toContain('totals 3 req, 0 429'));
    // LEVEL, RATE and BURST give way; the key keeps its start and the end that tells callers apart.
    await until(() =>
      expect(tmux.screen()).toMatch(/^caller:demo:a…z{13} [█░]{10} 2 {7}0 {5}\S+ *$/m),
    );
    expect(tmux.screen()).toMatch(/^BUCKET {22}TOKENS {5}ALLOWED 429 {3}NEXT *$/m);
    expect(tmux.screen()).toMatch(/^caller:demo:short {11}[█░]{10} 1 /m);
    const screen = fitted(24);
    // A wrapped row would leave a line that starts with none of what a line of the screen starts with.
    const starts =
      /^(uas top|\d+ req\/s|BUCKET|caller:|client:|recent requests|\d\d:\d\d:|q quit|$)/;
    expect(screen.filter((line) => !starts.test(line))).toEqual([]);
  }, 40_000);

  it('gives the recent requests the rows of a tall terminal that the buckets leave', async () => {
    const server = await connectedTop(100, 40);
    await server.send('many', 25);
    await until(() => expect(rateLine()).toContain('totals 25 req, 22 429 · 1 bucket,'));
    // 40 rows: one bucket row, and 31 for requests, so all 25 show (not a fixed 8).
    await until(() => expect(rows('many')).toBe(25));
    fitted(40);
  }, 40_000);

  it('shows the requests made while paused once resumed', async () => {
    const server = await connectedTop(100, 30);
    await server.send('before', 2);
    await until(() => expect(rows('before')).toBe(2));
    tmux.keys('p');
    await until(() => expect(tmux.screen()).toContain('[paused]'));
    await server.send('during', 4);
    // The totals keep counting; the rows are frozen until p.
    await until(() => expect(rateLine()).toContain('totals 6 req, 1 429'));
    expect(rows('during')).toBe(0);
    expect(tmux.screen()).not.toContain('caller:demo:during');
    tmux.keys('p');
    await until(() => expect(rows('during')).toBe(4));
    expect(rows('before')).toBe(2);
    await until(() => expect(bucketCounts('during')).toEqual(['3', '1']));
    expect(tmux.screen()).not.toContain('[paused]');
    expect(rateLine()).toContain('totals 6 req, 1 429 · 2 buckets,');
  }, 40_000);

  it('says the buckets are not known while the emulator cannot be reached', async () => {
    // A port that was just free: nothing listens on it.
    const server = await serve();
    const url = server.url;
    await running?.close(100);
    running = undefined;
    top(url, 100, 30);
    await until(() => expect(lines()[0]).toContain('✖ connection lost ('));
    await until(() =>
      expect(tmux.screen()).toContain('buckets not known: the dev API cannot be read'),
    );
    expect(tmux.screen()).not.toContain('no buckets yet');
  }, 40_000);

  it('says that it is not connected, and the admin token missing whole on the second line', async () => {
    const server = await serve({ adminToken: 's3cret' });
    top(server.url, 80, 24);
    await until(() => expect(lines()[0]).toMatch(/ ✖ not connected$/));
    expect(rateLine()).toBe(
      'the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN',
    );
    expect(tmux.screen()).not.toContain('connection lost');
    // The buckets are not known: the screen does not say there are none.
    await until(() => expect(tmux.screen()).toContain('buckets not known'));
    expect(tmux.screen()).not.toContain('no buckets yet');
    tmux.keys('q');
    await until(() => expect(tmux.running()).toBe(false));
  }, 40_000);
});
