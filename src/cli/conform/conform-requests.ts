import type { ConformRequest } from './conform-sender.js';

/** Who and what the suite asks about: from the flags, with the run's own caller_ids. */
export interface SuiteTarget {
  /** A user the target knows (`--email`), for start and the known-user check. */
  email: string | undefined;
  /** A merchant of the token's client (`--merchant-id`), for start and verify. */
  merchantId: string | undefined;
  /** Short text unique to this run: caller_ids and the probe address are made from it. */
  runId: string;
}

/** A caller_id of this run, so every request lands in a bucket no one else uses. */
export const callerOf = (target: SuiteTarget, name: string): string =>
  `uas-conform-${target.runId}-${name}`;

/** An address no user has: `uas-conform-<run>@example.com` (RFC 2606 keeps example.com unused). */
export const probeEmail = (target: SuiteTarget): string =>
  `uas-conform-${target.runId}@example.com`;

/** A made-up token of valid syntax, which no server should know. */
export const inventedToken = (target: SuiteTarget): string => `uas-conform-invalid-${target.runId}`;

/** The code sent to verify on purpose wrong: of a code's usual shape. */
export const WRONG_CODE = '000000';

/** `GET /v1/users/exists?email=E&caller_id=C`. */
export function existsRequest(
  email: string,
  callerId: string | undefined,
  auth: ConformRequest['auth'] = 'token',
): ConformRequest {
  const query = new URLSearchParams({
    email,
    ...(callerId === undefined ? {} : { caller_id: callerId }),
  });
  return { method: 'GET', path: `/v1/users/exists?${query.toString()}`, auth };
}

/** `POST /v1/merchants/{merchant_id}/users/passwordless/{start|verify}` with a JSON body. */
export function passwordlessRequest(
  action: 'start' | 'verify',
  merchantId: string,
  body: Record<string, unknown>,
): ConformRequest {
  return {
    method: 'POST',
    path: `/v1/merchants/${encodeURIComponent(merchantId)}/users/passwordless/${action}`,
    auth: 'token',
    body,
  };
}

/** The latest code of a user at a merchant, from a uas emulator's dev API (with the admin token, if any). */
export function devApiCodeRequest(email: string, merchantId: string): ConformRequest {
  return {
    method: 'GET',
    path: `/__uas/codes/${encodeURIComponent(email)}?merchant_id=${encodeURIComponent(merchantId)}`,
    auth: 'admin',
  };
}
