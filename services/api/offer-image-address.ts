import { publicBaseUrl, type RequestAddress } from './public-base-url.ts';

/**
 * A cross-sale offer as the API answers it: its image's address is absolute, with the address the
 * request came in with (as a file's `url`), so that a page of another origin shows it as it is.
 * The read model keeps the path: only a request tells which address the service is reached at.
 */
export function withImageAddress<T extends { imageUrl: string | null }>(offer: T, request: RequestAddress): T {
  return withImageAt(offer, publicBaseUrl(request));
}

function withImageAt<T extends { imageUrl: string | null }>(offer: T, baseUrl: string): T {
  return offer.imageUrl?.startsWith('/') ? { ...offer, imageUrl: `${baseUrl}${offer.imageUrl}` } : offer;
}

/**
 * An event as the API answers it, and as webhooks deliver it (with the configured public
 * address, `PUBLIC_URL`): a cross-sale offer it carries has its image's absolute address.
 */
export function eventWithImageAddress<T extends { data: unknown }>(event: T, at: RequestAddress | string): T {
  const data = event.data as { objectType?: unknown; imageUrl?: unknown } | null;
  if (data?.objectType !== 'crossSaleOffer' || typeof data.imageUrl !== 'string') return event;
  const baseUrl = typeof at === 'string' ? at : publicBaseUrl(at);
  return { ...event, data: withImageAt(data as { imageUrl: string }, baseUrl) };
}
