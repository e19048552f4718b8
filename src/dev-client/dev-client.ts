import type { Fault, FaultSpec } from '../core/service/faults.js';
import type { CodeRecord, RequestRecord } from '../core/records/records.js';
import type { RequestFilter } from '../core/admin/request-filter.js';
import type { UserPage, UserQuery } from '../core/admin/admin.js';
import type { BucketSort, BucketView } from '../core/limits/bucket-view.js';
import type { Level } from '../core/limits/bucket-key.js';
import { joinUrl } from '../http/join-url.js';
import { sendRequest } from '../http/send-request.js';
import { checkBaseUrl } from '../http/base-url.js';
import { byteLimit } from '../client/byte-limit.js';
import { timerMs } from '../client/sleep.js';
import { unsendableCharacter } from '../text/header-token.js';
import { DevApiError } from './dev-api-error.js';
import { readRefusal } from './refusal-body.js';
import { createAnswerReader, type NoneProblem } from './answer-reader.js';
import { devClientMethods } from './dev-client-methods.js';
import type { Health } from './dev-health.js';

/** Options of {@link createDevClient}. */
export interface DevClientOptions {
  /** The dev API's admin token (`uas serve --admin-token`), when it has one. */
  adminToken?: string | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /**
   * Milliseconds before a call is abandoned: a whole number from 1 to 2147483647 (the longest a
   * timer can hold); anything else is a RangeError.
   * @default 10_000
   */
  timeoutMs?: number | undefined;
  /**
   * The most bytes of an answer read, counted as they arrive (a refusal: 64 KiB at most); a longer
   * answer is not read further, and is a {@link DevApiError} (`bad-answer`).
   * @default 67_108_864 (64 MiB: 100,000 recorded requests fit)
   */
  maxResponseBytes?: number | undefined;
}

/** Default of {@link DevClientOptions.maxResponseBytes}. */
const MAX_RESPONSE_BYTES = 64 * 1_048_576;

/** A page of buckets. */
export interface BucketPage {
  total: number;
  offset: number;
  next_offset: number | null;
  /** With `sort: 'key'`, the key to give as `after` for the next page; null on the last page. */
  next_after: string | null;
  buckets: BucketView[];
}

/** The emulator's clock. */
export interface ClockView {
  mode: 'manual' | 'system';
  now: string;
  now_ms: number;
}

/** A typed client of a running emulator's dev API (`/__uas`), for tests in any runner. */
export interface DevClient {
  /** The base URL, without a trailing slash. */
  readonly url: string;
  /**
   * The emulator's version and uptime; a server that answers anything else (another JSON, a page)
   * is a {@link DevApiError} (`unavailable`) saying it is not a uas dev API.
   */
  health(): Promise<Health>;
  /** The latest code issued for an e-mail (at one merchant), or undefined when none was. */
  latestCode(email: string, merchantId?: string): Promise<CodeRecord | undefined>;
  codes(): Promise<CodeRecord[]>;
  /**
   * Recorded requests matching `filter`, oldest first: every one the journal holds, read a page
   * of 10,000 at a time.
   */
  requests(filter?: RequestFilter): Promise<RequestRecord[]>;
  /** The same, and how many requests the journal let go to keep its size (those are not in it). */
  requestLog(filter?: RequestFilter): Promise<{ requests: RequestRecord[]; dropped: number }>;
  /** Requests, newest first. */
  journal(limit?: number): Promise<RequestRecord[]>;
  buckets(query?: {
    level?: Level;
    client?: string;
    search?: string;
    sort?: BucketSort;
    offset?: number;
    limit?: number;
    /** With `sort: 'key'`: the buckets whose key sorts after this one (`next_after` of the page before). */
    after?: string;
  }): Promise<BucketPage>;
  bucket(key: string): Promise<BucketView | undefined>;
  /** Resets one bucket, or every bucket without a key. */
  resetBuckets(key?: string): Promise<void>;
  /** Returns the emulator to its initial state (buckets, codes, journal, users, config, faults, clock). */
  reset(): Promise<void>;
  /** Changes limits, behaviour or codes live (`PATCH /__uas/config`); returns the config. */
  configure(patch: unknown): Promise<unknown>;
  config(): Promise<unknown>;
  /**
   * One page of the users the emulator has now (`GET /__uas/users`): `limit` (default 1,000, at
   * most 100,000) from the `offset`-th, in the order they were added; `next_offset` is null on
   * the last page.
   */
  users(query?: UserQuery): Promise<UserPage>;
  /** Adds users, or replaces those with the same e-mail: how many of each. */
  addUsers(
    users: Array<{ email: string; phone_number?: string; token_count?: number }>,
  ): Promise<{ added: number; replaced: number }>;
  /**
   * Removes a user and drops its one-time codes (`DELETE /__uas/users/{email}`): the e-mail
   * removed and the codes dropped, or undefined when no user has that e-mail.
   */
  removeUser(email: string): Promise<{ removed: string; codes: number } | undefined>;
  failNext(fault: FaultSpec): Promise<Fault>;
  faults(): Promise<Fault[]>;
  clearFaults(): Promise<void>;
  clock(): Promise<ClockView>;
  /** Moves a manual clock forward (`uas serve --clock manual`). */
  advanceClock(ms: number): Promise<ClockView>;
  /** Sets a manual clock to a time (a Date, ISO text or ms since the epoch). */
  setClock(time: Date | string | number): Promise<ClockView>;
  metrics(): Promise<string>;
}

/**
 * Creates a client of the dev API of the emulator at `url`, an http(s) URL such as
 * `http://127.0.0.1:4010` (with a path prefix where the emulator is mounted under one); another
 * scheme, credentials, a query or text that is no URL is a TypeError naming the value. Every
 * failure of a call is a {@link DevApiError} that says what was called and why it failed (an
 * admin token missing, the server unreachable, a refusal with its problem).
 */
export function createDevClient(url: string, options: DevClientOptions = {}): DevClient {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(
      `createDevClient takes an object of options (adminToken, ...), or none; got ${String(options)}`,
    );
  const base = checkBaseUrl(url, 'createDevClient: url', '; give the admin token as adminToken');
  const maxBytes = byteLimit(
    options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
    'createDevClient: maxResponseBytes',
  );
  // A delay no timer takes would fail every call as a network error naming "delay".
  const timeoutMs = timerMs(options.timeoutMs ?? 10_000, 'createDevClient: timeoutMs');
  const why =
    options.adminToken === undefined ? undefined : unsendableCharacter(options.adminToken);
  if (why !== undefined)
    throw new TypeError(
      `createDevClient: adminToken cannot go in an Authorization header: ${why} (a token is one line of printable ASCII)`,
    );
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const auth: Record<string, string> =
    options.adminToken === undefined ? {} : { authorization: `Bearer ${options.adminToken}` };

  async function call(
    method: string,
    path: string,
    body?: unknown,
    /** The problem a 404 of this call carries when there is nothing to give (undefined then). */
    none?: NoneProblem,
  ): Promise<Response | undefined> {
    const where = `${method} /__uas${path}`;
    const sent = await sendRequest(
      {
        method,
        url: joinUrl(base, `/__uas${path}`),
        headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      { fetch: doFetch, timeoutMs },
    );
    if (sent.kind === 'no-answer') throw DevApiError.network(where, base, sent.cause);
    const answer = sent.response;
    if (answer.ok) return answer;
    if (answer.status === 404 && none !== undefined) {
      // Read, not cancelled: msw's interceptor settles a cancel only once the body is consumed.
      const text = await readRefusal(answer);
      // Only the dev API's own "none" means none: any other 404 (no dev API there, a proxy's
      // page) would otherwise read as "no code was issued".
      if (problemType(text) === `urn:uas:problem:${none}`) return undefined;
      throw DevApiError.notDevApi(where, 404, `the answer is not its ${none} problem`, text);
    }
    throw await DevApiError.refused(where, answer, options.adminToken !== undefined);
  }
  return devClientMethods(base, createAnswerReader(call, maxBytes));
}

/** The `type` of a problem+json text; undefined when it is not one. */
function problemType(text: string): unknown {
  try {
    return (JSON.parse(text) as { type?: unknown } | null)?.type;
  } catch {
    return undefined;
  }
}
