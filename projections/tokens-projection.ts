import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { tokenView, type TokenDoc } from './views/token-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /tokens/{id}. */
export const tokensCollection = objectCollection<TokenDoc>('tokens', 'Token', scopedIndexes());

/** `tokens`: one document per token. */
export const tokensProjection = viewProjection('tokens', tokensCollection, tokenView);
