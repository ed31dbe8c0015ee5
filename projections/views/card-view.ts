import type { CustomerEvent } from '../../packages/domain/customer/customer-events.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import { cardObject, expiryMonthText, expiryYearText } from './card-object.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface CardDoc extends Document {
  objectType: 'card';
  customerId: string;
  deleted?: true;
  _accountId: string;
  _mode: Mode;
  _deleted: boolean;
}

/** A saved card: lives in its customer's stream, addressed by its own id. */
export const cardView: ObjectView<CardDoc> = {
  eventTypes: new Set(['CardAdded', 'CardUpdated', 'CardDeleted']),
  objectId: (event) => (event.data as { cardId?: string }).cardId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & CustomerEvent;
    switch (event.type) {
      case 'CardAdded':
        return {
          ...(cardObject({
            id: event.data.cardId,
            created: occurredAtSeconds(recorded),
            customerId: event.data.customerId,
            card: event.data.card,
            merchantAccountId: event.data.merchantAccountId,
          }) as CardDoc),
          ...tenantFields(recorded),
          _deleted: false,
        };
      case 'CardUpdated': {
        if (!current) return current;
        const { customerId: _c, cardId: _id, expMonth, expYear, ...changes } = event.data;
        return {
          ...current,
          ...changes,
          ...(expMonth !== undefined ? { expMonth: expiryMonthText(expMonth) } : {}),
          ...(expYear !== undefined ? { expYear: expiryYearText(expYear) } : {}),
        };
      }
      case 'CardDeleted':
        return current ? { ...current, deleted: true, _deleted: true } : current;
      default:
        return current;
    }
  },
};
