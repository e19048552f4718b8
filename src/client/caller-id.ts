import parseForwarded from 'forwarded-parse';
import ipaddr from 'ipaddr.js';

/** Named address ranges accepted in `trustedProxies`. */
export const TRUSTED_PRESETS: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
};

/** Options of {@link callerIdFromHeaders}. */
export interface CallerIdOptions {
  /**
   * Your own proxies: either how many of the rightmost addresses in the chain they added, or the
   * addresses, CIDR ranges and presets (`loopback`, `private`, `linklocal`) they use.
   * @default 0
   */
  trustedProxies?: number | string[];
  /**
   * The address of the peer that connected to your server (`req.socket.remoteAddress`); it is
   * the rightmost hop of the chain.
   */
  remoteAddress?: string | undefined;
  /**
   * Which header to read: `Forwarded` (RFC 7239), `X-Forwarded-For`, or `auto` (Forwarded when
   * present, else X-Forwarded-For).
   * @default 'auto'
   */
  header?: 'auto' | 'forwarded' | 'x-forwarded-for';
}

/** One hop of the chain: what was written, and the address it holds (undefined for junk). */
export interface ChainEntry {
  raw: string;
  address: string | undefined;
}

/** The derived caller_id, the chain it came from, and why. */
export interface CallerIdResult {
  callerId: string | undefined;
  chain: ChainEntry[];
  reason: string;
}

/** Headers as a Fetch `Headers` or a Node-style object (names in lower case). */
export type HeaderInput =
  { get(name: string): string | null } | Readonly<Record<string, string | string[] | undefined>>;

/**
 * Derives a caller_id from forwarding headers (spec section 2, rule 4): the rightmost address
 * that is not one of your trusted proxies. The leftmost value is whatever the client chose to
 * send and is never trusted for that reason; a junk entry where the answer should be gives no
 * caller_id rather than a guess further left.
 */
export function callerIdFromHeaders(
  headers: HeaderInput,
  options: CallerIdOptions = {},
): CallerIdResult {
  const forwarded = headerLines(headers, 'forwarded');
  const xff = headerLines(headers, 'x-forwarded-for');
  const which = options.header ?? 'auto';
  let raws: string[];
  if (which === 'forwarded' || (which === 'auto' && forwarded.length > 0)) {
    try {
      raws =
        forwarded.length === 0
          ? []
          : parseForwarded(forwarded.join(', ')).map((element) => element.for ?? 'unknown');
    } catch (error) {
      return {
        callerId: undefined,
        chain: [],
        reason: `the Forwarded header is malformed (${(error as Error).message})`,
      };
    }
  } else {
    raws = xff
      .join(',')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
  }
  if (options.remoteAddress !== undefined) raws.push(options.remoteAddress);
  const chain = raws.map((raw) => ({ raw, address: normalizeAddress(raw) }));
  return pickCaller(chain, options.trustedProxies ?? 0);
}

/** Derives a caller_id from a comma-separated X-Forwarded-For value (as `uas call --forwarded-for`). */
export function callerIdFromForwardedFor(
  value: string,
  trustedProxies: number | string[] = 0,
): CallerIdResult {
  return callerIdFromHeaders(
    { 'x-forwarded-for': value },
    { trustedProxies, header: 'x-forwarded-for' },
  );
}

function headerLines(headers: HeaderInput, name: string): string[] {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const value = (headers as { get(name: string): string | null }).get(name);
    return value === null ? [] : [value];
  }
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * Normalises one forwarded entry to a plain IP address: strips quotes, ports and IPv6 brackets,
 * and turns IPv4-mapped IPv6 into IPv4. Undefined for anything that is not an address
 * (`unknown`, obfuscated identifiers, junk).
 */
export function normalizeAddress(raw: string): string | undefined {
  let text = raw
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1] as string;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  text = text.replace(/%.*$/, '');
  if (!ipaddr.isValid(text)) return undefined;
  if (ipaddr.IPv4.isValid(text) && !ipaddr.IPv4.isValidFourPartDecimal(text)) return undefined;
  return ipaddr.process(text).toString();
}

function pickCaller(chain: ChainEntry[], trusted: number | string[]): CallerIdResult {
  if (chain.length === 0)
    return { callerId: undefined, chain, reason: 'no forwarding header and no remote address' };
  let index = chain.length - 1;
  if (typeof trusted === 'number') {
    index -= trusted;
  } else {
    const ranges = compileRanges(trusted);
    while (index >= 0) {
      const address = chain[index]?.address;
      if (address === undefined || !ranges.some((range) => matches(address, range))) break;
      index--;
    }
  }
  if (index < 0)
    return { callerId: undefined, chain, reason: 'every address in the chain is a trusted proxy' };
  const entry = chain[index] as ChainEntry;
  if (entry.address === undefined) {
    return {
      callerId: undefined,
      chain,
      reason: `the nearest untrusted entry ${JSON.stringify(entry.raw)} is not an address`,
    };
  }
  const position = chain.length - index;
  return {
    callerId: entry.address,
    chain,
    reason: `the rightmost untrusted address (hop ${position} from the right)`,
  };
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses trusted addresses, CIDRs and presets; throws a RangeError naming a bad one. */
export function compileRanges(trusted: string[]): Range[] {
  return trusted.flatMap((entry) => {
    const preset = TRUSTED_PRESETS[entry];
    if (preset !== undefined) return preset.map((cidr) => ipaddr.parseCIDR(cidr));
    try {
      if (entry.includes('/')) return [ipaddr.parseCIDR(entry)];
      const address = ipaddr.process(entry);
      return [[address, address.kind() === 'ipv4' ? 32 : 128] as Range];
    } catch {
      throw new RangeError(
        `trusted proxy ${JSON.stringify(entry)} is not an address, a CIDR range or one of ${Object.keys(TRUSTED_PRESETS).join(', ')}`,
      );
    }
  });
}

function matches(address: string, [range, bits]: Range): boolean {
  const parsed = ipaddr.process(address);
  return parsed.kind() === range.kind() && parsed.match(range, bits);
}
