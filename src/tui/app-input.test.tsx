import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../core/time/clock.js';
import type { EmulatorRequest } from '../core/service/exchange.js';
import { createSeededRandom } from '../core/time/random.js';
import { DEMO_CONFIG, DEMO_MERCHANT, DEMO_TOKEN } from '../demo-config.js';
import { createEmulator } from '../emulator.js';
import { App } from './app.js';
import { createLocalSource, type LocalSourceOptions } from './tui-source.js';
import { TICK_MS } from './use-tick.js';

const auth = { authorization: `Bearer ${DEMO_TOKEN}` };
const exists = (callerId: string): EmulatorRequest => ({
  method: 'GET',
  url: `/v1/users/exists?email=alice%40example.com&caller_id=${callerId}`,
  headers: auth,
});
const start = (email: string): EmulatorRequest => ({
  method: 'POST',
  url: `/v1/merchants/${DEMO_MERCHANT}/users/passwordless/start`,
  headers: { ...auth, 'content-type': 'application/json' },
  body: JSON.stringify({ email }),
});

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  vi.useRealTimers();
});

/** An emulator that has answered `requests`, and its screen at 100x24. */
function setup(requests: EmulatorRequest[] = [], options: LocalSourceOptions = {}) {
  const clock = createManualClock(Date.UTC(2026, 0, 1, 12));
  const emulator = createEmulator({
    config: { ...DEMO_CONFIG, otp: { mode: 'fixed:424242' } },
    clock,
    random: createSeededRandom(1),
  });
  for (const request of requests) emulator.handle(request);
  const screen = render(
    <App
      source={createLocalSource(emulator, 'in-process', { clock, ...options })}
      title="uas test"
      size={{ columns: 100, rows: 24 }}
    />,
  );
  unmount = screen.unmount;
  return { emulator, screen };
}

const frame = (screen: ReturnType<typeof render>) => screen.lastFrame() ?? '';
const settle = () => new Promise((resolve) => setImmediate(resolve));
/** Waits, without moving any timer, until `check` holds (a few hundred turns at most). */
const until = async (check: () => boolean) => {
  for (let turn = 0; turn < 500 && !check(); turn++) await settle();
  expect(check()).toBe(true);
};
/** Writes `text` to the screen's stdin in one chunk, as a terminal hands over a paste. */
const paste = async (screen: ReturnType<typeof render>, text: string) => {
  screen.stdin.write(text);
  await settle();
};

describe('the filter', () => {
  it('ends at a line break in a paste, keeping what came before it and dropping the rest', async () => {
    const { screen } = setup([exists('alpha'), exists('beta')]);
    await vi.waitFor(() => expect(frame(screen)).toContain('caller:demo:beta'));
    await paste(screen, '/');
    await paste(screen, 'alp\nrm -rf /\n');
    await vi.waitFor(() => expect(frame(screen)).not.toContain('caller:demo:beta'));
    expect(frame(screen)).toContain('filter "alp" · q quit');
    expect(frame(screen)).toContain('caller:demo:alpha');
    expect(frame(screen)).not.toContain('rm -rf');
    // No longer typing: the next keys are keys again.
    expect(frame(screen)).not.toContain('enter keeps it');
    expect(frame(screen).split('\n').length).toBeLessThanOrEqual(24);
  });

  it('leaves control characters of a paste out of the filter', async () => {
    const { screen } = setup([exists('alpha'), exists('beta')]);
    await vi.waitFor(() => expect(frame(screen)).toContain('caller:demo:beta'));
    await paste(screen, '/');
    await paste(screen, 'al\tp\r');
    await vi.waitFor(() => expect(frame(screen)).toContain('filter "alp"'));
    await vi.waitFor(() => expect(frame(screen)).not.toContain('caller:demo:beta'));
  });

  it('says that no bucket matches a filter, rather than show an empty table', async () => {
    const { screen } = setup([exists('alpha')]);
    await vi.waitFor(() => expect(frame(screen)).toContain('caller:demo:alpha'));
    await paste(screen, '/');
    await paste(screen, 'zzz\r');
    await vi.waitFor(() => expect(frame(screen)).toContain('no bucket matches "zzz"'));
    expect(frame(screen)).not.toContain('no buckets yet');
  });
});

describe('the notice', () => {
  it('goes after 5 s of ticks, so a reset notice does not stay for good', async () => {
    // The ticks' interval is faked: only the test moves it (vi.waitFor would move it too).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { screen } = setup([exists('bot')]);
    await until(() => frame(screen).includes('caller:demo:bot'));
    await paste(screen, 'r');
    await until(() => frame(screen).includes('reset caller:demo:bot ·'));
    vi.advanceTimersByTime(5000 - TICK_MS);
    await settle();
    expect(frame(screen)).toContain('reset caller:demo:bot ·');
    vi.advanceTimersByTime(TICK_MS);
    await until(() => !frame(screen).includes('reset caller:demo:bot'));
    expect(frame(screen)).toMatch(/^q quit · ↑↓ select/m);
  });
});

describe('the latest code', () => {
  it('shows the codes the emulator issues, whose log lines the screen hides', async () => {
    const { emulator, screen } = setup();
    await vi.waitFor(() => expect(frame(screen)).toContain('● connected'));
    expect(frame(screen)).not.toContain('latest code');
    emulator.handle(start('alice@example.com'));
    await vi.waitFor(() =>
      expect(frame(screen)).toContain(
        'latest code 424242 for alice@example.com, expires 12:10:00 (merchant 6f1c2b0e-8a4d-4c43-',
      ),
    );
    expect(frame(screen).split('\n').length).toBeLessThanOrEqual(24);
  });

  it('is left out of a source that does not tell codes (a simulation)', async () => {
    const { emulator, screen } = setup([], { codes: false });
    await vi.waitFor(() => expect(frame(screen)).toContain('● connected'));
    emulator.handle(start('alice@example.com'));
    await vi.waitFor(() => expect(frame(screen)).toMatch(/start\s+\(client demo\)\s+200/));
    expect(frame(screen)).not.toContain('latest code');
  });
});
