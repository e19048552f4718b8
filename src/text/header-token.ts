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
