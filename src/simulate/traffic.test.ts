import { describe, expect, it } from 'vitest';
import { BOT_ADDRESS, rotatingAddress, shopperAddress } from './traffic.js';

describe('shopperAddress', () => {
  it("gives each shopper its own documentation address, never the bot's", () => {
    expect(shopperAddress(0)).toBe('192.0.2.1');
    expect(shopperAddress(253)).toBe('192.0.2.254');
    expect(shopperAddress(254)).toBe('198.51.100.1');
    expect(shopperAddress(508)).toBe('203.0.113.1');
    // The bot's 203.0.113.66 is skipped: the 66th host of the third network is .67.
    expect(shopperAddress(508 + 65)).toBe('203.0.113.67');
    expect(shopperAddress(760)).toBe('203.0.113.254');
    // Past the 761 IPv4 ones, the IPv6 documentation prefix, apart from the rotating bot's.
    expect(shopperAddress(761)).toBe('2001:db8:5::0:0');
    expect(shopperAddress(999_999)).toBe('2001:db8:5::f:3f46');
    const addresses = Array.from({ length: 100_000 }, (_, index) => shopperAddress(index));
    expect(new Set(addresses).size).toBe(addresses.length);
    expect(addresses).not.toContain(BOT_ADDRESS);
    expect(addresses).not.toContain(rotatingAddress(0));
  });
});
