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

/**
 * Hides the password of a URL, showing neither it nor its length: `redis://user:secret@host/0` →
 * `redis://user:***@host/0`. The user information ends at the last `@` before the host, as URL
 * parsers read it. Where that reading does not hold (the text is no URL, or an `@` comes after the
 * host: a password with `/`, `?`, `#` or `@` in it, not percent-encoded) everything between `://`
 * and the last `@` is hidden (`redis://***@host/0`), as it is when the user information has no
 * colon (`redis://secret@host`: several clients read it as a password). The value of a query
 * field named `password` (or `pass`, `pwd`, `auth`, `secret`, `token`) is hidden too. Other text
 * comes back as it is.
 */
export function redactUrlPassword(text: string): string {
  return redactUserInfo(text).replace(SECRET_QUERY, '$1***');
}

/**
 * A query field that holds a password in some clients' URLs (`?password=…`, as redis-py and
 * node-redis read it): uas takes no such field, but the URL is shown when it is refused.
 */
const SECRET_QUERY = /([?&](?:password|pass|pwd|auth|secret|token)=)[^&#]*/gi;

function redactUserInfo(text: string): string {
  const lastAt = text.lastIndexOf('@');
  if (lastAt < 0) return text;
  const scheme = /^[a-z][a-z0-9+.-]*:(?:\/\/)?/i.exec(text)?.[0] ?? '';
  const rest = text.slice(scheme.length);
  const hidden = `${scheme}***@${text.slice(lastAt + 1)}`;
  if (!scheme.endsWith('//') || !URL.canParse(text)) return hidden;
  const authorityEnd = rest.search(/[/?#\\]/);
  const userEnd = rest.lastIndexOf('@', authorityEnd < 0 ? rest.length : authorityEnd - 1);
  // An `@` beyond the host: the parser saw no password where the writer may have meant one.
  if (userEnd < 0 || scheme.length + userEnd !== lastAt) return hidden;
  const colon = rest.indexOf(':');
  // User information without a colon: redis-cli and other clients take it for a password.
  if (colon < 0 || colon > userEnd) return `${scheme}***${rest.slice(userEnd)}`;
  return `${scheme}${rest.slice(0, colon)}:***${rest.slice(userEnd)}`;
}
