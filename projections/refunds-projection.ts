import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { refundView, type RefundDoc } from './views/refund-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /refunds/{id} and the refund list of a charge. */
export const refundsCollection = objectCollection<RefundDoc>('refunds', 'Refund', scopedIndexes('charge'));

/** `refunds`: one document per refund. */
export const refundsProjection = viewProjection('refunds', refundsCollection, refundView);
