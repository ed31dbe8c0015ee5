import { crossSaleOffersProjection } from '../cross-sale-offers-projection.ts';
import { publicEvents, type ReadSide } from '../read-side.ts';

/** Cross-sale offers. */
export const crossSaleOfferReadSide = {
  projections: [crossSaleOffersProjection],
  publicEvents: publicEvents(
    crossSaleOffersProjection,
    ['CROSS_SALE_OFFER_CREATED', 'CROSS_SALE_OFFER_UPDATED', 'CROSS_SALE_OFFER_DELETED'],
    {
      CrossSaleOfferCreated: ['CROSS_SALE_OFFER_CREATED'],
      CrossSaleOfferUpdated: ['CROSS_SALE_OFFER_UPDATED'],
      CrossSaleOfferDeleted: ['CROSS_SALE_OFFER_DELETED'],
    },
  ),
} satisfies ReadSide;
