import { RECORD_TEXT_MAX } from './records.js';

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
 * belong (`?access_token=`, a body field, a caller_id) must not reach a log or the journal. A
 * text a record clipped (its {@link RECORD_TEXT_MAX} characters ending in `…`) may end in the
 * start of a secret the clip cut: that start is redacted too, when it shows more of the secret
 * than its redacted form does.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets)
    if (out.includes(secret)) out = out.split(secret).join(redactSecret(secret));
  return text.length === RECORD_TEXT_MAX && text.endsWith('…') ? scrubCutSecret(out, secrets) : out;
}

/** A clipped text whose end (before its `…`) is the start of a secret, that start redacted. */
function scrubCutSecret(text: string, secrets: readonly string[]): string {
  const kept = text.slice(0, -1);
  let cut: { length: number; secret: string } | undefined;
  for (const secret of secrets) {
    const shown = secret.length >= 16 ? 4 : 0;
    // The longest end of `kept` that starts the secret: from the earliest place it could begin.
    for (let at = Math.max(0, kept.length - secret.length + 1); at < kept.length - shown; at++)
      if (kept.charCodeAt(at) === secret.charCodeAt(0) && secret.startsWith(kept.slice(at))) {
        if (cut === undefined || kept.length - at > cut.length)
          cut = { length: kept.length - at, secret };
        break;
      }
  }
  return cut === undefined
    ? text
    : `${kept.slice(0, kept.length - cut.length)}${redactSecret(cut.secret)}…`;
}

// The password of a URL is hidden by config's own function: config quotes URLs in its errors.
export { redactUrlPassword } from '../config/url-password.js';
