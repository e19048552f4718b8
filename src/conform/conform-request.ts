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

/**
 * A request in words, for reports and --dry-run: the token is never shown. `adminToken` says
 * whether one was given (a dev API request carries it only then); unknown, it says "if any".
 */
export function describeConformRequest(request: ConformRequest, adminToken?: boolean): string[] {
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
