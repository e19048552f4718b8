/**
 * Headers that belong to one connection, not to the request or answer (RFC 9110 section 7.6.1),
 * and those uas sets itself: never forwarded either way. Lower case.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'expect',
  'content-length',
]);

/** Whether a header (its name in lower case) is forwarded, given the names its Connection lists. */
export function isForwarded(name: string, connectionNames: ReadonlySet<string>): boolean {
  return !HOP_BY_HOP.has(name) && !connectionNames.has(name);
}

/** The header names a Connection header lists, in lower case. */
export function connectionNames(value: string | string[] | undefined): Set<string> {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    text
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
  );
}
