// Where deliveries may go. An integrator chooses the endpoint URL, so without a check it could
// point the service at its own network (loopback admin ports, the cloud metadata service at
// 169.254.169.254, private ranges). Deliveries are refused for non-HTTPS URLs and, unless
// CES_ALLOW_PRIVATE_WEBHOOKS=1, for hosts any of whose DNS addresses is not a public unicast one.
// The check runs twice: refuseWebhookTarget before an attempt (a clear reason in the attempt's
// error), and publicOnlyLookup as the connection's own resolver, so that the address checked is
// the address connected to: a DNS answer that changes between the two (rebinding) is refused too.
import dns from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { maskUrlCredentials } from '../tools/url-credentials.ts';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
// Besides loopback (::1, inside ::/96), local, multicast and documentation ranges, every IPv6
// form that carries or translates an IPv4 address (other than ::ffff:a.b.c.d, checked as the IPv4
// address it carries): IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96, NAT64 64:ff9b::/96
// and its local-use 64:ff9b:1::/48, 6to4 2002::/16 and Teredo 2001::/32. Behind a gateway for
// any of them, such an address reaches whatever IPv4 address it names, private ones included.
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** True for loopback, private, link-local, unique-local, metadata, documentation and other non-public addresses. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = ipv4FromMapped(address);
  if (mapped) return blocked.check(mapped, 'ipv4');
  return blocked.check(address, 'ipv6');
}

// ::ffff:a.b.c.d and ::ffff:hhhh:hhhh reach the IPv4 address they carry.
function ipv4FromMapped(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Null when a delivery may go to `url`; otherwise why it is refused (recorded as the attempt's error). */
export async function refuseWebhookTarget(url: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `refused: "${maskUrlCredentials(url)}" is not a valid URL`;
  }
  if (parsed.protocol !== 'https:') return `refused: only https:// endpoints receive deliveries (got ${parsed.protocol})`;
  if (allowPrivate) return null;
  const host = unbracketed(parsed.hostname);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      return `refused: cannot resolve ${host} (${(error as { code?: string }).code ?? (error as Error).message})`;
    }
  }
  return refuseAddresses(host, addresses);
}

/** Why `host`, answering these addresses, may not be reached: null when every one is public. */
function refuseAddresses(host: string, addresses: readonly string[]): string | null {
  const bad = addresses.find(isNonPublicAddress);
  if (bad === undefined && addresses.length > 0) return null;
  return `refused: ${host} resolves to ${bad ?? 'no address'}, a loopback, private or link-local address (set CES_ALLOW_PRIVATE_WEBHOOKS=1 to allow)`;
}

const unbracketed = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');

/** Why a connection to a host written as an IP address (which Node connects to without a lookup) is refused, or null. */
export function refuseAddressLiteral(hostname: string): string | null {
  const host = unbracketed(hostname);
  return isIP(host) ? refuseAddresses(host, [host]) : null;
}

type LookupAll = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for net/tls connections that may reach public addresses only: it resolves as Node
 * would and fails the connection when any address of the answer is not public. Node skips lookup
 * for IP literals; those are checked by refuseWebhookTarget and postWebhook.
 */
export function publicOnlyLookup(resolveAll: LookupAll = dns.lookup as LookupAll): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const refused = refuseAddresses(
        hostname,
        addresses.map((a) => a.address),
      );
      if (refused) {
        callback(new Error(refused), '', 0);
        return;
      }
      // The caller asked for every address (Node's happy eyeballs) or for one.
      if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
