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

/**
 * The address in a value as a backend might have copied it, or undefined. IPv4 only in its
 * dotted four-part form: ipaddr.js also reads `10.1` and `0x7f.1`, which no proxy writes and
 * which would make words that happen to look like that into addresses. (uas's client has its own
 * normaliser for forwarded headers; this one stays free of forwarded-parse, which needs Node.)
 */
function addressOf(value: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  let text = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed !== null) text = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/.test(text))
    text = text.slice(0, text.lastIndexOf(':'));
  text = text.replace(/%[^%]*$/, '');
  if (!ipaddr.isValid(text)) return undefined;
  if (ipaddr.IPv4.isValid(text) && !ipaddr.IPv4.isValidFourPartDecimal(text)) return undefined;
  return ipaddr.process(text);
}
