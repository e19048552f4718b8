import { headerValue, type EmulatorRequest, type EmulatorResponse } from '../service/exchange.js';
import { constantTimeEqual } from '../signin/constant-time.js';
import { refuse } from './dev-api-answers.js';
import type { DevApiTarget } from './dev-api-target.js';

/**
 * What the dev API answers a request before looking at its route (off, no admin token, a write
 * from another origin), or undefined when it may go on.
 */
export function guardDevApi(
  target: Pick<DevApiTarget, 'devApi'>,
  request: EmulatorRequest,
  path: string,
): EmulatorResponse | undefined {
  if (!target.devApi.enabled)
    return refuse(
      'not-found',
      'the dev API is off: the server listens beyond loopback and no --admin-token was given',
      path,
    );
  const adminToken = target.devApi.adminToken;
  if (adminToken !== undefined) {
    const header = headerValue(request.headers, 'authorization') ?? '';
    const token = /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? '';
    if (!constantTimeEqual(token, adminToken))
      return refuse(
        'admin-token-required',
        'send Authorization: Bearer <admin token> (the --admin-token of uas serve)',
        path,
        { 'www-authenticate': 'Bearer realm="uas-dev-api"' },
      );
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const foreign = foreignOrigin(request);
    if (foreign !== undefined) return crossOrigin(path, foreign, 'write');
  }
  return undefined;
}

/** The refusal of a write, or of a read of traffic, sent by a web page of another origin. */
export function crossOrigin(
  path: string,
  foreign: string,
  what: 'write' | 'read',
): EmulatorResponse {
  const refused =
    what === 'write' ? 'changes sent by' : 'to show traffic (requests, codes, the check) to';
  return refuse(
    'cross-origin-refused',
    `the dev API refuses ${refused} a web page of another origin (${foreign}); call it from a terminal, a test or a page on the same origin`,
    path,
  );
}

/**
 * The origin of a request sent by a page of another origin, or undefined. Browsers send `Origin`
 * (and `Sec-Fetch-Site`) on cross-origin writes, even those that need no preflight; tools and
 * tests send neither.
 */
export function foreignOrigin(request: EmulatorRequest): string | undefined {
  const site = headerValue(request.headers, 'sec-fetch-site');
  const origin = headerValue(request.headers, 'origin');
  if (site === 'cross-site' || site === 'same-site') return origin ?? site;
  if (origin === undefined) return undefined;
  const host = headerValue(request.headers, 'host');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return origin; // "null" (a sandboxed frame, a file) or junk
  }
  return host !== undefined && originHost.toLowerCase() === host.toLowerCase() ? undefined : origin;
}
