import { operationPath, SERVICE_METHODS } from '../core/service/service-routes.js';
import type { ConformRequest } from './conform-request.js';
import type { ConformTarget } from './conform-options.js';

/** A caller_id of this run, so every request lands in a bucket no one else uses. */
export const callerOf = (target: ConformTarget, name: string): string =>
  `uas-conform-${target.runId}-${name}`;

/** An address no user has: `uas-conform-<run>@example.com` (RFC 2606 keeps example.com unused). */
export const probeEmail = (target: ConformTarget): string =>
  `uas-conform-${target.runId}@example.com`;

/** A made-up token of valid syntax, which no server should know. */
export const inventedToken = (target: ConformTarget): string =>
  `uas-conform-invalid-${target.runId}`;

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
  return {
    method: SERVICE_METHODS.exists,
    path: `${operationPath('exists')}?${query.toString()}`,
    auth,
  };
}

/** `POST /v1/merchants/{merchant_id}/users/passwordless/{start|verify}` with a JSON body. */
export function passwordlessRequest(
  action: 'start' | 'verify',
  merchantId: string,
  body: Record<string, unknown>,
): ConformRequest {
  return {
    method: SERVICE_METHODS[action],
    path: operationPath(action, merchantId),
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
