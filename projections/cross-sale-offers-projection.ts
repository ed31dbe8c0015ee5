import { crossSaleOfferView } from './views/cross-sale-offer-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `crossSaleOffers`: GET /cross-sale-offers[/{id}] (filter: deleted). */
export const crossSaleOffersProjection = viewProjection(
  'crossSaleOffers',
  'crossSaleOffers',
  scopedIndexes('_deleted'),
  crossSaleOfferView,
);
