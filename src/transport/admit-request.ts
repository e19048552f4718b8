import type { IncomingMessage } from 'node:http';
import { isDevApiPath, refuseDevApi } from '../core/admin/dev-api.js';
import type { AnyEmulator } from '../core/emulator.js';
import type { MaybePromise } from '../core/async/maybe-promise.js';
import type { EmulatorResponse } from '../core/service/exchange.js';
import { createProblem, type Problem } from '../core/service/problems.js';
import { giveWay } from '../runtime/give-way.js';
import { problemAnswer } from './core-answer.js';
import { checkDevApiHost, isValidHost, type HostPolicy } from './host-guard.js';
import { hasBody } from './request-body.js';
import { localOrigin, pathOf, requestTarget } from './request-target.js';
import type { TransportRequest } from './transport-exchange.js';

/**
 * What becomes of a request once its head is read: admitted (its body, if it has one, is to be
 * read up to `bodyLimit`), or answered at once with its body left unread (`answer`, which then
 * closes the connection when a body was announced).
 */
export type Admission =
  | { request: TransportRequest; bodyLimit: number | undefined; answer?: undefined }
  | { answer: MaybePromise<EmulatorResponse>; request?: undefined };

/**
 * Admits a request by its head, the same way for every transport that reads sockets (the one of
 * `uas serve`, both engines, and the Express middleware): a Host that is missing (HTTP/1.1),
 * repeated or not a host is refused; on the dev API, a Host that is not a loopback name (DNS
 * rebinding) when no admin token is set, then what the core refuses before a body (no admin
 * token, a write from another origin); a body announced over the limit of its path. A refusal of
 * a request with a body closes its connection, the body unread.
 */
export function admitRequest(
  emulator: AnyEmulator,
  policy: HostPolicy,
  req: IncomingMessage,
  target: { url: string; host: string | undefined } = requestTarget(req),
): Admission {
  const { url, host } = target;
  const malformed = hostProblem(req, host) ?? codingProblem(req);
  if (malformed !== undefined) return { answer: problemAnswer(malformed, true) };
  const path = pathOf(url);
  const withBody = hasBody(req);
  const request: TransportRequest = {
    method: req.method ?? 'GET',
    url,
    headers: host === req.headers.host ? req.headers : { ...req.headers, host },
    body: undefined,
    bodyBytes: 0,
    signal: undefined,
  };
  if (isDevApiPath(path)) {
    // Only the dev API names the server (GET /__uas/openapi.json): no address is read otherwise.
    request.localOrigin = localOrigin(req.socket);
    const refusal =
      emulator.devApi.adminToken === undefined ? checkDevApiHost(host, policy, path) : undefined;
    if (refusal !== undefined) return { answer: problemAnswer(refusal, withBody) };
    // A body nobody may send (no admin token, another origin) is refused unread.
    const denied = withBody ? refuseDevApi(emulator, request, path) : undefined;
    if (denied !== undefined) return { answer: { ...denied, close: true } };
  }
  if (!withBody) return { request, bodyLimit: undefined };
  const bodyLimit = emulator.bodyLimit(path);
  const announced = Number(req.headers['content-length']);
  if (announced > bodyLimit) {
    // Refused at once, not after waiting for a body that may never come.
    request.bodyBytes = announced;
    return { answer: emulator.handle(request, giveWay) };
  }
  return { request, bodyLimit };
}

/**
 * Whether a client that asks `Expect: 100-continue` may send its body: only when its announced
 * length is within the limit of its path.
 */
export function mayContinue(emulator: AnyEmulator, req: IncomingMessage): boolean {
  const { url } = requestTarget(req);
  return Number(req.headers['content-length']) <= emulator.bodyLimit(pathOf(url));
}

/** The refusal of a request whose `Expect` is not 100-continue (the only one uas meets). */
export function expectationProblem(req: IncomingMessage): Problem {
  return createProblem(
    'expectation-failed',
    `the server meets no expectation but 100-continue; got Expect: ${JSON.stringify(String(req.headers.expect).slice(0, 100))}`,
  );
}

/** What is wrong with a request's Host: missing on HTTP/1.1, not a host and port, or repeated. */
function hostProblem(req: IncomingMessage, host: string | undefined): Problem | undefined {
  if (host === undefined) {
    return req.httpVersionMinor >= 1
      ? createProblem('malformed-http', 'an HTTP/1.1 request needs a Host header')
      : undefined;
  }
  if (!isValidHost(host))
    return createProblem(
      'malformed-http',
      `the Host header is not a host and port: ${JSON.stringify(host.slice(0, 100))}`,
    );
  if (hostLines(req.rawHeaders) > 1)
    return createProblem('malformed-http', 'a request has one Host header, not several');
  return undefined;
}

/**
 * A transfer coding other than chunked: Node decodes chunked alone, so the body of `gzip,
 * chunked` would be read still compressed.
 */
function codingProblem(req: IncomingMessage): Problem | undefined {
  const coding = req.headers['transfer-encoding'];
  if (coding === undefined || coding.trim().toLowerCase() === 'chunked') return undefined;
  return createProblem(
    'malformed-http',
    `the server reads no transfer coding but chunked; got Transfer-Encoding ${JSON.stringify(coding.slice(0, 100))}`,
  );
}

/** How many Host header lines a request has (Node keeps only the first). */
function hostLines(raw: string[]): number {
  let count = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}
