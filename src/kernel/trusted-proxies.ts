// CES_TRUSTED_PROXIES as a set of addresses and subnets (Node's BlockList), read by the config
// (which refuses a bad entry at start-up) and by src/http/client-address.ts.
import { BlockList, isIP } from 'node:net';

export interface TrustedProxies {
  has(address: string): boolean;
}

/** CES_TRUSTED_PROXIES: addresses and CIDRs (IPv4 or IPv6); throws on anything else. */
export function parseTrustedProxies(list: readonly string[]): TrustedProxies {
  const block = new BlockList();
  for (const item of list) {
    const [address, bits, extra] = item.split('/');
    const family = isIP(address);
    if (family === 0 || extra !== undefined) throw new Error(`"${item}" is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) {
      block.addAddress(address, type);
      continue;
    }
    const prefix = Number(bits);
    if (!/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(`"${item}" has an invalid prefix length`);
    block.addSubnet(address, prefix, type);
  }
  return {
    has: (address) => {
      const plain = unmapped(address);
      const family = isIP(plain);
      return family !== 0 && block.check(plain, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** `::ffff:127.0.0.1` (an IPv4 peer of a dual-stack socket) as `127.0.0.1`. */
export function unmapped(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
