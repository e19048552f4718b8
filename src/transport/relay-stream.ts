import type { ServerResponse } from 'node:http';
import type { TransportResponse } from './transport-exchange.js';
import { drained } from './stream-pump.js';

/**
 * Relays an answer's body as it arrives (`uas serve --upstream`), no faster than the client
 * takes it, with nothing added: the next chunk is pulled once the socket has taken the last. A
 * body that breaks off breaks the connection off, so the client sees what the real service did.
 */
export function relayStream(
  res: ServerResponse,
  response: TransportResponse & { relay: ReadableStream<Uint8Array> },
): void {
  const reader = response.relay.getReader();
  if (res.destroyed) {
    reader.cancel().catch(() => {});
    return;
  }
  res.writeHead(response.status, response.headers);
  res.on('close', () => {
    if (!res.writableFinished) reader.cancel().catch(() => {});
  });
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  })().catch(() => res.destroy());
}
