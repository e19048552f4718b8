import { describeNetworkError, describeNoAnswer } from '../../http/network-error.js';
import { adminTokenProblem } from '../../text/admin-token-problem.js';
import { readBody } from '../../http/response-body.js';

/** A request of the suite, before it is sent. */
export interface ConformRequest {
  method: 'GET' | 'POST';
  /** Path and query under the base URL: `/v1/users/exists?email=...`. */
  path: string;
  /**
   * `token`: the access token; `none`: no Authorization; `admin`: the dev API's admin token (if
   * any; never the access token); otherwise the Authorization value to send as it is.
   */
  auth: 'token' | 'none' | 'admin' | { authorization: string };
  /** A JSON body. */
  body?: unknown;
}

/** A request and what came of it. */
export interface Exchange {
  request: ConformRequest;
  /** Undefined when no answer came. */
  status: number | undefined;
  headers: Headers;
  body: string;
  /** Why there is no (whole) answer. */
  error: string | undefined;
}

/** Thrown when a request would pass the request budget; nothing is sent. */
export class BudgetSpentError extends Error {
  override readonly name = 'BudgetSpentError';
}

/** Thrown when the very first request gets no answer: the target cannot be reached. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}

/**
 * Thrown when the dev API refuses a request for want of an admin token (none given, or a wrong
 * one): the run was asked for something it was not given the means to do (a usage error), and
 * the target is not to blame.
 */
export class AdminTokenError extends Error {
  override readonly name = 'AdminTokenError';
}

/** What {@link createSender} needs. */
export interface SenderOptions {
  baseUrl: string;
  token: string;
  adminToken: string | undefined;
  maxRequests: number;
  timeoutMs: number;
  maxResponseBytes: number;
  fetch?: typeof fetch;
}

/** Sends the suite's requests, each counted against the budget. */
export interface Sender {
  send(request: ConformRequest): Promise<Exchange>;
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
export function createSender(options: SenderOptions): Sender {
  const send = options.fetch ?? fetch;
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
      const headers: Record<string, string> = {
        accept: 'application/json, application/problem+json',
      };
      const { auth } = request;
      if (auth === 'token') headers.authorization = `Bearer ${options.token}`;
      else if (auth === 'admin') {
        if (options.adminToken !== undefined)
          headers.authorization = `Bearer ${options.adminToken}`;
      } else if (auth !== 'none') headers.authorization = auth.authorization;
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      const exchange: Exchange = {
        request,
        status: undefined,
        headers: new Headers(),
        body: '',
        error: undefined,
      };
      try {
        const response = await send(`${options.baseUrl}${request.path}`, {
          method: request.method,
          headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          redirect: 'manual',
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        exchange.status = response.status;
        exchange.headers = response.headers;
        const body = await readBody(response, options.maxResponseBytes);
        if (body.kind === 'complete') exchange.body = body.text;
        else exchange.error = body.error;
      } catch (error) {
        exchange.error = describeNetworkError(error);
      }
      if (exchange.status !== undefined) answered++;
      else if (answered === 0)
        throw new UnreachableError(
          describeNoAnswer(options.baseUrl, exchange.error ?? 'no answer', false),
        );
      // The dev API answers 401 only to a missing or wrong admin token.
      if (auth === 'admin' && exchange.status === 401)
        throw new AdminTokenError(
          `${request.method} ${request.path.replace(/\?.*$/, '')}: ${adminTokenProblem(options.adminToken !== undefined)} (or leave out --dev-api)`,
        );
      return exchange;
    },
  };
}

/**
 * A request in words, for reports and --dry-run: the token is never shown. `adminToken` says
 * whether one was given (a dev API request carries it only then); unknown, it says "if any".
 */
export function describeRequest(request: ConformRequest, adminToken?: boolean): string[] {
  const auth =
    request.auth === 'token'
      ? 'Authorization: Bearer <access token>'
      : request.auth === 'admin'
        ? adminToken === undefined
          ? 'Authorization: Bearer <admin token, if any>'
          : adminToken
            ? 'Authorization: Bearer <admin token>'
            : 'no Authorization'
        : request.auth === 'none'
          ? 'no Authorization'
          : `Authorization: ${request.auth.authorization}`;
  return [
    `${request.method} ${request.path}`,
    `  ${auth}`,
    ...(request.body === undefined ? [] : [`  ${JSON.stringify(request.body)}`]),
  ];
}
