import type { IncomingMessage } from 'node:http';

/**
 * The target of a request in origin form (`/path?query`) and the host it names. An absolute-form
 * target (`GET http://host/path`, as sent to proxies) is served as its path, and its authority
 * replaces the Host header (RFC 9112, section 3.2.2).
 */
export function requestTarget(req: IncomingMessage): { url: string; host: string | undefined } {
  const raw = req.url ?? '/';
  const host = req.headers.host;
  if (raw.charCodeAt(0) === 47 /* "/" */) return { url: normalizePath(raw), host };
  if (/^https?:\/\//i.test(raw)) {
    try {
      const parsed = new URL(raw);
      return { url: `${parsed.pathname}${parsed.search}`, host: parsed.host };
    } catch {
      return { url: raw, host };
    }
  }
  return { url: raw, host };
}

// Dot segments (also percent-encoded), backslashes and fragments: what URL parsing rewrites.
const REWRITTEN = /\/\.|\/%2e|\\|#/i;

/**
 * A target as the Fetch API would read it: `/v1/../__uas/codes` is `/__uas/codes`. Both engines
 * see the same path (the msw engine goes through Fetch), so a check on the path (the dev API's
 * Host check, its body limit) cannot be passed by spelling it otherwise.
 */
export function normalizePath(target: string): string {
  if (!REWRITTEN.test(target)) return target;
  try {
    const parsed = new URL(target, 'http://localhost');
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return target;
  }
}

/** The path of a target: what comes before its query. */
export function pathOf(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? url : url.slice(0, mark);
}

/**
 * The origin of the server a socket reached, from the address and port it was accepted on:
 * `http://127.0.0.1:4010`, `http://[::1]:4010` (an IPv4 address mapped into IPv6 is written as
 * IPv4). Undefined when the socket has no address (a closed or a non-TCP socket).
 */
export function localOrigin(socket: {
  localAddress?: string | undefined;
  localPort?: number | undefined;
}): string | undefined {
  const { localAddress: address, localPort: port } = socket;
  if (address === undefined || port === undefined) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const host = mapped !== null ? mapped[1] : address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${port}`;
}
