import type { AnswerCut } from '../core/records/records.js';
import type { EmulatorRequest } from '../core/service/exchange.js';

/** The reason a request's signal aborts with when its client went away (not at shutdown). */
export const CLIENT_GONE = 'client-gone';

/** A request as the transport hands it to an engine. */
export interface TransportRequest extends EmulatorRequest {
  /**
   * Aborted when the client goes away (its reason then {@link CLIENT_GONE}) or the server shuts
   * down: a delayed answer stops waiting.
   */
  signal: AbortSignal | undefined;
  /**
   * Aborted when uas shuts down and the grace for requests in flight runs out: an engine still
   * waiting (on the real service) stops, and its exchange is journaled as cut by the shutdown.
   */
  graceOver?: AbortSignal | undefined;
  /**
   * Whether its client has left before its answer was written out (its connection closed before
   * uas closed it at the end of the grace at shutdown): an exchange cut then was cut by its client.
   */
  clientLeft?: (() => boolean) | undefined;
  /** The body as the bytes received (`body` is their UTF-8 reading), forwarded as is by a proxy. */
  rawBody?: Buffer | undefined;
}

/** An answer as an engine gives it to the transport. */
export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[]>;
  /** The whole body. */
  body?: string | Uint8Array | undefined;
  /** A body to stream as its reader takes it (server-sent events), instead of `body`. */
  stream?: ReadableStream<Uint8Array> | undefined;
  /** The least milliseconds between two writes of `stream` (what comes meanwhile goes together). */
  paceMs?: number | undefined;
  /**
   * A body relayed as it arrives, unchanged (an answer of the real service, `uas serve
   * --upstream`), instead of `body`; `headers` are sent as they are.
   */
  relay?: ReadableStream<Uint8Array> | undefined;
  /**
   * With `relay`: told once whether the answer reached its client whole (written out: undefined)
   * or not, and why: `client`, its client left before it was (even while it waited behind another
   * on its connection); `upstream`, the real service cut it short, or one before it on its
   * connection, which uas then closed; `shutdown`, uas closed its connection at shutdown, the
   * grace for answers in flight over.
   */
  delivered?: ((cut: AnswerCut | undefined) => void) | undefined;
  /** Close the connection after this answer. */
  close?: boolean | undefined;
}

/**
 * How a request reaches the core: the msw engine turns it into a Fetch request for msw's
 * handlers. Without one, the transport calls the core directly (the default, fast engine).
 * Resolves with undefined when no handler answered.
 */
export type Engine = (request: TransportRequest) => Promise<TransportResponse | undefined>;
