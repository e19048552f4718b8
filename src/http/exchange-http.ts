import type { NetworkErrorKind } from './network-error.js';
import { readResponseBody } from './read-response-body.js';
import { sendRequest, type HttpRequest, type NoAnswer, type SendOptions } from './send-request.js';

/** How one exchange is made: {@link SendOptions}, and the longest body read. */
export interface ExchangeOptions extends SendOptions {
  /** The most bytes of a body read, counted as they arrive. */
  maxResponseBytes: number;
}

/** What every exchange that got a status line and headers has. */
interface Heard {
  status: number;
  headers: Headers;
}

/** A whole answer: its body read to the end, within the limit. */
export interface HttpAnswer extends Heard {
  kind: 'answer';
  text: string;
}

/** A status line and headers, then a body that broke off (closed, reset, timed out). */
export interface HttpCutShort extends Heard {
  kind: 'cut-short';
  error: string;
  reason: NetworkErrorKind;
}

/** A status line and headers, then a body longer than the limit: not read any further. */
export interface HttpTooLarge extends Heard {
  kind: 'too-large';
  error: string;
}

/** What came of one request. A redirect is an answer (its status and Location), never followed. */
export type HttpOutcome = HttpAnswer | HttpCutShort | HttpTooLarge | NoAnswer;

/**
 * Sends one request and reads its answer whole: never following a redirect, within one deadline
 * for the status line, the headers and the body, never reading more than `maxResponseBytes` of
 * the body. Nothing throws: a failure is an outcome that says what broke and its kind.
 */
export async function exchangeHttp(
  request: HttpRequest,
  options: ExchangeOptions,
): Promise<HttpOutcome> {
  const sent = await sendRequest(request, options);
  if (sent.kind === 'no-answer') return sent;
  const { status, headers } = sent.response;
  const body = await readResponseBody(sent.response, options.maxResponseBytes, options.describe);
  if (body.kind === 'complete') return { kind: 'answer', status, headers, text: body.text };
  if (body.kind === 'cut-short')
    return { kind: 'cut-short', status, headers, error: body.error, reason: body.reason };
  return { kind: 'too-large', status, headers, error: body.error };
}

/** Where a 3xx answer points (its Location), for a report; undefined for any other answer. */
export function redirectTarget(outcome: HttpOutcome): string | undefined {
  if (outcome.kind === 'no-answer' || outcome.status < 300 || outcome.status >= 400)
    return undefined;
  return outcome.headers.get('location') ?? undefined;
}
