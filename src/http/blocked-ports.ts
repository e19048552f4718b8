/**
 * The ports the Fetch standard blocks ("bad ports", fetch.spec.whatwg.org/#port-blocking): a
 * browser, and Node's fetch, refuse to connect to them whatever listens there.
 */
const BLOCKED_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/** Whether fetch (a browser's, Node's) refuses to connect to `port`. */
export function isFetchBlockedPort(port: number): boolean {
  return BLOCKED_PORTS.has(port);
}

/**
 * The warning for a server that listens on a port fetch refuses (undefined for any other port):
 * it answers curl and most HTTP clients, but no browser, and none of the clients built on fetch.
 */
export function blockedPortWarning(url: string): string | undefined {
  const port = Number(new URL(url).port);
  if (!isFetchBlockedPort(port)) return undefined;
  return `port ${port} is one the Fetch standard blocks: browsers (the dashboard) and clients built on fetch (uas call, check --url, top, conform, Node's fetch) refuse to connect to it; curl and most other HTTP clients do; serve on another port for those`;
}
