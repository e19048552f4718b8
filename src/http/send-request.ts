import {
  classifyNetworkError,
  describeNetworkError,
  wasNeverSent,
  type NetworkErrorKind,
} from './network-error.js';

/** A request to send, whole: its URL absolute, its body text (JSON as sent). */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** How a request is sent. */
export interface SendOptions {
  /**
   * Milliseconds before the request, its body included when it is read (with the same
   * `signal`), is abandoned as timed out.
   */
  timeoutMs: number;
  /** @default globalThis.fetch, looked up at each request (so an interceptor set up later applies) */
  fetch?: typeof fetch | undefined;
  /** Words a failure. @default describeNetworkError */
  describe?: ((failure: unknown) => string) | undefined;
}

/** Why no answer came: the error in words, its kind, and whether the request may have left. */
export interface NoAnswer {
  kind: 'no-answer';
  error: string;
  reason: NetworkErrorKind;
  /** False only when no connection was made (refused, a name that does not resolve, no route). */
  sent: boolean;
  /** What fetch threw. */
  cause: unknown;
}

/** What sending a request gave: a response whose body is yet to be read, or no answer. */
export type Sent = { kind: 'response'; response: Response } | NoAnswer;

/**
 * Sends one request and waits for its status line and headers, never following a redirect: a
 * 3xx is an answer like any other, so the request (a token, an e-mail, a code) never goes where a
 * server says. One deadline of `timeoutMs` covers the status line, the headers and the body read
 * from the response; a failure of any kind (and a deadline fetch cannot keep) is a
 * {@link NoAnswer}, never an exception.
 */
export async function sendRequest(request: HttpRequest, options: SendOptions): Promise<Sent> {
  const doFetch = options.fetch ?? globalThis.fetch;
  try {
    const response = await doFetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    return { kind: 'response', response };
  } catch (failure) {
    return noAnswer(failure, options.describe ?? describeNetworkError);
  }
}

function noAnswer(failure: unknown, describe: (failure: unknown) => string): NoAnswer {
  const reason = classifyNetworkError(failure);
  const error = describe(failure);
  return { kind: 'no-answer', error, reason, sent: !wasNeverSent(reason), cause: failure };
}
