/** What a secret is replaced with: no output format needs to escape it. */
export const REDACTED = '[redacted]';

/**
 * Replaces, in one value, every occurrence of the secrets (as they are, percent-encoded and
 * JSON-escaped) with `[redacted]`. Meant for values (a difference, a reason, a URL), never for a
 * formatted report: there a secret such as `null` or `test` would also match the format's own
 * text (`null` in JSON, `<testcase>` in JUnit) and corrupt it.
 */
export function createRedactor(secrets: Array<string | undefined>): (text: string) => string {
  const hidden = [
    ...new Set(
      secrets
        .filter((secret): secret is string => secret !== undefined && secret !== '')
        .flatMap((secret) => [
          secret,
          encodeURIComponent(secret),
          JSON.stringify(secret).slice(1, -1),
        ]),
    ),
  ].sort((a, b) => b.length - a.length);
  if (hidden.length === 0) return (text) => text;
  // One pass, longest first: what was put in is never searched again.
  const pattern = new RegExp(
    hidden.map((secret) => secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
    'g',
  );
  return (text) => text.replace(pattern, REDACTED);
}
