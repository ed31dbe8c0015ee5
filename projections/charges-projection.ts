import { chargeView } from './views/charge-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `charges`: GET /charges/{id} and the charge list (filter: customerId). */
export const chargesProjection = viewProjection('charges', 'charges', scopedIndexes('customerId'), chargeView);
