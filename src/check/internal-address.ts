import ipaddr from 'ipaddr.js';

/** Address ranges that never belong to a shopper on the internet. */
export type InternalRange =
  'loopback' | 'private' | 'link-local' | 'cgnat' | 'unique-local' | 'site-local' | 'unspecified';

// ipaddr.js range names, IPv4 and IPv6, mapped to ours. IPv4-mapped IPv6 (::ffff:10.0.0.1) is
// turned into IPv4 first, so it lands in the IPv4 names.
const INTERNAL: Readonly<Record<string, InternalRange>> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'cgnat',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local',
  unspecified: 'unspecified',
};

/**
 * The internal range a caller_id's address falls in (loopback, private, link-local, CGNAT
 * 100.64.0.0/10, unique-local, ...): the address of a proxy or of the socket, not of the shopper.
 * Accepts what a backend might have copied from a socket or header (`[::1]:8080`,
 * `10.0.0.1:443`, `fe80::1%eth0`). Undefined for public addresses and for anything that is not
 * an address.
 */
export function internalRangeOf(value: string): InternalRange | undefined {
  const address = addressOf(value);
  return address === undefined ? undefined : INTERNAL[address.range()];
}

/** A dotted four-part IPv4 address, each part decimal without a leading zero. */
const FOUR_PART = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;

/** What an IPv6 address can be written with (an IPv4 tail included), at its longest. */
const IPV6_TEXT = /^[0-9a-f:.]{2,45}$/i;

/** The first parts of the IPv4 ranges {@link INTERNAL} names: other addresses are public. */
const INTERNAL_FIRST_PARTS = new Set([0, 10, 100, 127, 169, 172, 192]);

/**
 * Whether an IPv6 address starting with `group` can be in a range {@link INTERNAL} names: `::`,
 * `::1` and IPv4-mapped addresses (0), unique-local fc00::/7, link- and site-local fe80::/9.
 */
const mayBeInternalV6 = (group: number) =>
  group === 0 || (group >= 0xfc00 && group <= 0xfdff) || (group >= 0xfe80 && group <= 0xfeff);

/**
 * The address in a value as a backend might have copied it, when it may be internal; undefined
 * for anything else (a public address, or no address at all). IPv4 only in its dotted four-part
 * form: ipaddr.js also reads `10.1` and `0x7f.1`, which no proxy writes and which would make
 * words that happen to look like that into addresses. (uas's client has its own normaliser for
 * forwarded headers; this one stays free of forwarded-parse, which needs Node.)
 *
 * A journal holds 100,000 values and more, so ipaddr.js sees only those that may be internal:
 * it tells that a text is no address by throwing, which costs tens of microseconds.
 */
function addressOf(value: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  // The common case first: a bare IPv4 address, as most backends send it.
  const four = FOUR_PART.exec(value) ?? FOUR_PART.exec((value = bareAddress(value)));
  if (four !== null) {
    const first = Number(four[1]);
    const parts = [first, Number(four[2]), Number(four[3]), Number(four[4])];
    return INTERNAL_FIRST_PARTS.has(first) && parts.every((part) => part <= 255)
      ? new ipaddr.IPv4(parts)
      : undefined;
  }
  const colon = value.indexOf(':');
  if (colon === -1 || colon > 4 || !IPV6_TEXT.test(value)) return undefined;
  if (colon > 0 && !mayBeInternalV6(Number.parseInt(value.slice(0, colon), 16))) return undefined;
  let address: ipaddr.IPv6;
  try {
    address = ipaddr.IPv6.parse(value);
  } catch {
    return undefined;
  }
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** A value without what a backend may have copied around the address: blanks, brackets, a port, a zone. */
function bareAddress(value: string): string {
  let text = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed !== null) text = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/.test(text))
    text = text.slice(0, text.lastIndexOf(':'));
  return text.replace(/%[^%]*$/, '');
}
