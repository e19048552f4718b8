import { Agent, createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendUpstream } from '../../src/proxy/send-upstream.js';
import { resolveUpstreamOptions } from '../../src/proxy/upstream-options.js';

const held: ServerResponse[] = [];
const closers: Array<() => void> = [];

afterEach(() => {
  for (const response of held.splice(0)) response.destroy();
  for (const close of closers.splice(0)) close();
});

describe('sendUpstream, every connection busy', () => {
  it('says a request that waited for a connection was never sent, not that the real service was silent', async () => {
    // The real service holds the first request unanswered; the pool has one connection.
    const server = createServer((_request, response) => {
      held.push(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    closers.push(() => agent.destroy());
    const { port } = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    const options = resolveUpstreamOptions({ base, timeoutMs: 300 });
    const request = { method: 'GET', url: '/v1/users/exists', headers: {}, body: undefined };
    // The first holds the one connection longer than the second may wait for it.
    const first = sendUpstream(request, resolveUpstreamOptions({ base, timeoutMs: 1000 }), agent);
    const second = await sendUpstream(request, options, agent);
    expect(await first).toMatchObject({ kind: 'failed', status: 504 });
    expect(second).toMatchObject({ kind: 'failed', status: 504 });
    expect(second.kind === 'failed' && second.detail).toBe(
      `the request waited 300 ms for a connection to the real service at http://127.0.0.1:${port} and was never sent: all 1 that uas keeps open were busy with earlier requests`,
    );
  });
});
