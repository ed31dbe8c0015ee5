import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress } from './ip-address-class.ts';

/**
 * Where a webhook may be sent (SSRF protection). Test mode may target any http(s) address,
 * loopback included, for local development. Live mode needs https and a host whose every address
 * is public: checked when an endpoint is created or its URL changed, and again before every
 * delivery after resolving the name, connecting to exactly the address that was checked (a DNS
 * answer that changes between the check and the connection cannot redirect the request).
 */

import type { Mode } from '../domain/mode.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses. Replaceable in unit tests. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

/** The destination may not be used; the message is safe to show to the endpoint's owner. */
export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

/** The longest URL an endpoint may have. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Checks what can be checked without the network: an absolute http(s) URL without credentials;
 * https in live mode. Returns null when acceptable, else the end of "url must …".
 */
export function webhookUrlProblem(text: string, mode: Mode | null): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http or https URL';
  // Credentials in the URL would end up in events and logs.
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (mode === 'live' && url.protocol !== 'https:') return 'must use https in live mode';
  return null;
}

/**
 * Resolves the URL's host and checks its addresses for the mode; returns the address to connect
 * to. Throws DestinationRefused when the URL or an address is not allowed, or the name does not
 * resolve.
 */
export async function resolveDestination(
  url: URL,
  mode: Mode,
  resolver: HostResolver = systemResolver,
): Promise<ResolvedAddress> {
  const problem = webhookUrlProblem(url.href, mode);
  if (problem) throw new DestinationRefused(`url ${problem}`);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = isIP(host);
  if (mode === 'live' && literal === 0 && isLocalhostName(host)) throw refused('loopback');

  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolver(host);
    } catch {
      throw new DestinationRefused(`url host could not be resolved`);
    }
  }
  const first = addresses[0];
  if (!first) throw new DestinationRefused(`url host could not be resolved`);
  if (mode === 'live') {
    // Every address, not only the first: a name with one public and one private address is refused.
    for (const { address } of addresses) {
      const addressClass = classifyAddress(address) ?? 'reserved';
      if (addressClass !== 'public') throw refused(addressClass);
    }
  }
  return first;
}

/** `localhost` and its subdomains are loopback by definition (RFC 6761), whatever DNS says. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function refused(addressClass: string): DestinationRefused {
  return new DestinationRefused(
    `url must not point to a private, loopback, link-local or otherwise non-public address in live mode (it points to a ${addressClass} address)`,
  );
}
