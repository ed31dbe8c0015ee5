import { createRequire } from 'node:module';
import ipaddr from 'ipaddr.js';
import type GeoIpModule from 'geoip-country';

type GeoIp = typeof GeoIpModule;

let geoip: GeoIp | undefined;

/**
 * The country an IP address is registered in (two-letter ISO code), from the offline GeoLite2
 * data of `geoip-country`: no request leaves the machine. Null for private, loopback and unknown
 * addresses, and for anything that is not an IP address.
 */
export function ipCountry(ipAddress: string): string | null {
  if (!ipaddr.isValid(ipAddress)) return null;
  const address = ipaddr.process(ipAddress);
  if (address.range() !== 'unicast') return null;
  // Loaded on the first public address, not at start: the country ranges take megabytes.
  geoip ??= createRequire(import.meta.url)('geoip-country') as GeoIp;
  return geoip.lookup(address.toString())?.country ?? null;
}
