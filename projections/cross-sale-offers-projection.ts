import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { crossSaleOfferView, type CrossSaleOfferDoc } from './views/cross-sale-offer-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /cross-sale-offers[/{id}] (filter: deleted). */
export const crossSaleOffersCollection = objectCollection<CrossSaleOfferDoc>(
  'crossSaleOffers',
  'Cross-sale offer',
  scopedIndexes('_deleted'),
);

/** `crossSaleOffers`: one document per cross-sale offer. */
export const crossSaleOffersProjection = viewProjection(
  'crossSaleOffers',
  crossSaleOffersCollection,
  crossSaleOfferView,
);
