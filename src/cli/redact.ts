/** Hides the secret of an Authorization value: `Bearer uas-…(14 chars)`. */
export function redactAuthorization(value: string): string {
  const match = /^(\S+)\s+(.*)$/.exec(value);
  if (!match) return '…';
  const secret = match[2] as string;
  return `${match[1]} ${secret.slice(0, 4)}…(${secret.length} chars)`;
}
