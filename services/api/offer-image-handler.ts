import type { RequestHandler } from 'express';
import type { OfferImages } from '../../packages/commands/offer-image.ts';
import { HttpError } from '../../packages/http/errors.ts';

/** Path of GET offer images: `/cross-sale-offers/images/<img_id>.png` (see offerImageUrl). */
export const offerImagePath = '/cross-sale-offers/images/:file';

const FILE = /^(img_[A-Za-z0-9]{1,100})\.png$/;

/**
 * Serves a cross-sale offer image as `image/png`, without an API key (checkout pages show it; the
 * id is unguessable). Failures go to the API's error envelope like any other route's.
 */
export function offerImageHandler(images: OfferImages): RequestHandler {
  return async (req, res) => {
    const match = FILE.exec(String(req.params.file ?? ''));
    const png = match ? await images.png(match[1]!) : null;
    if (!png) throw new HttpError(404, 'invalid_request', 'No such image');
    res.status(200).set({ 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=86400, immutable' }).send(png);
  };
}
