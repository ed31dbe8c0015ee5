import { objectCollection } from '../packages/projection/read-model-collection.ts';
import { chargeView, type ChargeDoc } from './views/charge-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/**
 * GET /charges/{id} and the charge list (filter: customerId); the redirect page and
 * GET /client-objects find a payment-method charge by its `clientObjectId`.
 */
export const chargesCollection = objectCollection<ChargeDoc>(
  'charges',
  'Charge',
  scopedIndexes('customerId', 'clientObjectId'),
);

/** `charges`: one document per charge, with its refunds and dispute. */
export const chargesProjection = viewProjection('charges', chargesCollection, chargeView);
