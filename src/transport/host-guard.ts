import { createProblem, type Problem } from '../core/service/problems.js';

/**
 * Host names always allowed on the dev API: this machine's loopback names and addresses. An
 * IPv4-mapped loopback address comes as typed (`[::ffff:127.0.0.1]`, curl) or as browsers
 * write it (`[::ffff:7f00:1]`: the WHATWG URL parser gives its last 32 bits in hex).
 */
const LOOPBACK_HOST =
  /^((?:[a-z0-9-]+\.)*localhost\.?|127(\.\d{1,3}){3}|\[::1\]|\[::ffff:(127(\.\d{1,3}){3}|7f[0-9a-f]{2}:[0-9a-f]{1,4})\])$/i;

/**
 * A Host value as RFC 9110 allows it: a bracketed IP literal or a registered name (or IPv4
 * address), then an optional port of digits. `[::1]evil.com` or `localhost:evil.com` are not.
 */
const VALID_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::\d{0,5})?$/;

/** Whether a Host header value is a valid host and port. */
export function isValidHost(host: string): boolean {
  return VALID_HOST.test(host);
}

/** Who may reach the dev API by name. */
export interface HostPolicy {
  /**
   * Host names (without port) allowed besides the loopback ones, such as `uas.internal`;
   * `"*"` in the list allows any.
   * @default []
   */
  allowedHosts?: readonly string[] | undefined;
}

/** The host name of a Host header value: lower case, port removed, IPv6 brackets kept. */
export function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.indexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/**
 * Refuses a dev-API request whose Host names another site: a page on another name that resolves
 * to 127.0.0.1 (DNS rebinding) would otherwise read codes and change the config, since the
 * browser sees one origin. A request without Host (HTTP/1.0, a test's in-process fetch) passes;
 * browsers always send it.
 */
export function checkDevApiHost(
  host: string | undefined,
  policy: HostPolicy,
  path: string,
): Problem | undefined {
  if (host === undefined) return undefined;
  const name = hostName(host);
  const valid = isValidHost(host);
  if (valid && LOOPBACK_HOST.test(name)) return undefined;
  const allowed = policy.allowedHosts ?? [];
  if (allowed.includes('*')) return undefined;
  // A fully qualified name may end in a dot (`uas.internal.`): the same name, as for localhost.
  const bare = withoutRootDot(name);
  if (valid && allowed.some((entry) => withoutRootDot(hostName(entry)) === bare)) return undefined;
  return createProblem(
    'host-not-allowed',
    `the dev API answers loopback names only (localhost, 127.0.0.1, [::1]); ${JSON.stringify(host.slice(0, 100))} is not one. Allow it with uas serve --allowed-hosts, or set --admin-token`,
    { instance: path },
  );
}

function withoutRootDot(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1) : name;
}
