import type { OutgoingHttpHeaders } from 'node:http';
import type { AnyEmulator } from '../core/emulator.js';
import { devApiOperation, isDevApiPath } from '../core/admin/dev-api.js';
import type { DevApiOperation } from '../core/admin/dev-api-table.js';
import { headerValue, type EmulatorResponse } from '../core/service/exchange.js';
import { createProblem, type ProblemKind } from '../core/service/problems.js';
import type { AnswerCut } from '../core/records/records.js';
import type { UpstreamCaller } from '../core/upstream-side.js';
import { giveWay } from '../runtime/give-way.js';
import { fromCore, problemAnswer } from '../transport/core-answer.js';
import { pathOf } from '../transport/request-target.js';
import {
  CLIENT_GONE,
  type Engine,
  type TransportRequest,
} from '../transport/transport-exchange.js';
import { bearerToken, clientLabel } from './client-label.js';
import { connectionNames, isForwarded } from './hop-by-hop.js';
import { relayAnswer } from './relay-answer.js';
import { sendUpstream, upstreamAgent, type UpstreamRequest } from './send-upstream.js';
import {
  resolveUpstreamOptions,
  type ResolvedUpstreamOptions,
  type UpstreamOptions,
} from './upstream-options.js';
import { cameBack, loopAnswer, viaToken, withVia } from './via-token.js';

/**
 * The engine of `uas serve --upstream`: the service's three operations go to the real service
 * (after uas's buckets with `--enforce local` or `shadow`), and its answers come back as they
 * are, each journaled as a request the emulator answered would be, marked upstream. The dev API
 * is uas's own and is never forwarded; any other path is answered 404 here.
 */
export function createProxyEngine(emulator: AnyEmulator, options: UpstreamOptions): Engine {
  const resolved = resolveUpstreamOptions(options);
  const { upstream } = emulator;
  const agent = upstreamAgent(resolved);
  const via = viaToken();
  return async (request) => {
    if (isDevApiPath(pathOf(request.url)))
      return fromCore(
        notAppliedHere(request, resolved.enforce) ?? (await emulator.handle(request, giveWay)),
      );
    if (cameBack(request, via)) return loopAnswer(request);
    const token = bearerToken(headerValue(request.headers, 'authorization'));
    const caller: UpstreamCaller = { label: clientLabel(token), token };
    const admission = await upstream.admit(request, caller, resolved.enforce);
    if (admission.answer !== undefined) {
      upstream.settle(
        admission,
        { status: admission.answer.status, headers: {}, body: undefined },
        caller,
      );
      return fromCore(admission.answer);
    }
    const reply = await sendUpstream(forwarded(request, via), resolved, agent, request.graceOver);
    if (reply.kind === 'failed') {
      const kind =
        reply.status === 503
          ? 'service-unavailable'
          : reply.status === 504
            ? 'upstream-timeout'
            : 'upstream-failed';
      const answer = problemAnswer(
        createProblem(kind, reply.detail, { instance: pathOf(request.url) }),
        false,
      );
      // Its client may have left while the real service kept it waiting (during the grace at
      // shutdown too), or uas shut down then: nobody got the 504 (or the 503 of the shutdown).
      const cut =
        request.signal?.reason === CLIENT_GONE || request.clientLeft?.() === true
          ? 'client'
          : reply.shutdown === true
            ? 'shutdown'
            : undefined;
      settleFailed(emulator, admission, answer, caller, cut);
      return fromCore(answer);
    }
    const { incoming } = reply;
    const status = incoming.statusCode ?? 0;
    // A 204 or 304 has no body: its Content-Length, if any, is the representation's (RFC 9110).
    const bodiless = status === 204 || status === 304;
    const announced = bodiless ? 0 : Number(incoming.headers['content-length'] ?? 0);
    const refusal =
      status < 200 || status > 599
        ? `the real service answered with status ${status}, which uas does not relay`
        : announced > resolved.maxBodyBytes
          ? `the real service announced ${announced} bytes of body, above the limit of ${resolved.maxBodyBytes}`
          : undefined;
    if (refusal !== undefined) {
      incoming.destroy();
      const answer = problemAnswer(
        createProblem('upstream-failed', refusal, { instance: pathOf(request.url) }),
        false,
      );
      settleFailed(emulator, admission, answer, caller);
      return fromCore(answer);
    }
    return relayAnswer(incoming, resolved, (answer) => upstream.settle(admission, answer, caller));
  };
}

/** Dev-API requests about what only the real service has or would apply: a 409 each. */
const NOT_APPLIED = [
  {
    // With `--enforce upstream` the real service answers every request: no fault applies.
    kind: 'faults-not-applied',
    applies: (operation, _request, enforce) => operation === 'failNext' && enforce === 'upstream',
    detail:
      'uas serve --upstream with --enforce upstream forwards every request to the real service: a scripted fault would never apply',
  },
  {
    // In every mode the real service answers with its own users.
    kind: 'users-not-applied',
    applies: (operation) => operation === 'addUsers' || operation === 'removeUser',
    detail:
      'uas serve --upstream forwards every request to the real service, which answers with its own users: a user added or removed here would not apply',
  },
  {
    // A user's latest code (`GET /__uas/codes/{email}`, `GET /__uas/codes?email=`): the real
    // service sends the codes to the shoppers, never through uas.
    kind: 'codes-not-seen',
    applies: (operation, request) =>
      operation === 'latestCode' || (operation === 'listCodes' && asksForEmail(request.url)),
    detail:
      'uas serve --upstream forwards start to the real service, which sends the code to the shopper: uas never sees it (read it where the real service delivers it)',
  },
] as const satisfies readonly {
  kind: ProblemKind;
  applies: (
    operation: DevApiOperation | undefined,
    request: TransportRequest,
    enforce: ResolvedUpstreamOptions['enforce'],
  ) => boolean;
  detail: string;
}[];

/** The 409 of a dev-API request the real service would never see, or undefined to answer it. */
function notAppliedHere(
  request: TransportRequest,
  enforce: ResolvedUpstreamOptions['enforce'],
): EmulatorResponse | undefined {
  const path = pathOf(request.url);
  const operation = devApiOperation(request.method, path);
  const refusal = NOT_APPLIED.find((entry) => entry.applies(operation, request, enforce));
  if (refusal === undefined) return undefined;
  return problemAnswer(createProblem(refusal.kind, refusal.detail, { instance: path }), false);
}

/** Whether a URL's query gives an `email`. */
function asksForEmail(url: string): boolean {
  const query = url.indexOf('?');
  return query !== -1 && new URLSearchParams(url.slice(query + 1)).has('email');
}

/** Journals a request uas answered for the real service (502, 504). */
function settleFailed(
  emulator: AnyEmulator,
  admission: Awaited<ReturnType<AnyEmulator['upstream']['admit']>>,
  answer: EmulatorResponse,
  caller: UpstreamCaller,
  cut?: AnswerCut,
): void {
  const body = JSON.stringify(answer.body);
  emulator.upstream.settle(
    admission,
    {
      status: answer.status,
      headers: {},
      body,
      failed: true,
      ...(cut !== undefined && { cut }),
    },
    caller,
  );
}

/** The request as the real service gets it: its headers but those of one connection, its body byte for byte. */
function forwarded(request: TransportRequest, via: string): UpstreamRequest {
  const names = connectionNames(request.headers.connection);
  const headers = Object.create(null) as OutgoingHttpHeaders;
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined && isForwarded(name, names)) headers[name] = value;
  headers.via = withVia(request.headers.via, via);
  const withBody =
    request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD';
  const body = withBody ? (request.rawBody ?? Buffer.from(request.body as string)) : undefined;
  if (body !== undefined) headers['content-length'] = body.byteLength;
  return { method: request.method, url: request.url, headers, body };
}
