import ipaddr from 'ipaddr.js';
import geoip from 'geoip-country';

/**
 * The country an IP address is registered in (two-letter ISO code), from the offline GeoLite2
 * data of `geoip-country`: no request leaves the machine. Null for private, loopback and unknown
 * addresses, and for anything that is not an IP address.
 */
export function ipCountry(ipAddress: string): string | null {
  if (!ipaddr.isValid(ipAddress)) return null;
  const address = ipaddr.process(ipAddress);
  if (address.range() !== 'unicast') return null;
  return geoip.lookup(address.toString())?.country ?? null;
}
