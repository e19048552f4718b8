import { describe, expect, it } from 'vitest';
import type { EmulatorHttpServer } from '../../adapters/http/http-server.js';
import type { OpenedStore } from './serve-store.js';
import { shutDown, type ServeParts, type ServeStop } from './shut-down.js';
import type { Recording } from './start-recording.js';

/** Parts that write what is done to them, in order, to `steps`. */
function parts(steps: string[]): ServeParts {
  return {
    unsubscribe: () => steps.push('log stopped'),
    server: {
      close: async (graceMs?: number) => void steps.push(`server closed (grace ${graceMs} ms)`),
    } as EmulatorHttpServer,
    store: { close: async () => void steps.push('store closed') } as OpenedStore,
    recording: { stop: async () => void steps.push('recording stopped') } as Recording,
  };
}

describe('shutDown', () => {
  it('says why, stops the log, closes the server with a grace period, then the store, and stops the recording last', async () => {
    const steps: string[] = [];
    await shutDown(parts(steps), { by: 'signal', signal: 'SIGTERM' }, (stop) =>
      steps.push(`told ${stop.by}`),
    );
    expect(steps).toEqual([
      'told signal',
      'log stopped',
      'server closed (grace 3000 ms)',
      'store closed',
      'recording stopped',
    ]);
  });

  it('exits 0 for a signal or the screen, and 1 when the store went away or the start failed', async () => {
    const codes: Record<string, number> = {};
    const stops: ServeStop[] = [
      { by: 'signal', signal: 'SIGINT' },
      { by: 'screen' },
      { by: 'store-lost', reason: 'the local redis-server exited' },
      { by: 'failed-start' },
    ];
    for (const stop of stops) codes[stop.by] = await shutDown(parts([]), stop);
    expect(codes).toEqual({ signal: 0, screen: 0, 'store-lost': 1, 'failed-start': 1 });
  });

  it('skips the parts that never started', async () => {
    const steps: string[] = [];
    const { store, recording } = parts(steps);
    await shutDown({ store, recording }, { by: 'failed-start' });
    expect(steps).toEqual(['store closed', 'recording stopped']);
  });
});
