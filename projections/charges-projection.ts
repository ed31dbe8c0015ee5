import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { chargeView, type ChargeDoc } from './views/charge-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /charges/{id} and the charge list (filter: customerId). */
export const chargesCollection = objectCollection<ChargeDoc>('charges', 'Charge', scopedIndexes('customerId'));

/** `charges`: one document per charge, with its refunds and dispute. */
export const chargesProjection = viewProjection('charges', chargesCollection, chargeView);
