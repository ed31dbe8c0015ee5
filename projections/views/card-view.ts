import type { CardAdded, CardDeleted, CardUpdated } from '../../packages/domain/customer/customer-events.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { cardObject, expiryMonthText, expiryYearText, type CardObject } from './card-object.ts';
import { objectView, fromEventAlone } from './object-view.ts';

export type CardEvent = CardAdded | CardUpdated | CardDeleted;

export interface CardDoc extends CardObject, TenantScope {
  /** A saved card always belongs to its customer. */
  customerId: string;
  _deleted: boolean;
}

/** A saved card: lives in its customer's stream, addressed by its own id. */
export const cardView = objectView<CardDoc, CardEvent>({
  objectId: (event) => event.data.cardId,
  on: {
    CardAdded: fromEventAlone((event) => ({
      ...cardObject({
        id: event.data.cardId,
        created: occurredAtSeconds(event),
        customerId: event.data.customerId,
        card: event.data.card,
        merchantAccountId: event.data.merchantAccountId,
        tenant: event.metadata,
      }),
      customerId: event.data.customerId,
      ...tenantFields(event),
      _deleted: false,
    })),
    CardUpdated: (current, event) => {
      if (!current) return current;
      const { customerId: _c, cardId: _id, expMonth, expYear, ...changes } = event.data;
      return {
        ...current,
        ...changes,
        ...(expMonth !== undefined ? { expMonth: expiryMonthText(expMonth) } : {}),
        ...(expYear !== undefined ? { expYear: expiryYearText(expYear) } : {}),
      };
    },
    CardDeleted: (current) => current && { ...current, deleted: true, _deleted: true },
  },
});
