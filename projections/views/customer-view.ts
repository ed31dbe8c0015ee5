import type { CustomerEvent } from '../../packages/domain/customer/customer-events.ts';
import type { Metadata } from '../../packages/domain/metadata.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { cardView, type CardDoc } from './card-view.ts';
import { objectView, publicObject, type PublicObject, fromEventAlone } from './object-view.ts';

/** The customer object embeds this many of its most recent cards (spec: Limits). */
const EMBEDDED_CARDS = 10;

/** A customer as GET /customers/{id} renders it (spec: Customer). */
export interface CustomerObject {
  id: string;
  created: number;
  objectType: 'customer';
  email: string;
  description: string | null;
  defaultCardId: string | null;
  /** The most recent cards, newest first. */
  cards: PublicObject<CardDoc>[];
  metadata: Metadata;
  /** Test mode only: the test clock the customer lives on. */
  testClockId?: string;
  deleted?: true;
}

export interface CustomerDoc extends CustomerObject, TenantScope {
  _deleted: boolean;
  /** Every live card, oldest first: `cards` shows the most recent of them. */
  _cards: CardDoc[];
}

function withCards(doc: CustomerDoc, cards: CardDoc[]): CustomerDoc {
  return { ...doc, _cards: cards, cards: cards.slice(-EMBEDDED_CARDS).reverse().map(publicObject) };
}

export const customerView = objectView<CustomerDoc, CustomerEvent>({
  objectId: (event) => event.data.customerId,
  on: {
    CustomerCreated: fromEventAlone((event) => ({
      id: event.data.customerId,
      created: occurredAtSeconds(event),
      objectType: 'customer',
      email: event.data.email,
      description: event.data.description,
      defaultCardId: null,
      cards: [],
      metadata: event.data.metadata,
      ...(event.data.testClockId ? { testClockId: event.data.testClockId } : {}),
      ...tenantFields(event),
      _deleted: false,
      _cards: [],
    })),
    CustomerUpdated: (current, event) => {
      if (!current) return current;
      const { customerId: _id, ...changes } = event.data;
      return { ...current, ...changes };
    },
    CustomerDeleted: (current) => current && { ...current, deleted: true, _deleted: true },
    CardAdded: (current, event) => {
      const card = cardView.fold(null, event);
      return current && card && withCards(current, [...current._cards, card]);
    },
    CardUpdated: (current, event) =>
      current &&
      withCards(
        current,
        current._cards.map((card) => (card.id === event.data.cardId ? (cardView.fold(card, event) ?? card) : card)),
      ),
    CardDeleted: (current, event) =>
      current &&
      withCards(
        current,
        current._cards.filter((card) => card.id !== event.data.cardId),
      ),
    DefaultCardChanged: (current, event) => current && { ...current, defaultCardId: event.data.defaultCardId },
  },
});
