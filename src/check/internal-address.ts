import ipaddr from 'ipaddr.js';
import { normalizeAddress } from '../client/caller-id.js';

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
  const address = normalizeAddress(value);
  if (address === undefined) return undefined;
  return INTERNAL[ipaddr.parse(address).range()];
}
