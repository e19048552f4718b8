import { describe, expect, it } from 'vitest';
import type { CliIO } from './io.js';
import { run } from './program.js';

/** An I/O that records whether stderr was taken, and what went to stdout. */
function recordingIO() {
  const seen = { stderrTaken: false, stdout: '' };
  const io: CliIO = {
    stdout: { write: (text) => (seen.stdout += String(text)) },
    get stderr() {
      seen.stderrTaken = true;
      return { write: () => true };
    },
    env: { NO_COLOR: '1' },
    cwd: process.cwd(),
    onSignal: () => () => {},
  };
  return { io, seen };
}

describe('the program', () => {
  it('takes stderr before a command runs, and never for help or the version', async () => {
    for (const args of [['--help'], ['-V'], ['serve', '--help'], ['help', 'call']]) {
      const { io, seen } = recordingIO();
      expect(await run(['node', 'uas', ...args], io)).toBe(0);
      expect(seen.stderrTaken, args.join(' ')).toBe(false);
    }
    const { io, seen } = recordingIO();
    expect(await run(['node', 'uas', 'openapi'], io)).toBe(0);
    expect(seen.stdout).toContain('"openapi": "3.1');
    expect(seen.stderrTaken).toBe(true);
  });

  it('takes the costs of two --cost flags together, as one would', async () => {
    const { io, seen } = recordingIO();
    expect(
      await run(['node', 'uas', 'openapi', '--cost', 'start=2', '--cost', 'verify=3'], io),
    ).toBe(0);
    expect(seen.stdout).toContain('exists costs 1, start 2, verify 3.');
  });
});
