import type { ServerResponse } from 'node:http';
import type { ConnectionState } from './connection-state.js';
import type { TransportShutdown } from './transport-shutdown.js';
import type { TransportResponse } from './transport-exchange.js';
import { drained } from './stream-pump.js';

/**
 * Relays an answer's body as it arrives (`uas serve --upstream`), no faster than the client
 * takes it, with nothing added: the next chunk is pulled once the socket has taken the last. A
 * body that breaks off breaks the connection off, so the client sees what the real service did.
 * The answer hears whether it was written out whole, or its client left before (its connection
 * closed, even while the answer waited behind another on it: Node tells such an answer nothing),
 * or uas closed its connection at `shutdown`, the grace for answers in flight over.
 */
export function relayStream(
  res: ServerResponse,
  response: TransportResponse & { relay: ReadableStream<Uint8Array> },
  connection: ConnectionState,
  shutdown: TransportShutdown,
): void {
  const reader = response.relay.getReader();
  const release = shutdown.hold();
  let told = false;
  const tell = (whole: boolean) => {
    if (told) return;
    told = true;
    // Not whole: its client left, or uas closed the connection when the real service cut short
    // an answer before it, or when its grace at shutdown ran out.
    try {
      response.delivered?.(
        whole
          ? undefined
          : connection.relayCut
            ? 'upstream'
            : shutdown.cutting
              ? 'shutdown'
              : 'client',
      );
    } finally {
      release();
    }
  };
  // Told before the relay is cancelled, which would take its client for gone.
  if (res.destroyed || connection.socket.destroyed) {
    tell(false);
    reader.cancel().catch(() => {});
    return;
  }
  res.writeHead(response.status, response.headers);
  const gone = () => {
    if (res.writableFinished) return;
    tell(false);
    reader.cancel().catch(() => {});
  };
  const forget = connection.onClose(gone);
  res.on('finish', () => {
    forget();
    tell(true);
  });
  res.on('close', () => {
    forget();
    gone();
  });
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  })().catch(() => {
    // The real service cut it short: so is the connection, and the answers queued behind it.
    connection.relayCut = true;
    res.destroy();
  });
}
