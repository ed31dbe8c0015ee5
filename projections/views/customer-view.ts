import type { CustomerEvent } from '../../packages/domain/customer/customer-events.ts';
import { customerEventTypes } from '../../packages/domain/customer/customer-events.ts';
import type { Metadata } from '../../packages/domain/metadata.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import { cardView, type CardDoc } from './card-view.ts';
import { publicObject, type ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

/** The customer object embeds this many of its most recent cards (spec: Limits). */
const EMBEDDED_CARDS = 10;

export interface CustomerDoc extends Document {
  objectType: 'customer';
  email: string;
  description: string | null;
  defaultCardId: string | null;
  cards: Record<string, unknown>[];
  metadata: Metadata;
  deleted?: true;
  _accountId: string;
  _mode: Mode;
  _deleted: boolean;
  /** Every live card, oldest first: `cards` shows the most recent of them. */
  _cards: CardDoc[];
}

function withCards(doc: CustomerDoc, cards: CardDoc[]): CustomerDoc {
  return { ...doc, _cards: cards, cards: cards.slice(-EMBEDDED_CARDS).reverse().map(publicObject) };
}

export const customerView: ObjectView<CustomerDoc> = {
  eventTypes: new Set(customerEventTypes),
  objectId: (event) => (event.data as { customerId?: string }).customerId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & CustomerEvent;
    if (event.type === 'CustomerCreated') {
      return {
        id: event.data.customerId,
        created: occurredAtSeconds(recorded),
        objectType: 'customer',
        email: event.data.email,
        description: event.data.description,
        defaultCardId: null,
        cards: [],
        metadata: event.data.metadata,
        ...(event.data.testClockId ? { testClockId: event.data.testClockId } : {}),
        ...tenantFields(recorded),
        _deleted: false,
        _cards: [],
      };
    }
    if (!current) return current;
    switch (event.type) {
      case 'CustomerUpdated': {
        const { customerId: _id, ...changes } = event.data;
        return { ...current, ...changes };
      }
      case 'CustomerDeleted':
        return { ...current, deleted: true, _deleted: true };
      case 'CardAdded':
        return withCards(current, [...current._cards, cardView.fold(null, recorded)!]);
      case 'CardUpdated':
        return withCards(
          current,
          current._cards.map((card) => (card.id === event.data.cardId ? cardView.fold(card, recorded)! : card)),
        );
      case 'CardDeleted':
        return withCards(
          current,
          current._cards.filter((card) => card.id !== event.data.cardId),
        );
      case 'DefaultCardChanged':
        return { ...current, defaultCardId: event.data.defaultCardId };
      default:
        return current;
    }
  },
};
