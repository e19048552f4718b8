import type { RequestRecord, UpstreamFacts } from '../records/records.js';
import { scrubSecrets } from '../records/redact.js';
import { BUCKET_HEADER } from '../limits/rate-limit-headers.js';
import { problemKindOf } from './pipeline.js';
import { parseHttpDate } from '../time/http-date.js';
import { clipString } from './request-facts.js';

/** What the real service answered (or what uas answered for it), as the record needs it. */
export interface UpstreamAnswer {
  status: number;
  /** Header names in lower case, lines joined. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The start of the body as text (enough for a problem's `type`); undefined when none was kept. */
  body: string | undefined;
  /** Set when uas answered instead because the real service failed (502, 504). */
  failed?: boolean;
  /** Set when the answer did not reach the client whole, and why (see {@link UpstreamFacts}). */
  cut?: UpstreamFacts['cut'];
}

/** The rate-limit headers a record names, as the fidelity report compares them. */
const RATE_LIMIT_HEADER = /^(?:x-)?rate-?limit(?:-[a-z]+)?$|^retry-after$|^uas-bucket$/;
const POLICY_HEADERS = ['ratelimit-policy', 'x-ratelimit-limit', 'ratelimit-limit'];
/** The longest wait a record states, in seconds (what its schema allows). */
const WAIT_SECONDS_MAX = 1_000_000_000_000;

/** What a record of a forwarded request says of the real service before its answer is known. */
export function upstreamFacts(): UpstreamFacts {
  return {
    answered_by: 'upstream',
    local: undefined,
    headers: [],
    policy: undefined,
    retry_after_text: undefined,
    problem_type: undefined,
    bucket: undefined,
    cut: undefined,
  };
}

/**
 * Completes the record of a forwarded request with what the real service answered: its status,
 * Retry-After, remaining tokens and bucket when it states them, its problem kind, and the facts
 * the fidelity report compares. `secrets` (the request's token) are redacted from what is kept.
 */
export function finishUpstreamRecord(
  record: RequestRecord,
  answer: UpstreamAnswer,
  now: number,
  secrets: readonly string[],
): RequestRecord {
  const { headers, status } = answer;
  const keep = (text: string | undefined) =>
    text === undefined ? undefined : clipString(scrubSecrets(text, secrets));
  const facts = record.upstream ?? upstreamFacts();
  record.upstream = facts;
  if (answer.failed === true) facts.answered_by = 'proxy';
  facts.cut = answer.cut;
  record.status = status;
  facts.headers = Object.keys(headers)
    .filter((name) => RATE_LIMIT_HEADER.test(name))
    .slice(0, 32);
  facts.policy = keep(POLICY_HEADERS.map((name) => headers[name]).find((v) => v !== undefined));
  facts.retry_after_text = keep(headers['retry-after']);
  record.retry_after = retryAfterSeconds(headers['retry-after'], now);
  const problem = problemOf(answer.body);
  facts.problem_type = keep(problem.type);
  facts.bucket = keep(headers[BUCKET_HEADER] ?? problem.bucket);
  if (status >= 400)
    record.problem = problem.type === undefined ? undefined : keep(problemKindOf(problem.type));
  if (facts.local === undefined) {
    record.bucket = facts.bucket;
    record.level = levelOf(facts.bucket);
    record.remaining = remainingOf(headers);
  }
  // An answer the real service cut short failed, whatever its status line said.
  record.outcome =
    answer.failed === true || answer.cut === 'upstream'
      ? 'upstream-failed'
      : outcomeOf(status, facts.local);
  return record;
}

function outcomeOf(
  status: number,
  local: 'allowed' | 'refused' | undefined,
): RequestRecord['outcome'] {
  if (status === 429) return 'rate-limited';
  if (status === 401) return 'unauthenticated';
  if (status === 400 || status === 413 || status === 415 || status === 422) return 'invalid';
  return local === 'refused' ? 'shadow-limited' : 'allowed';
}

/**
 * Seconds of a Retry-After value: delay-seconds, or an HTTP date (in one of its three forms,
 * strictly) from `now`; undefined for anything else (a negative number, repeated fields joined by a comma), never 0 in their stead.
 */
export function retryAfterSeconds(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), WAIT_SECONDS_MAX);
  const date = parseHttpDate(text);
  if (date === undefined) return undefined;
  return Math.min(Math.max(0, Math.ceil((date - now) / 1000)), WAIT_SECONDS_MAX);
}

/** Tokens left, when the real service says: draft-10 `r=`, or a `*-Remaining` header. */
function remainingOf(headers: UpstreamAnswer['headers']): number | undefined {
  const draft10 = /(?:^|[;,\s])r=(\d{1,15})(?:[;,\s]|$)/.exec(headers['ratelimit'] ?? '');
  const text = draft10?.[1] ?? headers['ratelimit-remaining'] ?? headers['x-ratelimit-remaining'];
  return text !== undefined && /^\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

function levelOf(bucket: string | undefined): RequestRecord['level'] {
  if (bucket?.startsWith('client:') === true) return 'client';
  if (bucket?.startsWith('caller:') === true) return 'caller';
  return undefined;
}

/** The `type` and `bucket` of a problem body, when the text is one. */
function problemOf(body: string | undefined): { type?: string; bucket?: string } {
  if (body === undefined || body.length === 0 || body.trimStart()[0] !== '{') return {};
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null) return {};
  const { type, bucket } = value as Record<string, unknown>;
  return {
    ...(typeof type === 'string' ? { type } : {}),
    ...(typeof bucket === 'string' ? { bucket } : {}),
  };
}
