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
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

const SEVERITY: Record<AddressClass, number> = { public: 0, private: 1, forbidden: 2 };

/**
 * The class of an IP address (v4 or v6); null if not one. An IPv6 address that carries an IPv4 one
 * (mapped, translated, compatible, NAT64, 6to4, Teredo) is judged by the IPv4 inside, as that is
 * where a packet to it ends up; of Teredo's two, by the stricter.
 */
export function classifyAddress(address: string): AddressClass | null {
  if (isIPv4(address)) return classify(address, 'ipv4');
  if (!isIPv6(address)) return null;
  // The URL parser writes IPv6 in its canonical short form, dotted IPv4 tails in hex included.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const embedded = embeddedIpv4(groupsOf(canonical));
  if (embedded.length === 0) return classify(canonical, 'ipv6');
  return embedded
    .map((ipv4) => classify(ipv4, 'ipv4'))
    .reduce((stricter, next) => (SEVERITY[next] > SEVERITY[stricter] ? next : stricter));
}

function classify(address: string, family: 'ipv4' | 'ipv6'): AddressClass {
  if (FORBIDDEN.check(address, family)) return 'forbidden';
  if (PRIVATE.check(address, family)) return 'private';
  return 'public';
}

/** The eight 16-bit groups of a canonical IPv6 address (no dotted tail: the URL parser rewrote it). */
function groupsOf(canonical: string): number[] {
  const [head = '', tail] = canonical.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

const ipv4Of = (high: number, low: number): string => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/** The IPv4 addresses an IPv6 address stands for, by the well-known prefixes that embed one. */
function embeddedIpv4(groups: number[]): string[] {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zeroes = (...values: number[]) => values.every((value) => value === 0);
  // ::ffff:0:0/96 (mapped) and ::ffff:0:0:0/96 (translated, SIIT).
  if (zeroes(g0, g1, g2, g3) && ((g4 === 0 && g5 === 0xffff) || (g4 === 0xffff && g5 === 0))) {
    return [ipv4Of(g6, g7)];
  }
  // ::/96 (IPv4-compatible), but for :: and ::1, which are IPv6's own unspecified and loopback.
  if (zeroes(g0, g1, g2, g3, g4, g5) && !(g6 === 0 && g7 <= 1)) return [ipv4Of(g6, g7)];
  // 64:ff9b::/96 (NAT64).
  if (g0 === 0x64 && g1 === 0xff9b && zeroes(g2, g3, g4, g5)) return [ipv4Of(g6, g7)];
  // 2002::/16 (6to4): the IPv4 address follows the prefix.
  if (g0 === 0x2002) return [ipv4Of(g1, g2)];
  // 2001::/32 (Teredo): the server's address, then the client's with its bits inverted.
  if (g0 === 0x2001 && g1 === 0) return [ipv4Of(g2, g3), ipv4Of(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}
