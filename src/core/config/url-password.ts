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
