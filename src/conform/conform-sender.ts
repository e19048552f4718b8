import { exchangeHttp } from '../http/exchange-http.js';
import { joinUrl } from '../http/join-url.js';
import { describeNoAnswer } from '../http/network-error.js';
import { adminTokenProblem } from '../text/admin-token-problem.js';
import type { ConformRequest } from './conform-request.js';
import { AdminTokenError, BudgetSpentError, UnreachableError } from './sender-errors.js';

/** A request and what came of it. */
export interface ProbeExchange {
  request: ConformRequest;
  /** Undefined when no answer came. */
  status: number | undefined;
  headers: Headers;
  body: string;
  /** Why there is no (whole) answer. */
  error: string | undefined;
}

/** What {@link createConformSender} needs. */
export interface ConformSenderOptions {
  baseUrl: string;
  token: string;
  adminToken: string | undefined;
  maxRequests: number;
  timeoutMs: number;
  maxResponseBytes: number;
  fetch?: typeof fetch;
  /** How why an answer did not come is shown (the tokens redacted); as it is by default. */
  quote?: (text: string) => string;
}

/** Sends the suite's requests, each counted against the budget. */
export interface ConformSender {
  send(request: ConformRequest): Promise<ProbeExchange>;
  /** Requests sent so far. */
  readonly sent: number;
  /** Requests the budget still allows. */
  readonly remaining: number;
}

/**
 * Sends requests to the target: never more than `maxRequests` (every request counts, the dev
 * API's too), each within `timeoutMs` body included, at most `maxResponseBytes` of each body
 * read, redirects never followed. A request the budget does not allow throws
 * {@link BudgetSpentError} before anything is sent; a first request that gets no answer throws
 * {@link UnreachableError}; a dev API request answered 401 throws {@link AdminTokenError}.
 */
export function createConformSender(options: ConformSenderOptions): ConformSender {
  let sent = 0;
  let answered = 0;
  return {
    get sent() {
      return sent;
    },
    get remaining() {
      return options.maxRequests - sent;
    },
    async send(request) {
      if (sent >= options.maxRequests)
        throw new BudgetSpentError(
          `the request budget (--max-requests ${options.maxRequests}) is spent`,
        );
      sent++;
      const exchange = await sendOnce(options, request);
      if (exchange.status !== undefined) answered++;
      else if (answered === 0)
        throw new UnreachableError(
          describeNoAnswer(options.baseUrl, exchange.error ?? 'no answer', false),
        );
      // The dev API answers 401 only to a missing or wrong admin token.
      if (request.auth === 'admin' && exchange.status === 401)
        throw new AdminTokenError(
          `${request.method} ${request.path.replace(/\?.*$/, '')}: ${adminTokenProblem(options.adminToken !== undefined)} (or leave out --dev-api)`,
        );
      return exchange;
    },
  };
}

/** The Authorization a request carries, if any. */
function authorizationOf(
  options: ConformSenderOptions,
  request: ConformRequest,
): string | undefined {
  const { auth } = request;
  if (auth === 'token') return `Bearer ${options.token}`;
  if (auth === 'admin')
    return options.adminToken === undefined ? undefined : `Bearer ${options.adminToken}`;
  return auth === 'none' ? undefined : auth.authorization;
}

/** Sends one request, whatever comes of it. */
async function sendOnce(
  options: ConformSenderOptions,
  request: ConformRequest,
): Promise<ProbeExchange> {
  const headers: Record<string, string> = {
    accept: 'application/json, application/problem+json',
  };
  const authorization = authorizationOf(options, request);
  if (authorization !== undefined) headers.authorization = authorization;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const outcome = await exchangeHttp(
    {
      method: request.method,
      url: joinUrl(options.baseUrl, request.path),
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    },
    {
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
    },
  );
  // Why there is no (whole) answer is only ever shown: it is redacted here, once.
  const quote = options.quote ?? ((text: string) => text);
  if (outcome.kind === 'no-answer')
    return {
      request,
      status: undefined,
      headers: new Headers(),
      body: '',
      error: quote(outcome.error),
    };
  const { status } = outcome;
  return outcome.kind === 'answer'
    ? { request, status, headers: outcome.headers, body: outcome.text, error: undefined }
    : { request, status, headers: outcome.headers, body: '', error: quote(outcome.error) };
}
