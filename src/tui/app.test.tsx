import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../core/time/clock.js';
import type { EmulatorRequest } from '../core/service/exchange.js';
import type { Emulator } from '../core/emulator.js';
import { createSeededRandom } from '../core/time/random.js';
import { DEMO_CONFIG, DEMO_TOKEN } from '../demo-config.js';
import { createEmulator } from '../emulator.js';
import { bucketView } from '../../test/helpers/bucket-view.js';
import type { BucketView } from '../core/limits/bucket-view.js';
import { App } from './app.js';
import { BucketTable } from './bucket-table.js';
import { createLocalSource, type FeedEvent, type TuiSource } from './tui-source.js';

const exists = (callerId?: string): EmulatorRequest => ({
  method: 'GET',
  url: `/v1/users/exists?email=alice%40example.com${callerId === undefined ? '' : `&caller_id=${callerId}`}`,
  headers: { authorization: `Bearer ${DEMO_TOKEN}` },
});

function setup(columns = 80, rows = 24) {
  const clock = createManualClock(Date.UTC(2026, 0, 1, 12));
  const emulator = createEmulator({ config: DEMO_CONFIG, clock, random: createSeededRandom(1) });
  // The screen keeps time by the emulator's manual clock: the test moves both.
  const screen = render(
    <App
      source={createLocalSource(emulator, 'in-process', { clock })}
      title="uas test"
      size={{ columns, rows }}
    />,
  );
  return { clock, emulator, screen };
}

/** 20 requests of the callers `callerOf` names, then, with `code`, a start that issues a code. */
function fill(emulator: Emulator, callerOf: (index: number) => string, code: boolean): void {
  for (let index = 0; index < 20; index++) emulator.handle(exists(callerOf(index)));
  if (code)
    emulator.handle({
      method: 'POST',
      url: `/v1/merchants/${DEMO_CONFIG.clients[0]!.merchants[0]}/users/passwordless/start`,
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com' }),
    });
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

/** The screen of `source` at 100x24, unmounted after the test. */
function show(source: TuiSource) {
  const screen = render(<App source={source} title="uas test" size={{ columns: 100, rows: 24 }} />);
  unmount = screen.unmount;
  return screen;
}

const frame = (screen: ReturnType<typeof render>) => screen.lastFrame() ?? '';
const press = async (screen: ReturnType<typeof render>, keys: string) => {
  for (const key of keys) {
    screen.stdin.write(key);
    await new Promise((resolve) => setImmediate(resolve));
  }
};

describe('App', () => {
  it('shows the buckets emptiest first, the recent requests, and the rates', async () => {
    const { emulator, screen } = setup();
    unmount = screen.unmount;
    for (let index = 0; index < 7; index++) emulator.handle(exists('bot'));
    emulator.handle(exists('shopper'));
    await vi.waitFor(() =>
      expect(frame(screen)).toMatch(/caller:demo:bot\s+░{10} caller 5\s+1\/s\s+5\s+2/),
    );
    const lines = frame(screen).split('\n');
    expect(lines.findIndex((line) => line.includes('caller:demo:bot'))).toBeLessThan(
      lines.findIndex((line) => line.includes('caller:demo:shopper')),
    );
    expect(frame(screen)).toContain('● connected');
    expect(frame(screen)).toContain('totals 8 req, 2 429 · 2 buckets, by pressure');
    await vi.waitFor(() => expect(frame(screen)).toMatch(/exists\s+bot\s+429/));
    expect(lines.length).toBeLessThanOrEqual(24);
  });

  it('counts what the journal held before the screen started, and says "1 bucket"', async () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1, 12));
    const emulator = createEmulator({ config: DEMO_CONFIG, clock, random: createSeededRandom(1) });
    for (let index = 0; index < 7; index++) emulator.handle(exists('bot'));
    const screen = render(
      <App
        source={createLocalSource(emulator, 'in-process', { clock })}
        title="uas test"
        size={{ columns: 80, rows: 24 }}
      />,
    );
    unmount = screen.unmount;
    await vi.waitFor(() => expect(frame(screen)).toContain('totals 7 req, 2 429 · 1 bucket,'));
    // All seven: one bucket leaves the rest of the screen to the recent requests.
    expect(frame(screen).match(/exists\s+bot\s+(200|429)/g)).toHaveLength(7);
  });

  it('drops the rate to zero and scrolls the sparkline while no request comes', async () => {
    const { clock, emulator, screen } = setup();
    unmount = screen.unmount;
    const rateLine = () => frame(screen).split('\n')[1] ?? '';
    await vi.waitFor(() => expect(frame(screen)).toContain('● connected'));
    for (let index = 0; index < 3; index++) emulator.handle(exists('bot'));
    await vi.waitFor(() => expect(frame(screen)).toContain('totals 3 req'));
    clock.advance(1000);
    await vi.waitFor(() => expect(rateLine()).toMatch(/^3 req\/s 0 429\/s +█ +totals/));
    clock.advance(1000);
    await vi.waitFor(() => expect(rateLine()).toMatch(/^0 req\/s 0 429\/s +█▁ +totals/));
    clock.advance(3000);
    await vi.waitFor(() => expect(rateLine()).toMatch(/^0 req\/s 0 429\/s +█▁▁▁▁ +totals 3 req/));
  });

  it('shows the requests made while paused once resumed', async () => {
    const { emulator, screen } = setup();
    unmount = screen.unmount;
    emulator.handle(exists('before'));
    await vi.waitFor(() => expect(frame(screen)).toMatch(/exists\s+before/));
    await press(screen, 'p');
    await vi.waitFor(() => expect(frame(screen)).toContain('[paused]'));
    emulator.handle(exists('during'));
    emulator.handle(exists('during'));
    await vi.waitFor(() => expect(frame(screen)).toContain('totals 3 req'));
    expect(frame(screen)).not.toMatch(/exists\s+during/);
    expect(frame(screen)).not.toContain('caller:demo:during');
    await press(screen, 'p');
    await vi.waitFor(() => expect(frame(screen).match(/exists\s+during/g)).toHaveLength(2));
    await vi.waitFor(() => expect(frame(screen)).toContain('caller:demo:during'));
    expect(frame(screen)).not.toContain('[paused]');
  });

  it('says the buckets are not known, not that there are none, while the dev API fails', async () => {
    const failing: TuiSource = {
      label: 'http://127.0.0.1:9',
      clock: createManualClock(0),
      follow(listener) {
        listener({ type: 'lost', problem: 'connect ECONNREFUSED 127.0.0.1:9' });
        return () => {};
      },
      listBuckets: () => Promise.reject(new Error('cannot reach http://127.0.0.1:9')),
      uptime: async () => undefined,
      recent: async () => [],
    };
    const screen = show(failing);
    await vi.waitFor(() =>
      expect(frame(screen)).toContain('buckets not known: the dev API cannot be read'),
    );
    expect(frame(screen)).toContain('✖ connection lost (connect ECONNREFUSED 127.0.0.1:9)');
    expect(frame(screen)).toContain('· ? buckets, by pressure');
    expect(frame(screen)).not.toContain('no buckets yet');
    expect(frame(screen)).not.toContain('0 buckets');
  });

  it.each([
    {
      what: 'the admin token',
      advice: 'the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN',
      flag: { needsAdminToken: true },
    },
    {
      what: 'all event readers taken',
      advice: 'all event readers taken: close a dashboard tab or a uas top; next try in 5 s',
      flag: { readersFull: true },
    },
  ])(
    'shows the advice of $what whole at 80 columns, on the line of the rates',
    async ({ advice, flag }) => {
      const refused: TuiSource = {
        label: 'http://127.0.0.1:4010',
        clock: createManualClock(0),
        follow(listener) {
          listener({ type: 'lost', problem: advice, ...flag });
          return () => {};
        },
        listBuckets: () => Promise.reject(new Error(advice)),
        uptime: async () => undefined,
        recent: async () => [],
      };
      const screen = render(
        <App source={refused} title="uas top" size={{ columns: 80, rows: 24 }} />,
      );
      unmount = screen.unmount;
      await vi.waitFor(() => expect(frame(screen)).toContain('✖ not connected'));
      const lines = frame(screen).split('\n');
      expect(lines[0]).toBe('uas top http://127.0.0.1:4010 ✖ not connected');
      expect(lines[1]).toBe(advice);
    },
  );

  it('says there are no buckets yet, not that the dev API cannot be read, while only the event readers are all taken', async () => {
    const advice = 'all event readers taken: close a dashboard tab or a uas top; next try in 5 s';
    const readersFull: TuiSource = {
      label: 'http://127.0.0.1:4010',
      clock: createManualClock(0),
      follow(listener) {
        listener({ type: 'lost', problem: advice, readersFull: true });
        return () => {};
      },
      listBuckets: () => Promise.resolve({ total: 0, buckets: [] }),
      uptime: async () => 7_500,
      recent: async () => [],
    };
    const screen = show(readersFull);
    await vi.waitFor(() => expect(frame(screen)).toContain('no buckets yet'));
    expect(frame(screen)).toContain('✖ not connected  up 7.5s');
    expect(frame(screen)).not.toContain('the dev API cannot be read');
  });

  it('leaves out the uptime of an emulator it no longer reaches, which would stand still', async () => {
    const advice = 'the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN';
    let tell: (event: FeedEvent) => void = () => {};
    let reachable = true;
    const restarted: TuiSource = {
      label: 'http://127.0.0.1:4010',
      clock: createManualClock(0),
      follow(listener) {
        tell = listener;
        listener({ type: 'connected' });
        return () => {};
      },
      listBuckets: () =>
        reachable ? Promise.resolve({ total: 0, buckets: [] }) : Promise.reject(new Error(advice)),
      uptime: async () => (reachable ? 7_500 : undefined),
      recent: async () => [],
    };
    const screen = render(
      <App source={restarted} title="uas top" size={{ columns: 80, rows: 24 }} />,
    );
    unmount = screen.unmount;
    await vi.waitFor(() => expect(frame(screen)).toContain('● connected  up 7.5s'));
    // The emulator comes back needing an admin token (or is gone): its old uptime is not said.
    reachable = false;
    tell({ type: 'lost', problem: advice, needsAdminToken: true });
    // Once the bucket list (read with the uptime) fails too.
    await vi.waitFor(() =>
      expect(frame(screen).split('\n')[0]).toBe('uas top http://127.0.0.1:4010 ✖ not connected'),
    );
    tell({ type: 'lost', problem: 'ECONNREFUSED' });
    await vi.waitFor(() => expect(frame(screen)).toContain('✖ connection lost'));
    expect(frame(screen)).not.toContain('up 7.5s');
  });

  it('says why the bucket list cannot be read while requests still come', async () => {
    const emulator = createEmulator({ config: DEMO_CONFIG, clock: createManualClock(0) });
    const source: TuiSource = {
      ...createLocalSource(emulator, 'in-process'),
      listBuckets: () => Promise.reject(new Error('GET /__uas/buckets: 500 out of memory')),
    };
    const screen = show(source);
    await vi.waitFor(() =>
      expect(frame(screen)).toContain('buckets not known: GET /__uas/buckets: 500 out of memory'),
    );
    expect(frame(screen)).toContain('● connected');
    expect(frame(screen)).not.toContain('no buckets yet');
  });

  it('shows the method, path and problem of a request that matched no operation', async () => {
    const { emulator, screen } = setup();
    unmount = screen.unmount;
    emulator.handle({ method: 'GET', url: '/v1/nowhere', headers: {} });
    await vi.waitFor(() => expect(frame(screen)).toMatch(/GET +- +404 [a-z-]+ \/v1\/nowhere/));
  });

  it('shows control characters a client sent as visible escapes', async () => {
    const { emulator, screen } = setup();
    unmount = screen.unmount;
    emulator.handle(exists('evil%1b%5b2J%07'));
    await vi.waitFor(() => expect(frame(screen)).toContain('evil\\x1b[2J\\x07'));
    expect(frame(screen)).not.toContain('\u001b[2J');
  });

  it('resets the selected bucket with r and every bucket with R', async () => {
    const { emulator, screen } = setup();
    unmount = screen.unmount;
    for (let index = 0; index < 5; index++) emulator.handle(exists('bot'));
    emulator.handle(exists('other'));
    await vi.waitFor(() => expect(frame(screen)).toContain('caller:demo:bot'));
    await press(screen, 'r');
    await vi.waitFor(() => expect(frame(screen)).toContain('reset caller:demo:bot'));
    expect(emulator.getBucket('caller:demo:bot')).toBeUndefined();
    expect(emulator.getBucket('caller:demo:other')).toBeDefined();
    await press(screen, 'R');
    await vi.waitFor(() => expect(frame(screen)).toContain('reset all buckets'));
    expect(emulator.listBuckets().total).toBe(0);
  });

  it('leaves r and R off on the screen of a simulation, and has p hold the run', async () => {
    const clock = createManualClock(Date.UTC(2026, 0, 1, 12));
    const emulator = createEmulator({ config: DEMO_CONFIG, clock, random: createSeededRandom(1) });
    const hold = vi.fn();
    const source = {
      ...createLocalSource(emulator, 'simulation', { clock }),
      reset: undefined,
      hold,
    };
    const screen = show(source);
    for (let index = 0; index < 5; index++) emulator.handle(exists('bot'));
    await vi.waitFor(() => expect(frame(screen)).toContain('caller:demo:bot'));
    expect(frame(screen)).toContain('? help · r/R off (simulation)');
    expect(frame(screen)).not.toContain('r/R reset');
    await press(screen, 'r');
    await vi.waitFor(() =>
      expect(frame(screen)).toContain(
        "r/R are off here: a reset would change the simulation's results",
      ),
    );
    await press(screen, 'R');
    expect(emulator.getBucket('caller:demo:bot')).toBeDefined();
    await press(screen, 'p');
    expect(hold).toHaveBeenLastCalledWith(true);
    await vi.waitFor(() =>
      expect(frame(screen)).toContain(
        'paused: the simulation waits (no requests, simulated time stopped), p to resume',
      ),
    );
    await press(screen, 'p');
    expect(hold).toHaveBeenLastCalledWith(false);
    await press(screen, '?');
    await vi.waitFor(() =>
      expect(frame(screen)).toContain("off: a reset would change the simulation's results"),
    );
    expect(frame(screen)).toContain(
      'pause the simulation: no request is sent and simulated time stops until p',
    );
  });

  it.each([
    { rows: 24, code: true },
    { rows: 16, code: false },
    { rows: 10, code: true },
  ])(
    'keeps the header on the screen while the help shows at 80x$rows (latest code: $code)',
    async ({ rows, code }) => {
      const { emulator, screen } = setup(80, rows);
      unmount = screen.unmount;
      // Enough requests to fill the rows the recent requests get.
      fill(emulator, () => 'alpha', code);
      await vi.waitFor(() => expect(frame(screen)).toContain('caller:demo:alpha'));
      if (code) await vi.waitFor(() => expect(frame(screen)).toContain('latest code'));
      await press(screen, '?');
      await vi.waitFor(() => expect(frame(screen)).toContain('q, ctrl-c'));
      const lines = frame(screen).split('\n');
      expect(lines[0]).toMatch(/^uas test /);
      expect(lines.length).toBeLessThan(rows);
      expect(lines.at(-1)).toContain('q quit');
    },
  );

  it.each([
    { rows: 7, code: true },
    { rows: 7, code: false },
    { rows: 9, code: true },
  ])(
    'leaves a line free at 80x$rows (latest code: $code), the header on top and the footer last',
    async ({ rows, code }) => {
      const { emulator, screen } = setup(80, rows);
      unmount = screen.unmount;
      fill(emulator, (index) => `caller-${index}`, code);
      await vi.waitFor(() => expect(frame(screen)).toContain('caller:demo:caller-'));
      if (code) await vi.waitFor(() => expect(frame(screen)).toContain('latest code'));
      const lines = frame(screen).split('\n');
      expect(lines[0]).toMatch(/^uas test /);
      expect(lines.length).toBeLessThan(rows);
      expect(lines.at(-1)).toContain('q quit');
    },
  );

  it('changes the sort, filters by key, pauses and shows help', async () => {
    const { emulator, screen } = setup();
    unmount = screen.unmount;
    emulator.handle(exists('alpha'));
    emulator.handle(exists('beta'));
    await vi.waitFor(() => expect(frame(screen)).toContain('caller:demo:beta'));
    await press(screen, 's');
    await vi.waitFor(() => expect(frame(screen)).toContain('buckets, by recent'));
    await press(screen, '/alp\r');
    await vi.waitFor(() => expect(frame(screen)).not.toContain('caller:demo:beta'));
    expect(frame(screen)).toContain('filter "alp"');
    await press(screen, 'p');
    await vi.waitFor(() => expect(frame(screen)).toContain('[paused]'));
    await press(screen, '?');
    await vi.waitFor(() => expect(frame(screen)).toContain('reset the selected bucket'));
  });
});

/** The lines of a bucket table of `buckets` at `columns`. */
function tableLines(buckets: BucketView[], columns: number): string[] {
  const { lastFrame, unmount: stop } = render(
    <BucketTable buckets={buckets} selected={0} rows={5} columns={columns} empty="" />,
  );
  const lines = (lastFrame() ?? '').split('\n');
  stop();
  return lines;
}

describe('BucketTable', () => {
  it('renders only the rows that fit, however many buckets there are', () => {
    const buckets = Array.from({ length: 5000 }, (_, index) =>
      bucketView(`caller:demo:${index}`, {
        tokens: index % 5,
        remaining: index % 5,
        next_token_ms: 500,
        full_in_ms: 1000,
      }),
    );
    const { lastFrame, unmount: stop } = render(
      <BucketTable buckets={buckets} selected={4200} rows={10} columns={80} empty="" />,
    );
    const lines = (lastFrame() ?? '').split('\n');
    stop();
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toContain('caller:demo:4200');
  });

  it('makes the key column as wide as the keys shown, not the terminal', () => {
    const buckets = [bucketView('caller:demo:bot'), bucketView('client:demo')];
    const { lastFrame, unmount: stop } = render(
      <BucketTable buckets={buckets} selected={0} rows={5} columns={160} empty="" />,
    );
    const lines = (lastFrame() ?? '').split('\n');
    stop();
    expect(lines[0]?.indexOf('TOKENS')).toBe(16);
    expect(lines[1]).toMatch(/^caller:demo:bot [█░]{10} caller/);
  });

  it('cuts a long key in the middle, keeping the caller at its end, and never cuts a count', () => {
    const key = `caller:demo:${'x'.repeat(100)}-203.0.113.7`;
    const lines = tableLines([bucketView(key, { allowed: 123_456_789 })], 100);
    // 46 cells: the first 23, an ellipsis, the last 22.
    expect(lines[1]).toContain(`caller:demo:xxxxxxxxxxx…xxxxxxxxxx-203.0.113.7 `);
    expect(lines[1]).toContain(' 123456789 ');
  });

  it('fits 60 columns: LEVEL, RATE and BURST give way to the key, and no row runs past the edge', () => {
    const key = `caller:demo:${'a'.repeat(20)}-${'z'.repeat(20)}`;
    const lines = tableLines([bucketView(key), bucketView('caller:demo:203.0.113.7')], 60);
    expect(lines[0]).toBe('BUCKET                      TOKENS     ALLOWED 429   NEXT');
    expect(lines[1]).toMatch(/^caller:demo:a…z{13} [█░]{10} 1 {7}0 {5}full *$/);
    // 27 cells: an IPv4 caller's key shows whole.
    expect(lines[2]).toMatch(/^caller:demo:203\.0\.113\.7 {5}[█░]{10} 1 /);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    // At 80 columns every column has room.
    expect(tableLines([bucketView(key)], 80)[0]).toMatch(/ LEVEL {2}BURST RATE {4}ALLOWED /);
  });

  it('escapes control characters in bucket keys', () => {
    const { lastFrame, unmount: stop } = render(
      <BucketTable
        buckets={[bucketView('caller:demo:\u001b]0;owned\u0007')]}
        selected={0}
        rows={5}
        columns={100}
        empty=""
      />,
    );
    const text = lastFrame() ?? '';
    stop();
    expect(text).toContain('caller:demo:\\x1b]0;owned\\x07');
    expect(text).not.toContain('\u0007');
  });
});
