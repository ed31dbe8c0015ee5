import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { creditView, type CreditDoc } from './views/credit-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /credits/{id} and the credit list (filter: customerId). */
export const creditsCollection = objectCollection<CreditDoc>('credits', 'Credit', scopedIndexes('customerId'));

/** `credits`: one document per credit. */
export const creditsProjection = viewProjection('credits', creditsCollection, creditView);
