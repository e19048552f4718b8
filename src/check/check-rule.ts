import type { RequestRecord } from '../core/records/records.js';
import type { ResolvedCheckOptions } from './check-options.js';
import type { Evidence, RuleId, Severity } from './check-report.js';
import type { LogicalRequest } from './logical-requests.js';

/** What every rule sees: the service requests oldest first, grouped, and the options. */
export interface RuleContext {
  /** Service requests (with an operation), oldest first. */
  readonly requests: readonly RequestRecord[];
  /** Requests that got past authentication (they have a client): the ones whose fields were read. */
  readonly authenticated: readonly RequestRecord[];
  /** First attempts with their resends, in order of their first attempt. */
  readonly logical: readonly LogicalRequest[];
  readonly options: ResolvedCheckOptions;
}

/** A rule's verdict on the records. A rule that had nothing to judge says why. */
export type RuleVerdict =
  | { status: 'passed' }
  | { status: 'not-exercised'; reason: string }
  | { status: 'failed'; message: string; evidence: RuleEvidence };

/**
 * Evidence as a rule gives it: with the requests of `examples` themselves, in the same order.
 * Their ids alone could name another request: ids repeat in a recording that several instances
 * wrote (`--workers`), or in recordings joined into one.
 */
export interface RuleEvidence extends Evidence {
  shown: readonly RequestRecord[];
}

/** One rule of `uas check`: where it comes from, how to fix it, and how it judges. */
export interface CheckRule {
  id: RuleId;
  severity: Severity;
  /** The spec rule it comes from, quoting the section. */
  spec: string;
  fix: string;
  evaluate(context: RuleContext): RuleVerdict;
  /**
   * The same judgement as {@link evaluate}, yielding now and then: a rule whose work grows with
   * the records has it, so that a paced check (`GET /__uas/check`) gives way within the rule.
   */
  steps?(context: RuleContext): Generator<void, RuleVerdict>;
}

/** Most request ids and values an {@link Evidence} lists. */
export const EVIDENCE_EXAMPLES = 5;

/**
 * Evidence from the requests that show a finding (ids of the oldest five) and example values (the
 * first five distinct). `count` defaults to the number of requests.
 */
export function evidenceOf(
  records: readonly RequestRecord[],
  values: Iterable<string> = [],
  figures: Record<string, number> = {},
  count = records.length,
): RuleEvidence {
  const shown = [...records].sort(oldestFirst).slice(0, EVIDENCE_EXAMPLES);
  const distinct: string[] = [];
  for (const value of values) {
    if (distinct.length === EVIDENCE_EXAMPLES) break;
    if (!distinct.includes(value)) distinct.push(value);
  }
  return { count, examples: shown.map((record) => record.id), values: distinct, figures, shown };
}

/** Requests in the order they arrived (by time, then by id): how findings list them. */
export function oldestFirst(a: RequestRecord, b: RequestRecord): number {
  return a.at - b.at || a.id - b.id;
}

/** "1 request", "3 requests". */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** A value from a request, quoted for a one-line message. */
export function quoted(value: string): string {
  return JSON.stringify(value);
}

/**
 * A value as a list of evidence shows it: as sent, or quoted when blanks at its ends would hide
 * what it is (a caller_id of spaces, one with a space at its end).
 */
export function shownValue(value: string): string {
  return value === '' || /^\s|\s$/.test(value) ? quoted(value) : value;
}

/** Milliseconds as seconds for a message: "1.02 s". */
export function inSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/**
 * The first few of a list of texts, repeats counted: "1.02 s ×3, 1.05 s, 1.06 s, …" (a "…" when
 * there are more).
 */
export function firstFew(texts: readonly string[], count = 4): string {
  const runs: { text: string; times: number }[] = [];
  for (const text of texts) {
    const last = runs[runs.length - 1];
    if (last?.text === text) last.times++;
    else runs.push({ text, times: 1 });
  }
  const shown = runs
    .slice(0, count)
    .map(({ text, times }) => (times === 1 ? text : `${text} ×${times}`));
  return runs.length > count ? `${shown.join(', ')}, …` : shown.join(', ');
}
