import type { RequestContext } from '../../packages/http/route.ts';

/**
 * The address this service is reached at, for links it hands out (redirect pages, file
 * downloads): the scheme and host the request came in with. Behind a proxy that terminates TLS,
 * `X-Forwarded-Proto` gives the scheme.
 */
export function publicBaseUrl(request: Pick<RequestContext<unknown, unknown, unknown>, 'headers'>): string {
  const forwarded = request.headers['x-forwarded-proto']?.split(',')[0]?.trim();
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : 'http';
  const given = request.headers.host ?? '';
  // Only a plain host[:port] makes it into an address handed out.
  const host = /^[A-Za-z0-9.[\]:-]{1,255}$/.test(given) ? given : 'localhost';
  return `${scheme}://${host}`;
}
