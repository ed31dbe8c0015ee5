import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { disputeView, type DisputeDoc } from './views/dispute-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /disputes/{id} and the dispute list. */
export const disputesCollection = objectCollection<DisputeDoc>('disputes', 'Dispute', scopedIndexes('charge'));

/** `disputes`: one document per dispute. */
export const disputesProjection = viewProjection('disputes', disputesCollection, disputeView);
