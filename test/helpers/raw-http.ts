import { connect, type Socket } from 'node:net';

/** An answer read off a raw socket. */
export interface RawAnswer {
  /** Everything received. */
  text: string;
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection (within the wait). */
  closed: boolean;
}

const sockets = new Set<Socket>();

/** Destroys every socket opened by {@link rawRequest} and {@link openSocket}; call in afterEach. */
export function destroySockets(): void {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
}

/** Opens a raw TCP connection to 127.0.0.1:port; `allowHalfOpen` keeps it open after the server ends its side. */
export function openSocket(port: number, allowHalfOpen = false): Socket {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen });
  socket.on('error', () => {});
  sockets.add(socket);
  return socket;
}

/**
 * Writes `text` on a new connection and reads until the server closes it, or until `waitMs`
 * after the first complete answer (a kept-alive connection). With `halfClose`, the client closes
 * its side once it has sent `text`.
 */
export function rawRequest(
  port: number,
  text: string,
  waitMs = 150,
  halfClose = false,
): Promise<RawAnswer> {
  const socket = openSocket(port);
  return new Promise((resolve) => {
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const done = (closed: boolean) => {
      clearTimeout(timer);
      resolve(parseAnswer(received, closed));
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (timer === undefined && isComplete(received))
        timer = setTimeout(() => done(false), waitMs);
    });
    socket.on('close', () => done(true));
    if (halfClose) socket.end(text);
    else socket.write(text);
  });
}

function isComplete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
  return length === undefined || text.length - end - 4 >= Number(length);
}

function parseAnswer(text: string, closed: boolean): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  return {
    text,
    status: status === undefined ? undefined : Number(status),
    headers,
    body: end === -1 ? '' : text.slice(end + 4),
    closed,
  };
}
