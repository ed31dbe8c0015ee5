import { isIP } from 'node:net';

/**
 * What kind of network an IP address belongs to, for SSRF protection: live-mode webhooks may only
 * reach `public` addresses. Everything that is not plainly global unicast counts as non-public
 * (reserved, documentation, benchmarking, 6to4, Teredo, ...), so a gap in this table fails closed.
 */
export type AddressClass = 'public' | 'private' | 'loopback' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

/** A network written as its first address and prefix length, with the class of its addresses. */
type Range = readonly [network: string, prefix: number, addressClass: AddressClass];

/** IPv4 ranges (RFC 6890 special-purpose registry, plus multicast and class E). */
const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0', 32, 'unspecified'],
  ['0.0.0.0', 8, 'reserved'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // includes cloud metadata services (169.254.169.254)
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // documentation
  ['203.0.113.0', 24, 'reserved'], // documentation
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // class E and the broadcast address
];

/**
 * IPv6 ranges inside global unicast (2000::/3) that are still not public. Outside 2000::/3 only
 * the ranges of IPV6_OUTSIDE_GLOBAL have a class of their own; the rest is reserved.
 */
const IPV6_INSIDE_GLOBAL: readonly Range[] = [
  ['2001::', 23, 'reserved'], // IETF protocol assignments, Teredo (2001::/32)
  ['2001:db8::', 32, 'reserved'], // documentation
  ['2002::', 16, 'reserved'], // 6to4: may wrap any IPv4 address
  ['3fff::', 20, 'reserved'], // documentation
];

const IPV6_OUTSIDE_GLOBAL: readonly Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'private'], // unique local
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'], // deprecated site-local
  ['ff00::', 8, 'multicast'],
];

/** IPv6 prefixes whose last 32 bits are an IPv4 address that decides the class. */
const IPV4_EMBEDDING: readonly (readonly [network: string, prefix: number])[] = [
  ['::ffff:0:0', 96], // IPv4-mapped: the socket reaches the IPv4 address
  ['64:ff9b::', 96], // NAT64 well-known prefix: translated to the IPv4 address
];

/** Classifies an IPv4 or IPv6 address in text form (brackets and zone ids allowed); null when it is not an IP address. */
export function classifyAddress(text: string): AddressClass | null {
  const address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zoneAt = address.indexOf('%');
  // A zone id names an interface: only link-local and multicast addresses need one.
  const withoutZone = zoneAt === -1 ? address : address.slice(0, zoneAt);
  switch (isIP(withoutZone)) {
    case 4:
      return classifyIpv4(ipv4Bytes(withoutZone));
    case 6: {
      const bytes = ipv6Bytes(withoutZone);
      const classified = classifyIpv6(bytes);
      return zoneAt !== -1 && classified === 'public' ? 'link-local' : classified;
    }
    default:
      return null;
  }
}

export const isPublicAddress = (text: string): boolean => classifyAddress(text) === 'public';

function classifyIpv4(bytes: Uint8Array): AddressClass {
  return mostSpecific(IPV4_RANGES, bytes, ipv4Bytes) ?? 'public';
}

function classifyIpv6(bytes: Uint8Array): AddressClass {
  for (const [network, prefix] of IPV4_EMBEDDING) {
    if (inRange(bytes, ipv6Bytes(network), prefix)) return classifyIpv4(bytes.subarray(12));
  }
  if (inRange(bytes, ipv6Bytes('2000::'), 3)) return mostSpecific(IPV6_INSIDE_GLOBAL, bytes, ipv6Bytes) ?? 'public';
  return mostSpecific(IPV6_OUTSIDE_GLOBAL, bytes, ipv6Bytes) ?? 'reserved';
}

/** The class of the longest matching prefix, or null when no range holds the address. */
function mostSpecific(
  ranges: readonly Range[],
  bytes: Uint8Array,
  parse: (text: string) => Uint8Array,
): AddressClass | null {
  let best: { prefix: number; addressClass: AddressClass } | null = null;
  for (const [network, prefix, addressClass] of ranges) {
    if ((best === null || prefix > best.prefix) && inRange(bytes, parse(network), prefix))
      best = { prefix, addressClass };
  }
  return best?.addressClass ?? null;
}

function inRange(bytes: Uint8Array, network: Uint8Array, prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const bits = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - bits)) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((network[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

/** Four bytes of a dotted-quad address already validated by isIP. */
function ipv4Bytes(text: string): Uint8Array {
  return Uint8Array.from(text.split('.').map(Number));
}

/** Sixteen bytes of an IPv6 address already validated by isIP (`::` compression, trailing dotted quad). */
function ipv6Bytes(text: string): Uint8Array {
  let groupsText = text;
  const embedded: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(tail);
    embedded.push((a << 8) | b, (c << 8) | d);
    groupsText = text.slice(0, lastColon + 1);
    // `::ffff:` loses its trailing colon; a bare `::` stays the compression it is.
    if (!groupsText.endsWith('::')) groupsText = groupsText.slice(0, -1);
  }
  const parseGroups = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const [head = '', rest] = groupsText.split('::');
  const before = parseGroups(head);
  const after = [...(rest === undefined ? [] : parseGroups(rest)), ...embedded];
  const zeros = rest === undefined ? 0 : 8 - before.length - after.length;
  const groups = [...before, ...new Array<number>(zeros).fill(0), ...after];
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}
