import { refundView } from './views/refund-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `refunds`: GET /refunds/{id} and the refund list of a charge. */
export const refundsProjection = viewProjection('refunds', 'refunds', scopedIndexes('charge'), refundView);
