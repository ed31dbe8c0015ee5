import { tokenView } from './views/token-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `tokens`: GET /tokens/{id}. */
export const tokensProjection = viewProjection('tokens', 'tokens', scopedIndexes(), tokenView);
