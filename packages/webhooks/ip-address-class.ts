import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * What kind of network an IP address belongs to, for SSRF protection: live-mode webhooks may only
 * reach `public` addresses. The special-purpose registries are ipaddr.js's (the library express
 * relies on); what is ours is the mapping onto these classes, which fails closed: every special
 * range without a class of its own (documentation, benchmarking, 6to4, Teredo, AS112, ...) is
 * `reserved`, and so is IPv6 outside global unicast (2000::/3).
 */
export type AddressClass = 'public' | 'private' | 'loopback' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

const IPV4_CLASSES: Readonly<Record<string, AddressClass>> = {
  unicast: 'public',
  private: 'private',
  carrierGradeNat: 'private',
  loopback: 'loopback',
  linkLocal: 'link-local', // includes cloud metadata services (169.254.169.254)
  multicast: 'multicast',
};

const IPV6_CLASSES: Readonly<Record<string, AddressClass>> = {
  unicast: 'public',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  loopback: 'loopback',
  linkLocal: 'link-local',
  multicast: 'multicast',
  unspecified: 'unspecified',
};

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** NAT64's well-known prefix: the socket reaches the IPv4 address in the last 32 bits. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/** Classifies an IPv4 or IPv6 address in text form (brackets and zone ids allowed); null when it is not an IP address. */
export function classifyAddress(text: string): AddressClass | null {
  const address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zoneAt = address.indexOf('%');
  // A zone id names an interface: only link-local and multicast addresses need one.
  const withoutZone = zoneAt === -1 ? address : address.slice(0, zoneAt);
  // node:net decides what is an address (strict dotted quads); ipaddr.js classifies it.
  switch (isIP(withoutZone)) {
    case 4:
      return classifyIpv4(ipaddr.IPv4.parse(withoutZone));
    case 6: {
      const classified = classifyIpv6(ipaddr.IPv6.parse(embeddedIpv4AsHex(withoutZone)));
      return zoneAt !== -1 && classified === 'public' ? 'link-local' : classified;
    }
    default:
      return null;
  }
}

export const isPublicAddress = (text: string): boolean => classifyAddress(text) === 'public';

/**
 * ipaddr.js reads any IPv6 text ending in a dotted quad as IPv4-mapped (`::1.2.3.4` becomes
 * `::ffff:1.2.3.4`); the socket would not. Writing the quad as two hex groups keeps the address.
 */
function embeddedIpv4AsHex(text: string): string {
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!quad) return text;
  const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  return `${text.slice(0, quad.index)}${hex(a, b)}:${hex(c, d)}`;
}

function classifyIpv4(address: ipaddr.IPv4): AddressClass {
  const range = address.range();
  // ipaddr.js's `unspecified` is all of 0.0.0.0/8; only 0.0.0.0 itself means "this host".
  if (range === 'unspecified') return address.toString() === '0.0.0.0' ? 'unspecified' : 'reserved';
  return IPV4_CLASSES[range] ?? 'reserved';
}

function classifyIpv6(address: ipaddr.IPv6): AddressClass {
  if (address.isIPv4MappedAddress()) return classifyIpv4(address.toIPv4Address());
  if (address.match(NAT64)) return classifyIpv4(ipaddr.fromByteArray(address.toByteArray().slice(12)) as ipaddr.IPv4);
  const range = address.range();
  if (range === 'unicast' && !address.match(GLOBAL_UNICAST)) return 'reserved';
  return IPV6_CLASSES[range] ?? 'reserved';
}
