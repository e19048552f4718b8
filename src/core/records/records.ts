import type { Level } from '../limits/bucket-key.js';
import type { Operation } from '../config/config.js';

/** How the limiter treated a request. */
export const OUTCOMES = [
  'allowed',
  'rate-limited',
  'shadow-limited',
  'injected-429',
  'injected-fault',
  'invalid',
  'unauthenticated',
  'unrouted',
  'upstream-failed',
] as const;

/** How the limiter treated a request. */
export type Outcome = (typeof OUTCOMES)[number];

/** Where a caller_id was read from: the place the spec gives it (query on exists, body on start and verify). */
export type CallerIdSource = 'query' | 'body';

/**
 * A caller_id sent where the service does not read it: a header such as `X-Caller-Id`, the query
 * string of a POST, the body of the GET, or a field spelt otherwise (`callerId`).
 */
export interface MisplacedCallerId {
  place: 'header' | 'query' | 'body';
  /** The header, parameter or field name as sent. */
  name: string;
  value: string;
}

/**
 * One request, as kept in the journal, sent on the event stream, written by `--record` and
 * returned by `requests()`. Field names are snake_case like the rest of the wire format; every
 * text that came from the client is bounded (see {@link RECORD_TEXT_MAX}).
 */
export interface RequestRecord {
  /**
   * 1, 2, 3... in the order the journal holds records: the order they were answered, which for a
   * slow answer (behind `--upstream`) is not the order they came in (`at`).
   */
  id: number;
  /** Milliseconds since the epoch, from the emulator's clock, when the request came in. */
  at: number;
  method: string;
  path: string;
  operation: Operation | undefined;
  client_id: string | undefined;
  /** The merchant of start and verify, as sent in the path. */
  merchant_id: string | undefined;
  /** The e-mail of the request (query of exists, body of start and verify), as sent. */
  email: string | undefined;
  /** The phone number of an exists request, as sent. */
  phone_number: string | undefined;
  /**
   * The caller_id sent in the place the service reads it, as sent (even when invalid); the bucket
   * says whether it was used.
   */
  caller_id: string | undefined;
  /** Where `caller_id` was found; undefined when none was sent there. */
  caller_id_source: CallerIdSource | undefined;
  /** caller_ids sent where the service ignores them. Empty when there are none. */
  caller_id_misplaced: MisplacedCallerId[];
  /**
   * Fields of the body (start, verify) or query (exists) other than the one-time code: what a
   * test asserts on. Undefined when the body could not be read as a JSON object.
   */
  fields: Record<string, unknown> | undefined;
  /**
   * A hash of the request without its caller_id (method, path, sorted query or body fields,
   * the code included): equal for a resend of the same request, different when a shopper types
   * another code. Hex, 16 characters.
   */
  fingerprint: string;
  user_agent: string | undefined;
  idempotency_key: string | undefined;
  /** The `Retry-Attempt` header (or `X-Retry-Attempt`), as sent. */
  retry_attempt: string | undefined;
  bucket: string | undefined;
  level: Level | undefined;
  status: number;
  outcome: Outcome;
  /** Whole tokens left in the bucket after the request. */
  remaining: number | undefined;
  /** The `Retry-After` sent back with a 429, in seconds; undefined when none was sent. */
  retry_after: number | undefined;
  /** The problem kind of an error answer (for example `code-invalid`). */
  problem: string | undefined;
  /**
   * Set on a request `uas serve --upstream` forwarded (or would have): what the real service
   * answered. Absent on a request the emulator answered itself.
   */
  upstream?: UpstreamFacts | undefined;
}

/** Who answered a request in front of the real service. */
export const UPSTREAM_ANSWERERS = ['upstream', 'local', 'proxy'] as const;

/**
 * What a request sent through `uas serve --upstream` met: the real service's own words on its
 * limits, kept for `uas conform --journal` (status, Retry-After and problem kind are in the
 * record's own fields).
 */
export interface UpstreamFacts {
  /**
   * `upstream`: the real service answered; `local`: uas's buckets refused it first
   * (`--enforce local`), it was not forwarded; `proxy`: the real service could not be reached or
   * failed (uas answered 502 or 504).
   */
  answered_by: (typeof UPSTREAM_ANSWERERS)[number];
  /** What uas's own bucket said (`--enforce local` and `shadow`); undefined with `--enforce upstream`. */
  local: 'allowed' | 'refused' | undefined;
  /** Names (lower case) of the rate-limit headers the real service sent, Retry-After included. */
  headers: string[];
  /** The policy it stated: `RateLimit-Policy` (or `X-RateLimit-Limit`, `RateLimit-Limit`), as sent. */
  policy: string | undefined;
  /** `Retry-After` as sent, even when it is a date. */
  retry_after_text: string | undefined;
  /** The `type` of its problem+json body, as sent. */
  problem_type: string | undefined;
  /** The bucket it named (a `uas-bucket` header, or a `bucket` member of its problem). */
  bucket: string | undefined;
  /**
   * Set when the answer did not reach the client whole: `upstream`, the real service ended it
   * early (closed its connection inside the body, passed the body limit, or paused inside it past
   * `--upstream-timeout`); `client`, the client left before it ended, or before it began;
   * `shutdown`, uas shut down and closed the connection when the grace it gives answers in flight
   * ran out.
   */
  cut: AnswerCut | undefined;
}

/** Why an answer relayed from the real service did not reach its client whole. */
export const ANSWER_CUTS = ['upstream', 'client', 'shutdown'] as const;

/** Why an answer relayed from the real service did not reach its client whole. */
export type AnswerCut = (typeof ANSWER_CUTS)[number];

/** The longest text kept from a request in a record field; longer text is cut and ends in `…`. */
export const RECORD_TEXT_MAX = 256;

/** A one-time code as reported by the dev API and the event stream (never by the service). */
export interface CodeRecord {
  merchant_id: string;
  email: string;
  code: string;
  issued_at: string;
  expires_at: string;
  attempts_left: number;
  used: boolean;
}

/**
 * What `GET /__uas/events?requests=summary` carries of a request's record, in this order: enough
 * to count it (by level, by bucket, allowed or refused) at a small part of the cost of the whole.
 */
export type RequestSummary = Pick<
  RequestRecord,
  'id' | 'at' | 'operation' | 'status' | 'outcome' | 'level' | 'bucket'
>;

/** What the emulator announces to listeners (the server log, the TUI, server-sent events). */
export type EmulatorEvent =
  /**
   * A request answered. `from` is set on one another instance sharing the store answered (an
   * opaque id of that instance): its id counts in that instance's journal, not this one's.
   */
  | { type: 'request'; request: RequestRecord; from?: string }
  | { type: 'code'; code: CodeRecord }
  /** One bucket, every bucket (`bucket` undefined), or the whole emulator (`emulator`). */
  | { type: 'reset'; bucket: string | undefined; emulator: boolean }
  | { type: 'config'; limits: unknown; behavior: unknown; otp: unknown }
  /**
   * Users changed live: `added` users added or replaced (`POST /__uas/users`), or the user whose
   * e-mail is `removed` taken out, with its codes (`DELETE /__uas/users/{email}`).
   */
  | { type: 'users'; added: number; removed: string | undefined };
