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
