/** Texts the dashboard shows, made from numbers and records (pure, tested without a browser). */

export { formatDuration } from '../text/duration.js';

/** A time of day with milliseconds, in UTC: `01:02:03.456`. */
export function formatClock(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(11, 23) : '—';
}

/** A count with thousands separated: `12,345`. */
export function formatCount(count: number): string {
  return Math.round(count).toLocaleString('en-US');
}

/** A fraction of a bucket as a whole percentage, bounded to 0..100. */
export function fillPercent(tokens: number, burst: number): number {
  if (!(burst > 0) || !Number.isFinite(tokens)) return 0;
  return Math.max(0, Math.min(100, Math.round((tokens / burst) * 100)));
}

/** The text of a request's outcome, so colour is never the only sign of a refusal. */
export function outcomeLabel(status: number, outcome: string): string {
  if (status === 429) return outcome === 'injected-429' ? '429 injected' : '429 refused';
  if (status >= 500) return `${status} fault`;
  // Behind --upstream, an answer the real service cut short failed whatever its status line said.
  if (outcome === 'upstream-failed') return `${status} failed`;
  if (status >= 400) return `${status} error`;
  return `${status} ok`;
}

/** What a request got, in words: outcome, problem, and whether the answer reached its client whole. */
export function answerText(request: {
  status: number;
  outcome: string;
  problem?: string | undefined;
  upstream?: { cut?: string | undefined } | undefined;
}): string {
  const problem = request.problem === undefined ? '' : ` (${request.problem})`;
  const cut = request.upstream?.cut;
  const end =
    cut === 'upstream'
      ? '; cut short by the real service'
      : cut === 'client'
        ? '; the client left before it ended'
        : cut === 'shutdown'
          ? '; cut when uas shut down'
          : '';
  return `${outcomeLabel(request.status, request.outcome)}${problem}${end}`;
}

/** The kind of a status, for its style: ok, refused or error. */
export function statusKind(status: number): 'ok' | 'refused' | 'error' {
  return status === 429 ? 'refused' : status >= 400 ? 'error' : 'ok';
}

/** Where a request's caller_id was, in words. */
export function callerIdPlace(request: {
  caller_id?: string | undefined;
  caller_id_source?: string | undefined;
  caller_id_misplaced: ReadonlyArray<{ place: string; name: string }>;
}): string {
  if (request.caller_id !== undefined && request.caller_id_source !== undefined)
    return `in the ${request.caller_id_source === 'query' ? 'query' : 'JSON body'}, where the service reads it`;
  const misplaced = request.caller_id_misplaced[0];
  if (misplaced !== undefined)
    return `misplaced: ${misplaced.place} ${misplaced.name} (the service ignores it; the client bucket counted the request)`;
  return 'none sent: the client bucket counted the request';
}

/**
 * The `Retry-After` a request got, in words: its seconds, and for an answer of the real service
 * behind `uas serve --upstream` the text it sent when that differs (an HTTP date) or could not be
 * read as a delay (`-5`, `5, 10`), which is not the same as none sent.
 */
export function retryAfterText(request: {
  retry_after?: number | undefined;
  upstream?: { retry_after_text?: string | undefined } | undefined;
}): string {
  const sent = request.upstream?.retry_after_text;
  if (request.retry_after === undefined)
    return sent === undefined
      ? 'none sent'
      : `"${sent}" as sent by the real service: neither delay-seconds nor an HTTP date`;
  const seconds = `${request.retry_after} s`;
  return sent === undefined || sent.trim() === String(request.retry_after)
    ? seconds
    : `${seconds} (sent as "${sent}")`;
}

/**
 * A value of traffic as one line of text: control characters are shown as escapes, so a value
 * cannot move the text around it. (Preact renders text, never HTML.)
 */
export function oneLine(value: unknown, max = 300): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const escaped = text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}
