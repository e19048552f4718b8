/** Shows the first four characters of a secret and hides the rest: `uas-…(14 chars)`. */
export function redactSecret(secret: string): string {
  return `${secret.slice(0, 4)}…(${secret.length} chars)`;
}

/** Hides the secret of an Authorization value: `Bearer uas-…(14 chars)`. */
export function redactAuthorization(value: string): string {
  const match = /^(\S+)\s+(.*)$/.exec(value);
  return match ? `${match[1]} ${redactSecret(match[2] as string)}` : '…';
}
