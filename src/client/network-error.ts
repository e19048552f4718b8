/**
 * Says why a fetch failed, as specifically as Node tells it: `ECONNREFUSED: connect ...`,
 * `timed out`, `bad port`, or the error's own message.
 */
export function describeNetworkError(error: unknown): string {
  const failure = error as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (failure.name === 'TimeoutError') return 'timed out';
  const cause = failure.cause;
  if (cause?.code !== undefined) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  if (cause?.message !== undefined) return cause.message;
  return failure.message ?? String(error);
}

/**
 * What a server's malformed answer is called: the HTTP parser's errors (`HPE_*`), or, by newer
 * versions of Node's fetch, a body length that disagrees with its Content-Length headers.
 */
const MALFORMED = /^(?:HPE_|UND_ERR_RES_CONTENT_LENGTH_MISMATCH)/;

/** Connection errors where the request never left, so repeating it cannot run it twice. */
export const NOT_SENT = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/;

/**
 * Says for people why `base` gave no whole answer, from the error of the last attempt (as
 * {@link describeNetworkError} words it): `cannot reach` only when no connection was made; a
 * server that answered, with malformed HTTP or a body cut short, is not called unreachable.
 * `answered`: a status line came.
 */
export function describeNoAnswer(base: string, error: string, answered: boolean): string {
  if (answered) return `no whole answer from ${base}: ${error}`;
  if (NOT_SENT.test(error)) return `cannot reach ${base}: ${error}`;
  if (MALFORMED.test(error)) return `${base} answered with malformed HTTP: ${error}`;
  return `no answer from ${base}: ${error}`;
}
