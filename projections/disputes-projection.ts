import { disputeView } from './views/dispute-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `disputes`: GET /disputes/{id} and the dispute list. */
export const disputesProjection = viewProjection('disputes', 'disputes', scopedIndexes('charge'), disputeView);
