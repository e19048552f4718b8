import type { IncomingMessage } from 'node:http';

/**
 * Reads a request body of at most `limit` bytes. Past the limit it stops reading at once (the
 * rest is discarded as it arrives, and the connection is closed after the answer): a client
 * cannot make the server hold a large body. `bytes` then tells how much was seen; `raw` is the
 * body as received (what a proxy forwards).
 */
export function readRequestBody(
  req: IncomingMessage,
  limit: number,
  done: (body: string, bytes: number, raw: Buffer) => void,
): void {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    done(raw.toString('utf8'), bytes, raw);
  };
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limit) {
      req.removeAllListeners('data');
      req.resume();
      finish();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', finish);
  req.on('error', () => {
    finished = true;
  });
}

/** Whether a request announces a body (Content-Length above 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}
