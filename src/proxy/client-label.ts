import { createHash } from 'node:crypto';

/**
 * The client id a request's token is recorded as when the config does not know it: `token-`
 * and the first 12 hex digits of its SHA-256, so requests with one token group together while
 * the token itself is never kept. Undefined without a Bearer token.
 */
export function clientLabel(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  return `token-${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
}

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  return match?.[1];
}
