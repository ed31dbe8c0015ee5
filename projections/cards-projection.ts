import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { cardView, type CardDoc } from './views/card-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /customers/{id}/cards[/{cardId}] (filters: customerId, deleted). */
export const cardsCollection = objectCollection<CardDoc>('cards', 'Card', scopedIndexes('customerId', '_deleted'));

/** `cards`: one document per saved card. */
export const cardsProjection = viewProjection('cards', cardsCollection, cardView);
