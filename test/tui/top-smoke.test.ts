import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { listen, type EmulatorHttpServer } from '../../src/adapters/http/http-server.js';
import { DEMO_CONFIG } from '../../src/demo-config.js';
import { createEmulator } from '../../src/emulator.js';
import { createApi } from '../helpers/api.js';
import { runUas, UAS_BIN } from '../helpers/spawn-uas.js';
import { createTmux, hasTmux, needsTmux } from './tmux.js';

const tmux = createTmux('smoke');
let running: EmulatorHttpServer | undefined;

afterAll(() => tmux.dispose());
afterEach(async () => {
  if (hasTmux) tmux.stop();
  await running?.close(100);
  running = undefined;
});

/**
 * The demo config with buckets that cannot refill within a test (one token an hour): what the
 * screen shows must not depend on how fast this machine runs the test.
 */
const steady = () =>
  createEmulator({
    config: {
      ...DEMO_CONFIG,
      limits: { client: { burst: 20, rate: '1/h' }, caller: { burst: 5, rate: '1/h' } },
    },
  });

const screen = () => tmux.screen();

/** An emulator of steady buckets (closed after the test), and `uas top` on it, connected. */
async function startTop(): Promise<EmulatorHttpServer> {
  const server = await listen(steady(), 0, '127.0.0.1');
  running = server;
  tmux.start(`${process.execPath} ${UAS_BIN} top --url ${server.url}`, 80, 24);
  await vi.waitFor(() => expect(screen()).toContain('● connected'), {
    timeout: 10_000,
    interval: 100,
  });
  return server;
}

describe('uas top', () => {
  // .ci/run installs tmux; a developer machine without it skips only this pseudo-terminal test.
  it.skipIf(!hasTmux)(
    needsTmux('draws the live screen in a real terminal, resets a bucket on r, and quits on q'),
    async () => {
      const server = await startTop();
      const api = createApi(server.url);
      for (let index = 0; index < 6; index++)
        await api.exists('email=alice%40example.com&caller_id=bot');
      await vi.waitFor(
        () => expect(screen()).toMatch(/caller:demo:bot\s+[█░]{10} caller 5\s+1\/h\s+5\s+1 /),
        { timeout: 10_000, interval: 100 },
      );
      // The recent requests come by the event stream, the bucket row by a poll: either may lead.
      await vi.waitFor(() => expect(screen()).toMatch(/exists\s+bot\s+429/), {
        timeout: 10_000,
        interval: 100,
      });
      tmux.keys('r');
      await vi.waitFor(() => expect(screen()).toContain('reset caller:demo:bot'), {
        timeout: 5_000,
        interval: 100,
      });
      expect(server.server.listening).toBe(true);
      tmux.keys('q');
      await vi.waitFor(() => expect(tmux.running()).toBe(false), {
        timeout: 5_000,
        interval: 100,
      });
    },
  );

  it.skipIf(!hasTmux)(
    needsTmux('lives on through keys it does not know and pasted colours, and quits on q'),
    async () => {
      await startTop();
      // Ctrl with a key Ink 6 cannot name ended the screen with a TypeError.
      tmux.keys('-l', '\u001b[1;5I');
      // A filter pasted with its colours: the text is taken, the colours left out. Each key
      // waits for the screen to take the one before (keys sent at once reach the program as
      // one input, which a person typing never sends).
      tmux.keys('/');
      await vi.waitFor(() => expect(screen()).toMatch(/filter: .*enter keeps it/), {
        timeout: 5_000,
        interval: 50,
      });
      tmux.keys('-l', 'ali\u001b[31mce\u001b[0m');
      await vi.waitFor(() => expect(screen()).toMatch(/filter: alice▏/), {
        timeout: 5_000,
        interval: 50,
      });
      tmux.keys('Enter');
      await vi.waitFor(() => expect(screen()).toMatch(/filter.*alice/), {
        timeout: 5_000,
        interval: 100,
      });
      expect(tmux.running()).toBe(true);
      tmux.keys('q');
      await vi.waitFor(() => expect(tmux.running()).toBe(false), {
        timeout: 5_000,
        interval: 100,
      });
    },
  );

  it.skipIf(!hasTmux)(
    needsTmux(
      'plays a simulation on the live screen with simulate --watch, then prints the report',
    ),
    async () => {
      const command = `${process.execPath} ${UAS_BIN} simulate --watch --duration 40s --speed 40 --shoppers 20 --bot-rate 30/s --modes shared,per-caller; sleep 30`;
      tmux.start(command, 100, 30);
      await vi.waitFor(
        () => expect(screen()).toMatch(/uas simulate mode shared \(1\/2\), 40x virtual time/),
        { timeout: 10_000, interval: 50 },
      );
      await vi.waitFor(() => expect(screen()).toMatch(/client:shop\s+[█░]{10} client/), {
        timeout: 10_000,
        interval: 50,
      });
      await vi.waitFor(() => expect(screen()).toContain('mode per-caller (2/2)'), {
        timeout: 10_000,
        interval: 50,
      });
      await vi.waitFor(() => expect(screen()).toMatch(/per-caller protected/), {
        timeout: 10_000,
        interval: 100,
      });
    },
    // Four waits of up to 10 s each: the whole may take longer than the default 20 s when the
    // other end-to-end tests (installs, a browser) share the cores.
    60_000,
  );

  it.skipIf(!hasTmux)(
    needsTmux('leaves reset off in simulate --watch, pauses the run on p, and quits on q'),
    async () => {
      // Ten simulated minutes at 1x: the run cannot end within the test.
      const command = `${process.execPath} ${UAS_BIN} simulate --watch --duration 10m --speed 1 --modes shared`;
      tmux.start(command, 100, 30);
      const wait = (assertion: () => void) =>
        vi.waitFor(assertion, { timeout: 10_000, interval: 50 });
      await wait(() => expect(screen()).toContain('? help · r/R off (simulation)'));
      tmux.keys('R');
      await wait(() =>
        expect(screen()).toContain(
          "r/R are off here: a reset would change the simulation's results",
        ),
      );
      tmux.keys('p');
      await wait(() => expect(screen()).toContain('paused: the simulation waits'));
      expect(screen()).toContain('[paused]');
      tmux.keys('p');
      await wait(() => expect(screen()).toContain('resumed'));
      tmux.keys('q');
      await wait(() => expect(tmux.running()).toBe(false));
    },
  );

  it('prints one snapshot without a terminal, as text or JSON', async () => {
    running = await listen(steady(), 0, '127.0.0.1');
    await createApi(running.url).exists('email=alice%40example.com&caller_id=203.0.113.7');
    const text = await runUas(['top', '--url', running.url]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('1 bucket (1 shown, emptiest first)');
    expect(text.stdout).toContain('caller:demo:203.0.113.7');
    const json = await runUas(['top', '--url', running.url, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      total_buckets: 1,
      buckets: [{ key: 'caller:demo:203.0.113.7', remaining: 4 }],
      recent: [{ status: 200 }],
    });
  });

  it('says so when the emulator cannot be reached', async () => {
    const result = await runUas(['top', '--url', 'http://127.0.0.1:9', '--once']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('cannot read the dev API of http://127.0.0.1:9');
  });

  it('says that the admin token is missing or refused, with the usage exit code', async () => {
    running = await listen(
      createEmulator({ config: DEMO_CONFIG, devApi: { adminToken: 's3cret' } }),
      0,
      '127.0.0.1',
    );
    for (const flags of [['--once'], ['--json'], []]) {
      const missing = await runUas(['top', '--url', running.url, ...flags]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe(
        `uas: cannot read the dev API of ${running.url}: the dev API needs an admin token: pass --admin-token or set UAS_ADMIN_TOKEN\n`,
      );
    }
    const wrong = await runUas(['top', '--url', running.url, '--once', '--admin-token', 'nope']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('the dev API refused the admin token');
    const right = await runUas(['top', '--url', running.url, '--once'], {
      UAS_ADMIN_TOKEN: 's3cret',
    });
    expect(right.code).toBe(0);
    expect(right.stdout).toContain('0 buckets (0 shown, emptiest first)');
  });

  it('refuses serve --tui and simulate --watch without a terminal', async () => {
    const serve = await runUas(['serve', '--port', '0', '--tui']);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('--tui needs a terminal');
    // Refused before listening: no banner, no port held.
    expect(serve.stdout).toBe('');
    const watch = await runUas(['simulate', '--watch']);
    expect(watch.code).toBe(2);
    expect(watch.stderr).toContain('--watch needs a terminal');
  });
});
