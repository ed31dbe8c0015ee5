import type { RequestContext } from '../../packages/http/route.ts';
import { containsCardNumber } from '../../packages/network/card-numbers-in-text.ts';

/** What of a request tells the address it was sent to. */
export type RequestAddress = Pick<RequestContext<unknown, unknown, unknown>, 'headers' | 'protocol'>;

/**
 * The address this service is reached at, for links it hands out (redirect pages, file
 * downloads): the scheme and host the request came in with. Behind a proxy that terminates TLS,
 * its `X-Forwarded-Proto` gives the scheme, but only when the proxy is trusted (TRUST_PROXY), as
 * for the HTTPS rule: anyone else's header could otherwise turn the links into plain HTTP.
 */
export function publicBaseUrl(request: RequestAddress): string {
  const given = request.headers.host ?? '';
  // Only a plain host[:port] makes it into an address handed out (and stored, with redirect pages).
  const host = /^[A-Za-z0-9.[\]:-]{1,255}$/.test(given) && !containsCardNumber(given) ? given : 'localhost';
  return `${request.protocol}://${host}`;
}
