import { cardsCollection, cardsProjection } from '../cards-projection.ts';
import { hostedObjects, publicEvents, type HostedReadSide } from '../read-side.ts';

/** Cards of customers (they live in the customer's stream). */
export const cardReadSide = {
  projections: [cardsProjection],
  publicEvents: publicEvents(
    cardsProjection,
    ['CUSTOMER_CARD_CREATED', 'CUSTOMER_CARD_UPDATED', 'CUSTOMER_CARD_DELETED'],
    {
      CardAdded: ['CUSTOMER_CARD_CREATED'],
      CardUpdated: ['CUSTOMER_CARD_UPDATED'],
      CardDeleted: ['CUSTOMER_CARD_DELETED'],
    },
  ),
  hosted: hostedObjects(cardsCollection, (card) => card.customerId),
} satisfies HostedReadSide;
