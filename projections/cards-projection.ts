import { cardView } from './views/card-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `cards`: GET /customers/{id}/cards[/{cardId}] (filters: customerId, deleted). */
export const cardsProjection = viewProjection('cards', 'cards', scopedIndexes('customerId', '_deleted'), cardView);
