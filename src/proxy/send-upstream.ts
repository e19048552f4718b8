import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import type { Socket } from 'node:net';
import { classifyNetworkError } from '../http/network-error.js';
import type { ResolvedUpstreamOptions } from './upstream-options.js';

/** A request to the real service, as forwarded. */
export interface UpstreamRequest {
  method: string;
  /** Path and query, as sent to uas. */
  url: string;
  headers: OutgoingHttpHeaders;
  /** The body as received, byte for byte. */
  body: Buffer | undefined;
}

/** What sending gave: the real service's answer, its body yet to be read, or why there is none. */
export type UpstreamReply =
  | { kind: 'answer'; incoming: IncomingMessage }
  | {
      kind: 'failed';
      /** 502: no usable answer; 504: none within the timeout; 503: uas shut down first. */
      status: 502 | 503 | 504;
      detail: string;
      /** Set when uas stopped waiting because it shut down (the grace for requests ran out). */
      shutdown?: true;
    };

/**
 * Sends one request to the real service and waits for its status line and headers, within
 * `timeoutMs`: no redirect is followed (a 3xx is an answer), TLS is verified (with `ca` trusted
 * besides the system's), a header block over `maxHeaderBytes` or malformed HTTP is a failure. A
 * GET (or a request with an `Idempotency-Key`) whose kept-alive connection the real service
 * closed as it went out is sent again, once. Waits no longer once `graceOver` aborts (uas shuts
 * down): a 503 that says so. Never throws.
 */
export function sendUpstream(
  request: UpstreamRequest,
  options: ResolvedUpstreamOptions,
  agent: HttpAgent,
  graceOver?: AbortSignal,
): Promise<UpstreamReply> {
  const target = new URL(options.base + request.url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    let outgoing: ClientRequest | undefined;
    const done = (reply: UpstreamReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      graceOver?.removeEventListener('abort', cut);
      resolve(reply);
    };
    /** Waits no longer: a 504 that says why, or a 503 when uas shuts down. */
    const stop = (detail: string, shutdown?: true) => {
      done(
        shutdown
          ? { kind: 'failed', status: 503, detail, shutdown }
          : { kind: 'failed', status: 504, detail },
      );
      outgoing?.destroy();
    };
    const cut = () =>
      stop(`uas shut down before the real service at ${options.base} answered`, true);
    /** Whether the request got a connection: one waiting for a free one was never sent. */
    let connected = false;
    const timer = setTimeout(() => stop(noAnswer(options, agent, connected)), options.timeoutMs);
    const attempt = (retried: boolean) => {
      const sent = send(target, sendOptions(request, options, retried ? undefined : agent));
      outgoing = sent;
      sent.once('socket', () => {
        connected = true;
      });
      sent.on('response', (incoming) => done({ kind: 'answer', incoming }));
      // A 101 (or an informational status other than 100 and 103) ends nothing uas can relay.
      const unrelayable = (status: number | undefined) => {
        done(unrelayableStatus(status, options.base));
        sent.destroy();
      };
      sent.on('upgrade', (incoming: IncomingMessage, socket: Socket) => {
        socket.destroy();
        unrelayable(incoming.statusCode);
      });
      sent.on('information', ({ statusCode }) => {
        if (statusCode !== 100 && statusCode !== 103) unrelayable(statusCode);
      });
      sent.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the real service closed as the request went out on it: the
        // request most likely never reached it, and one that changes nothing, or that its client
        // marked safe to send again, is sent again, once, on a new connection (RFC 9112 section
        // 9.3.1), rather than answered 502 for a race of uas's own.
        if (
          !settled &&
          !retried &&
          sent.reusedSocket &&
          error.code === 'ECONNRESET' &&
          mayResend(request)
        )
          attempt(true);
        else done(failure(error, options.base));
      });
      sent.end(request.body);
    };
    if (graceOver?.aborted === true) {
      cut();
      return;
    }
    graceOver?.addEventListener('abort', cut, { once: true });
    attempt(false);
  });
}

/**
 * How a request goes out: on a kept-alive connection of `agent`, or, sent again, on a connection
 * of its own (the others kept alive may be closing too).
 */
function sendOptions(
  request: UpstreamRequest,
  options: ResolvedUpstreamOptions,
  agent: HttpAgent | undefined,
): RequestOptions {
  return {
    method: request.method,
    headers: request.headers,
    maxHeaderSize: options.maxHeaderBytes,
    ...(agent === undefined
      ? {
          agent: false,
          rejectUnauthorized: true,
          ...(options.ca === undefined ? {} : { ca: options.ca }),
        }
      : { agent }),
  };
}

/** Methods a request may be sent again with, when its connection failed before any answer. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Whether a request may be sent again when its connection failed before any answer: its method
 * is idempotent, or it carries an `Idempotency-Key` (or `X-Idempotency-Key`), by which its client
 * said that a second copy does no harm (the rule of Go's net/http client too).
 */
function mayResend(request: UpstreamRequest): boolean {
  const { headers } = request;
  return (
    IDEMPOTENT.has(request.method) ||
    headers['idempotency-key'] !== undefined ||
    headers['x-idempotency-key'] !== undefined
  );
}

/**
 * Why no answer came within the timeout: the real service kept silent, or, when the request never
 * got a connection (all of the pool's were busy with earlier requests), it was never sent.
 */
function noAnswer(options: ResolvedUpstreamOptions, agent: HttpAgent, connected: boolean): string {
  return connected
    ? `the real service at ${options.base} sent no answer within ${options.timeoutMs} ms`
    : `the request waited ${options.timeoutMs} ms for a connection to the real service at ${options.base} and was never sent: all ${agent.maxSockets} that uas keeps open were busy with earlier requests`;
}

function unrelayableStatus(status: number | undefined, base: string): UpstreamReply {
  const what = status === 101 ? ' (Switching Protocols)' : '';
  return {
    kind: 'failed',
    status: 502,
    detail: `the real service at ${base} answered with status ${status}${what}, which uas does not relay`,
  };
}

/** The certificate errors of a CA not trusted here: only these are helped by --upstream-ca. */
const UNKNOWN_CA = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** What a TLS failure means, with the fix that fits it. */
function tlsWords(error: NodeJS.ErrnoException): string {
  if (UNKNOWN_CA.has(error.code ?? ''))
    return 'failed the TLS check: its certificate comes from a CA not trusted here (use --upstream-ca to trust a custom CA)';
  if (error.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return 'failed the TLS check: its certificate does not name the host of --upstream';
  if (error.code === 'EPROTO' && /wrong version number/i.test(error.message))
    return 'does not speak TLS at this address (use http://)';
  return 'failed the TLS check';
}

/** A failure to reach the real service, in words that name its cause. */
function failure(error: NodeJS.ErrnoException, base: string): UpstreamReply {
  const kind = classifyNetworkError(error);
  const code = error.code === undefined ? '' : `${error.code}: `;
  const what: Record<string, string> = {
    refused: 'refused the connection',
    dns: 'has a host name that does not resolve',
    tls: tlsWords(error),
    timeout: 'timed out',
    reset: 'closed the connection before answering',
    unreachable: 'is unreachable',
    malformed: 'answered with malformed HTTP (or headers over the limit)',
  };
  return {
    kind: 'failed',
    status: kind === 'timeout' ? 504 : 502,
    detail: `the real service at ${base} ${what[kind] ?? 'failed'} (${code}${error.message})`,
  };
}

/**
 * The connections to the real service, kept alive between requests (at most 256 at once): TLS
 * verified, with `ca` trusted besides the system's for an https base.
 */
export function upstreamAgent(options: ResolvedUpstreamOptions): HttpAgent {
  const pool = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64 };
  return options.base.startsWith('https:')
    ? new HttpsAgent({
        ...pool,
        rejectUnauthorized: true,
        ...(options.ca === undefined ? {} : { ca: options.ca }),
      })
    : new HttpAgent(pool);
}
