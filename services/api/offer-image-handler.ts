import type { RequestHandler } from 'express';
import type { OfferImages } from '../../packages/commands/offer-image.ts';

/** Path of GET offer images: `/cross-sale-offers/images/<img_id>.png` (see offerImageUrl). */
export const offerImagePath = '/cross-sale-offers/images/:file';

const FILE = /^(img_[A-Za-z0-9]{1,100})\.png$/;

/**
 * Serves a cross-sale offer image as `image/png`, without an API key (checkout pages show it; the
 * id is unguessable). The API's HTTP kit only answers JSON, so this sits in front of it.
 */
export function offerImageHandler(images: OfferImages): RequestHandler {
  return async (req, res) => {
    try {
      const match = FILE.exec(String(req.params.file ?? ''));
      const png = match ? await images.png(match[1]!) : null;
      if (!png) {
        res.status(404).json({ error: { type: 'invalid_request', message: 'No such image' } });
        return;
      }
      res
        .status(200)
        .set({ 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=86400, immutable' })
        .send(png);
    } catch {
      res.status(500).json({ error: { type: 'gateway_error', message: 'The image could not be read' } });
    }
  };
}
