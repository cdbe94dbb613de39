import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Where an address leads: the public internet, somewhere private to this network (loopback,
 * private and shared ranges, multicast, reserved and documentation ranges), or somewhere a
 * webhook may never go (link-local, where cloud metadata services answer, and the unspecified
 * address, which reaches this host).
 */
export type AddressClass = 'public' | 'private' | 'forbidden';

const FORBIDDEN = new BlockList();
FORBIDDEN.addSubnet('0.0.0.0', 8, 'ipv4');
FORBIDDEN.addSubnet('169.254.0.0', 16, 'ipv4');
FORBIDDEN.addAddress('::', 'ipv6');
FORBIDDEN.addSubnet('fe80::', 10, 'ipv6');

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

const MAPPED_IPV4 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** The class of an IP address (v4 or v6; an IPv4-mapped v6 address is its v4 address); null if not one. */
export function classifyAddress(address: string): AddressClass | null {
  const normalized = normalize(address);
  if (normalized === null) return null;
  const family = isIPv4(normalized) ? 'ipv4' : 'ipv6';
  if (FORBIDDEN.check(normalized, family)) return 'forbidden';
  if (PRIVATE.check(normalized, family)) return 'private';
  return 'public';
}

function normalize(address: string): string | null {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return null;
  // The URL parser writes IPv6 in its canonical short form, mapped IPv4 in hex included.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const mapped = MAPPED_IPV4.exec(canonical);
  if (mapped === null) return canonical;
  const high = parseInt(mapped[1]!, 16);
  const low = parseInt(mapped[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}
