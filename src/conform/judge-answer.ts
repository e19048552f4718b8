import type { ProbeExchange } from './conform-sender.js';
import type { ProbeContext, ServiceAnswer } from './probe.js';

/** The first characters of a body, on one line, to show beside an unexpected status. */
export function bodyExcerpt(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return text === '' ? '' : `: ${text.length > 160 ? `${text.slice(0, 160)}…` : text}`;
}

/**
 * The differences between an answer and what the contract says `operation` answers with
 * `expected`: no answer, another status, or (through the document) its content type, body and
 * headers other than the rate-limit fields, which `headers.rate-limit` judges.
 */
export function answerDifferences(
  context: ProbeContext,
  operation: ServiceAnswer['operation'],
  exchange: ProbeExchange,
  expected: number,
): string[] {
  const { quote } = context;
  if (exchange.status === undefined) return [`no answer: ${exchange.error}`];
  if (exchange.error !== undefined)
    return [`${exchange.status} without a whole body: ${exchange.error}`];
  if (exchange.status !== expected) {
    // A redirect (an http:// URL of an https-only sandbox, a missing path prefix) is never
    // followed: where it points says what to fix, where its body rarely does.
    const location =
      exchange.status >= 300 && exchange.status < 400 ? exchange.headers.get('location') : null;
    const excerpt = location === null ? bodyExcerpt(exchange.body) : ` to ${location}`;
    return [`expected ${expected}, got ${exchange.status}${quote(excerpt)}`];
  }
  // The validator's differences quote the answer's values.
  return context.validator
    .check(operation, { status: exchange.status, headers: exchange.headers, body: exchange.body })
    .map(quote);
}

/** A member of a JSON body, or undefined (the body was already checked against the contract). */
export function answerMember(exchange: ProbeExchange, name: string): unknown {
  try {
    return (JSON.parse(exchange.body) as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

/** A validation problem names the field: an entry of `errors` points at it. */
export function pointerDifferences(
  context: ProbeContext,
  exchange: ProbeExchange,
  pointer: string,
): string[] {
  const errors = answerMember(exchange, 'errors');
  const pointers = Array.isArray(errors)
    ? errors.map((entry) => (entry as { pointer?: unknown }).pointer)
    : [];
  return pointers.includes(pointer)
    ? []
    : [
        `expected an entry of "errors" with "pointer": "${pointer}", got ${context.quote(JSON.stringify(errors ?? null))}`,
      ];
}
