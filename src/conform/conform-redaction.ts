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

/**
 * A copy of `value` with every string in it (at any depth of arrays and plain objects) passed
 * through `redact`: each value that holds a secret is redacted before any format renders it.
 */
export function redactValues<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactValues(item, redact)) as T;
  if (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  )
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactValues(item, redact)]),
    ) as T;
  return value;
}
