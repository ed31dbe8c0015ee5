/** The part of `geoip-country` (offline GeoLite2 country data) the service uses; the package ships no types. */
declare module 'geoip-country' {
  interface CountryLookup {
    /** Two-letter ISO code. */
    country: string;
  }
  const geoip: { lookup(ip: string): CountryLookup | null };
  export default geoip;
}
