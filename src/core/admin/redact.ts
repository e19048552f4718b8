/**
 * Hides a secret: `uas-…(20 chars)` for a long one; a short one shows none of its characters
 * (`…(8 chars)`), since four would be half of it.
 */
export function redactSecret(secret: string): string {
  return `${secret.length >= 16 ? secret.slice(0, 4) : ''}…(${secret.length} chars)`;
}

/** Hides the secret of an Authorization value: `Bearer …(14 chars)`. */
export function redactAuthorization(value: string): string {
  const match = /^(\S+)\s+(.*)$/.exec(value);
  return match ? `${match[1]} ${redactSecret(match[2] as string)}` : '…';
}

/**
 * Replaces every secret found in `text` by its redacted form: a token sent where it does not
 * belong (`?access_token=`, a body field, a caller_id) must not reach a log or the journal.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets)
    if (out.includes(secret)) out = out.split(secret).join(redactSecret(secret));
  return out;
}

/**
 * Hides the password of a URL (`redis://:secret@host` → `redis://:…(6 chars)@host`); anything
 * that is not such a URL comes back as it is.
 */
export function redactUrlPassword(url: string): string {
  return url.replace(
    /^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)([^@/]*)@/i,
    (_, head: string, password: string) => `${head}${redactSecret(password)}@`,
  );
}
