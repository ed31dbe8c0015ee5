import { creditView } from './views/credit-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `credits`: GET /credits/{id} and the credit list (filter: customerId). */
export const creditsProjection = viewProjection('credits', 'credits', scopedIndexes('customerId'), creditView);
