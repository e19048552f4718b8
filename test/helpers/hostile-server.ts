import { createServer, type Socket } from 'node:net';
import { afterEach } from 'vitest';

/** A request as the hostile server read it. */
export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The body as the bytes received. */
  bodyBytes: Buffer;
}

/** What the server does with a request: write anything at all to the socket, or nothing. */
export type Misbehaviour = (socket: Socket, request: RawRequest) => void;

/** A running hostile server; `close()` (or `await using`) destroys every socket it holds. */
export interface HostileServer {
  url: string;
  /** Every request received, in order. */
  requests: RawRequest[];
  /** Bytes written to sockets by {@link stream} and {@link trickle}. */
  written: { bytes: number };
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a raw `node:net` HTTP/1.1 server on 127.0.0.1, port 0, that answers each request with
 * `misbehave`. `node:http` would refuse to send most of what these tests need (control characters
 * in headers, a Content-Length it does not honour), so the server writes bytes itself.
 */
export async function startHostileServer(misbehave: Misbehaviour): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const requests: RawRequest[] = [];
  const written = { bytes: 0 };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const [line = '', ...fields] = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const field of fields) {
          const colon = field.indexOf(':');
          headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const [method = '', path = ''] = line.split(' ');
        const request = {
          method,
          path,
          headers,
          body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
          bodyBytes: Buffer.from(buffer.subarray(end + 4, end + 4 + length)),
        };
        buffer = buffer.subarray(end + 4 + length);
        requests.push(request);
        misbehave(socket, request);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    written,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * For the tests of a file: a function that starts a hostile server (as {@link startHostileServer}),
 * each one closed after the test that started it.
 */
export function useHostileServers(): (misbehave: Misbehaviour) => Promise<HostileServer> {
  const servers: HostileServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (misbehave) => {
    const server = await startHostileServer(misbehave);
    servers.push(server);
    return server;
  };
}

/** A header field: name and value, the value as text or as raw bytes. */
export type RawHeader = [name: string, value: string | Buffer];

/**
 * The bytes of a response head: status line and header fields exactly as given (no
 * Content-Length is added), then the blank line.
 */
export function head(status: number, headers: RawHeader[] = []): Buffer {
  const parts: Buffer[] = [Buffer.from(`HTTP/1.1 ${status} Hostile\r\n`)];
  for (const [name, value] of headers) {
    parts.push(Buffer.from(`${name}: `), Buffer.from(value), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('\r\n'));
  return Buffer.concat(parts);
}

/** Writes a whole, honest response (its Content-Length is the body's) and keeps the socket. */
export function answer(
  socket: Socket,
  status: number,
  headers: RawHeader[],
  body: string | Buffer = '',
): void {
  const bytes = Buffer.from(body);
  socket.write(
    Buffer.concat([head(status, [...headers, ['Content-Length', String(bytes.length)]]), bytes]),
  );
}

/**
 * Writes `head` then 64 KiB chunks as fast as the socket drains, until the peer goes away: a body
 * without end. `written.bytes` counts what was written.
 */
export function stream(socket: Socket, responseHead: Buffer, written: { bytes: number }): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  socket.write(responseHead);
  const pump = () => {
    while (!socket.destroyed && socket.writable) {
      written.bytes += chunk.length;
      if (!socket.write(chunk)) return void socket.once('drain', pump);
    }
  };
  pump();
}

/** Writes `head`, then one byte every `everyMs` until the peer goes away. */
export function trickle(socket: Socket, responseHead: Buffer, everyMs: number): void {
  socket.write(responseHead);
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else socket.write(' ');
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}
