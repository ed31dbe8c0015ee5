import { customersProjection } from '../customers-projection.ts';
import { publicEvents, type ReadSide } from '../read-side.ts';

/** Customers. A card change changes the customer's embedded cards, but only the card's event tells. */
export const customerReadSide = {
  projections: [customersProjection],
  publicEvents: publicEvents(customersProjection, ['CUSTOMER_CREATED', 'CUSTOMER_UPDATED', 'CUSTOMER_DELETED'], {
    CustomerCreated: ['CUSTOMER_CREATED'],
    CustomerUpdated: ['CUSTOMER_UPDATED'],
    CustomerDeleted: ['CUSTOMER_DELETED'],
    DefaultCardChanged: ['CUSTOMER_UPDATED'],
    CardAdded: [],
    CardUpdated: [],
    CardDeleted: [],
  }),
} satisfies ReadSide;
