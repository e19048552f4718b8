/**
 * Why an Authorization header cannot carry `token` (a bearer token is one line of printable
 * ASCII): which character, as `character 3 is U+000A`, never the token itself; undefined when it
 * can.
 */
export function unsendableCharacter(token: string): string | undefined {
  const index = token.search(/[^\x20-\x7e]/);
  if (index === -1) return undefined;
  const code = token.codePointAt(index) ?? 0;
  return `character ${index + 1} is U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Why `token` is not a bearer token alone: given with its scheme (copied from a header or a curl
 * line, it would go as `Bearer Bearer ...`) or holding a space, which no bearer token does (a
 * `Basic ...` value); undefined otherwise. Never quotes the token.
 */
export function notTokenAlone(token: string): string | undefined {
  if (/^bearer\s/i.test(token))
    return 'starts with "Bearer ": give the token alone (uas sends it as Authorization: Bearer <token>)';
  if (token.includes(' '))
    return 'holds a space, which no bearer token does: give the token alone (uas sends it as Authorization: Bearer <token>)';
  return undefined;
}
