import { randomBytes } from 'node:crypto';
import { createProblem } from '../core/service/problems.js';
import { fromCore, problemAnswer } from '../transport/core-answer.js';
import { pathOf } from '../transport/request-target.js';
import type { TransportRequest, TransportResponse } from '../transport/transport-exchange.js';

/** This uas's `Via` entry (`1.1 uas-<random instance id>`), added to every forwarded request. */
export function viaToken(): string {
  return `1.1 uas-${randomBytes(8).toString('hex')}`;
}

/** The `Via` of a forwarded request: the entries it came with, then this uas's. */
export function withVia(before: string | string[] | undefined, via: string): string {
  const entries = (Array.isArray(before) ? before : before === undefined ? [] : [before]).filter(
    (entry) => entry.trim() !== '',
  );
  return [...entries, via].join(', ');
}

/** Whether a request already went through this uas: its `Via` holds this uas's own entry. */
export function cameBack(request: TransportRequest, via: string): boolean {
  const value = request.headers.via;
  const entries = (Array.isArray(value) ? value.join(',') : (value ?? '')).split(',');
  return entries.some((entry) => entry.trim() === via);
}

/** 508 Loop Detected: the upstream leads back to this uas. Not forwarded, not journaled. */
export function loopAnswer(request: TransportRequest): TransportResponse {
  return fromCore(
    problemAnswer(
      createProblem(
        'loop-detected',
        "the request came back carrying this uas's own Via entry: --upstream leads back to this uas",
        { instance: pathOf(request.url) },
      ),
      false,
    ),
  );
}
