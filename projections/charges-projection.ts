import { chargeView } from './views/charge-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/**
 * `charges`: GET /charges/{id} and the charge list (filter: customerId); the redirect page and
 * GET /client-objects find a payment-method charge by its `clientObjectId`.
 */
export const chargesProjection = viewProjection(
  'charges',
  'charges',
  scopedIndexes('customerId', 'clientObjectId'),
  chargeView,
);
