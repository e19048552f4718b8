import { render } from 'ink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../core/time/clock.js';
import { createSeededRandom } from '../core/time/random.js';
import { DEMO_CONFIG, DEMO_TOKEN } from '../demo-config.js';
import { createEmulator } from '../emulator.js';
import { App } from './app.js';
import { createLocalSource } from './tui-source.js';
import { CLEAR_SCREEN } from './use-terminal-size.js';
import { FakeInput, FakeTerminal } from '../../test/tui/fake-terminal.js';

let stop: (() => void) | undefined;
afterEach(() => stop?.());

/** The screen of `emulator` drawn on `terminal`, unmounted after the test. */
function show(emulator: ReturnType<typeof createEmulator>, terminal: FakeTerminal): void {
  const app = render(<App source={createLocalSource(emulator, 'in-process')} title="uas test" />, {
    stdout: terminal as unknown as NodeJS.WriteStream,
    stdin: new FakeInput() as unknown as NodeJS.ReadStream,
    debug: true,
    patchConsole: false,
  });
  stop = () => app.unmount();
}

describe('the screen', () => {
  it('fits 80x24 and shows more rows after the terminal grows', async () => {
    const emulator = createEmulator({
      config: DEMO_CONFIG,
      clock: createManualClock(0),
      random: createSeededRandom(1),
    });
    for (let index = 0; index < 40; index++) {
      emulator.handle({
        method: 'GET',
        url: `/v1/users/exists?email=a%40b.co&caller_id=ip-${String(index).padStart(2, '0')}`,
        headers: { authorization: `Bearer ${DEMO_TOKEN}` },
      });
    }
    const terminal = new FakeTerminal();
    show(emulator, terminal);
    const last = () => terminal.frames.at(-1) ?? '';
    const bucketRows = () =>
      last()
        .split('\n')
        .filter((line) => line.includes('caller:demo:ip-')).length;
    await vi.waitFor(() => expect(bucketRows()).toBeGreaterThan(0));
    const small = bucketRows();
    expect(last().split('\n').length).toBeLessThanOrEqual(24);
    terminal.resize(120, 40);
    await vi.waitFor(() => expect(bucketRows()).toBeGreaterThan(small));
    expect(last().split('\n').length).toBeLessThanOrEqual(40);
  });

  it('clears the screen before drawing at a smaller size, so no stale line stays', async () => {
    const emulator = createEmulator({ config: DEMO_CONFIG, clock: createManualClock(0) });
    const terminal = new FakeTerminal();
    terminal.columns = 160;
    terminal.rows = 45;
    show(emulator, terminal);
    await vi.waitFor(() => expect(terminal.frames.at(-1)).toContain('● connected'));
    expect(terminal.frames.some((frame) => frame.includes(CLEAR_SCREEN))).toBe(false);
    const before = terminal.frames.length;
    terminal.resize(80, 24);
    await vi.waitFor(() =>
      expect(terminal.frames.slice(before).some((frame) => frame.startsWith(CLEAR_SCREEN))).toBe(
        true,
      ),
    );
    await vi.waitFor(() => expect(terminal.frames.at(-1)?.split('\n').length).toBeLessThan(24));
  });

  it('keeps its header on a terminal of 8 rows, dropping blank lines and rows', async () => {
    const emulator = createEmulator({ config: DEMO_CONFIG, clock: createManualClock(0) });
    for (let index = 0; index < 5; index++)
      emulator.handle({
        method: 'GET',
        url: `/v1/users/exists?email=a%40b.co&caller_id=ip-${index}`,
        headers: { authorization: `Bearer ${DEMO_TOKEN}` },
      });
    const terminal = new FakeTerminal();
    terminal.rows = 8;
    show(emulator, terminal);
    await vi.waitFor(() => expect(terminal.frames.at(-1)).toContain('caller:demo:ip-'));
    const lines = (terminal.frames.at(-1) ?? '').replace(CLEAR_SCREEN, '').split('\n');
    // Seven lines and one free: nothing scrolls the header off the screen.
    expect(lines.filter((line) => line !== '').length).toBeLessThanOrEqual(7);
    expect(lines[0]).toMatch(/^uas test in-process ● connected/);
    expect(lines.filter((line) => line.includes('caller:demo:ip-'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes(' exists '))).toHaveLength(1);
  });
  it('draws at 80x24 on a terminal that reports no size (0 columns, 0 rows)', async () => {
    // A pseudo-terminal nobody sized (script(1) without a terminal, some CI runners and
    // containers) reports 0x0: the screen must not be drawn at no size at all, a blank frame.
    const emulator = createEmulator({ config: DEMO_CONFIG, clock: createManualClock(0) });
    emulator.handle({
      method: 'GET',
      url: '/v1/users/exists?email=a%40b.co&caller_id=ip-0',
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    const terminal = new FakeTerminal();
    terminal.columns = 0;
    terminal.rows = 0;
    show(emulator, terminal);
    await vi.waitFor(() => expect(terminal.frames.at(-1)).toContain('caller:demo:ip-0'));
    expect(terminal.frames.at(-1)).toMatch(/^uas test in-process ● connected/m);
  });
});
