/** A request as every transport hands it to the core. */
export interface EmulatorRequest {
  method: string;
  /** Path and query string as sent, such as `/v1/users/exists?email=a%40b.c`. */
  url: string;
  /** Header names in lower case; a header sent on several lines may be an array. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as text; undefined when there is none. */
  body?: string | undefined;
  /**
   * Bytes in the body. A transport stops reading past the size limit, so this can exceed the
   * length of `body`: the core answers 413 from it.
   */
  bodyBytes?: number | undefined;
  /**
   * The origin of the server that answered, such as `http://127.0.0.1:4010` (the address it
   * listens on, as the transport knows it): the server a document served to a request without a
   * usable Host names. Undefined when the transport does not know it.
   */
  localOrigin?: string | undefined;
  /**
   * The path the emulator is mounted under in an app of the user's (`/uas` for
   * `app.use('/uas', createMiddleware())`), which the server a served document names includes.
   * Undefined when the emulator answers at the root.
   */
  mountPath?: string | undefined;
}

/**
 * Gives way to other work: resolves on a later turn of the transport's event loop. A transport
 * hands it to `handle` so that long dev-API work (`GET /__uas/check` on a large journal) does not
 * hold every other request back meanwhile; the core has no timers of its own.
 */
export type GiveWay = () => Promise<void>;

/** An answer of the core, translated into HTTP by the transport. */
export interface EmulatorResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** A JSON value, serialised by the transport; undefined for no body. */
  body?: unknown;
  /** A text body (Prometheus metrics), used instead of `body`. */
  text?: string;
  /**
   * A body the transport streams as it is pulled (`GET /__uas/events`), instead of `body`. The
   * transport reads it only as fast as its client takes it, and cancels it when the client goes.
   */
  stream?: ReadableStream<Uint8Array>;
  /**
   * The least milliseconds between two writes of `stream`: what comes meanwhile is written
   * together (fewer, larger writes for a reader that does not need each event at once).
   */
  paceMs?: number;
  /** Milliseconds the transport waits before answering (configured latency). */
  delayMs: number;
  /** Asks the transport to close the connection after the answer (the body was not read whole). */
  close?: boolean;
}

/** Reads a header as one string (lines joined by a comma), or undefined. */
export function headerValue(headers: EmulatorRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Splits a request URL into its path and its query string (without `?`). */
export function splitUrl(url: string): { path: string; query: string } {
  const mark = url.indexOf('?');
  return mark === -1
    ? { path: url, query: '' }
    : { path: url.slice(0, mark), query: url.slice(mark + 1) };
}
