import type { Operation } from '../core/config/config.js';
import { isPathSegment, operationPath, SERVICE_METHODS } from '../core/service/service-routes.js';
import { joinUrl } from '../http/join-url.js';
import type { Answers } from './answers.js';
import type { CallRequest, CallResult } from './call-result.js';
import { callWithRetry } from './call-with-retry.js';
import { resolveClientOptions, type ClientOptions } from './client-options.js';

export type { ExistsAnswer, StartAnswer, VerifyAnswer } from './answers.js';
export type {
  AttemptRecord,
  CallHttpError,
  CallInvalidAnswer,
  CallNetworkError,
  CallOutcome,
  CallRateLimited,
  CallRequest,
  CallResult,
  CallSuccess,
  GaveUp,
} from './call-result.js';
export type { ClientClock, ClientOptions, RetryNotice } from './client-options.js';
export { DEFAULT_MAX_RESPONSE_BYTES } from './client-options.js';

/** A typed client of the three operations, with the spec's retry policy. */
export interface Client {
  exists(query: {
    email?: string;
    phoneNumber?: string;
    callerId?: string;
  }): Promise<CallResult<Answers['exists']>>;
  start(input: {
    merchantId: string;
    email: string;
    callerId?: string;
  }): Promise<CallResult<Answers['start']>>;
  verify(input: {
    merchantId: string;
    email: string;
    code: string;
    callerId?: string;
  }): Promise<CallResult<Answers['verify']>>;
}

/**
 * Creates a client of the user-access API. On 429 it waits Retry-After plus jittered backoff and
 * tries again, at most three attempts in all (spec section 7); `start` and `verify` are repeated
 * after a network error only when the request was never sent. It never follows a redirect, never
 * reads more than `maxResponseBytes` of a body, and reports a body cut short as a network error.
 */
export function createClient(options: ClientOptions): Client {
  const settings = resolveClientOptions(options);
  const headers = { authorization: `Bearer ${options.token}`, accept: 'application/json' };
  const request = (
    operation: Operation,
    path: string,
    payload?: Record<string, unknown>,
  ): CallRequest => ({
    method: SERVICE_METHODS[operation],
    url: joinUrl(settings.baseUrl, path),
    headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const caller = (callerId: string | undefined) =>
    callerId === undefined ? {} : { caller_id: callerId };
  return {
    exists(query) {
      checkInput('exists', query, ['email', 'phoneNumber', 'callerId']);
      const params = new URLSearchParams();
      if (query.email !== undefined) params.set('email', query.email);
      if (query.phoneNumber !== undefined) params.set('phone_number', query.phoneNumber);
      if (query.callerId !== undefined) params.set('caller_id', query.callerId);
      const path = `${operationPath('exists')}?${params}`;
      return callWithRetry(settings, 'exists', request('exists', path));
    },
    start(input) {
      checkInput('start', input, ['email', 'callerId']);
      const path = operationPath('start', merchantSegment('start', input.merchantId));
      return callWithRetry(
        settings,
        'start',
        request('start', path, { email: input.email, ...caller(input.callerId) }),
      );
    },
    verify(input) {
      checkInput('verify', input, ['email', 'code', 'callerId']);
      const path = operationPath('verify', merchantSegment('verify', input.merchantId));
      const payload = { email: input.email, verification_code: input.code };
      return callWithRetry(
        settings,
        'verify',
        request('verify', path, { ...payload, ...caller(input.callerId) }),
      );
    },
  };
}

/**
 * A TypeError, thrown before anything is sent, for an argument that is not an object, or whose
 * `fields` given are not texts: from JavaScript, `exists(null)` threw from deep inside, and a
 * number was sent as its digits.
 */
function checkInput(operation: Operation, input: unknown, fields: readonly string[]): void {
  if (typeof input !== 'object' || input === null)
    throw new TypeError(`${operation} takes an object of its fields; got ${String(input)}`);
  for (const field of fields) {
    const value = (input as Record<string, unknown>)[field];
    if (value !== undefined && typeof value !== 'string')
      throw new TypeError(`${operation} takes ${field} as a string; got ${typeof value}`);
  }
}

/**
 * A merchant id as the path segment of `operation`'s URL; a TypeError, thrown before anything is
 * sent, for one a URL cannot carry ("", ".", ".."): the request would go to another path; and
 * for one that is not a string.
 */
function merchantSegment(operation: 'start' | 'verify', merchantId: string): string {
  // From JavaScript, anything may come: none would be an empty segment, null the text "null".
  if (typeof merchantId !== 'string' || !isPathSegment(merchantId))
    throw new TypeError(
      `${operation} takes a merchantId a URL can carry as a path segment; got ${typeof merchantId === 'string' ? JSON.stringify(merchantId) : String(merchantId)}`,
    );
  return merchantId;
}
