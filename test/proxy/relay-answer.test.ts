import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { UpstreamAnswer } from '../../src/core/upstream-side.js';
import { relayAnswer } from '../../src/proxy/relay-answer.js';

/** The real service's answer, its 512 KiB body arriving faster than it is relayed. */
async function largeAnswer(): Promise<IncomingMessage> {
  const server = createServer((_request, response) => {
    response.writeHead(200);
    response.end(Buffer.alloc(512 * 1024, 'x'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => void server.close());
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve) => request({ port, host: '127.0.0.1' }, resolve).end());
}

describe('relayAnswer', () => {
  it('takes nothing more from the real service once its client left, even parts it had read', async () => {
    const incoming = await largeAnswer();
    const settled: UpstreamAnswer[] = [];
    const { relay } = relayAnswer(
      incoming,
      { maxBodyBytes: 1_048_576, timeoutMs: 1_000 },
      (answer) => settled.push(answer),
    );
    const reader = (relay as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    // The relay's queue fills, and the answer's own buffer behind it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    // One part taken asks for more (the answer resumes on the next tick); then the client leaves.
    await reader.read();
    await Promise.resolve();
    await reader.cancel();
    // A part the answer still had buffered was put in the closed relay: an uncaught error, which
    // ended the process of uas serve --upstream.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toMatchObject([{ status: 200, cut: 'client' }]);
  });
});
