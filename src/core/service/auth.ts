import type { Directory } from '../signin/directory.js';

/** The result of reading the Authorization header (spec section 5). */
export type AuthResult =
  { ok: true; clientId: string } | { ok: false; detail: string; challenge: string };

const REALM = 'Bearer realm="uas"';

/**
 * Authenticates `Authorization: Bearer <token>` against the directory. The challenge follows
 * RFC 6750: no error code when no credentials were sent, `invalid_request` for a malformed
 * header, `invalid_token` for an unknown token.
 */
export function authenticate(header: string | undefined, directory: Directory): AuthResult {
  if (header === undefined || header.trim() === '') {
    return { ok: false, detail: 'send Authorization: Bearer <access token>', challenge: REALM };
  }
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match) {
    return {
      ok: false,
      detail: 'the Authorization header must be "Bearer <access token>"',
      challenge: `${REALM}, error="invalid_request", error_description="malformed Authorization header"`,
    };
  }
  const clientId = directory.clientIdForToken(match[1] as string);
  if (clientId === undefined) {
    return {
      ok: false,
      detail: 'the access token is not known to this emulator (see the clients of its config)',
      challenge: `${REALM}, error="invalid_token", error_description="unknown access token"`,
    };
  }
  return { ok: true, clientId };
}
