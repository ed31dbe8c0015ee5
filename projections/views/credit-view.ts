import type { CreditEvent } from '../../packages/domain/credit/credit-events.ts';
import { creditEventTypes } from '../../packages/domain/credit/credit-events.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import { cardObject } from './card-object.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface CreditDoc extends Document {
  objectType: 'credit';
  amount: number;
  currency: string;
  customerId: string | null;
  status: 'successful' | 'failed';
  _accountId: string;
  _mode: Mode;
}

/**
 * A credit as GET /credits/{id} renders it. The spec names no fields for its outcome; we use the
 * charge's: `status`, `failureCode`, `failureMessage`, `failureIssuerDeclineCode`, and
 * `threeDSecureInfo`: the result of the token's 3-D Secure verification when the card came from a
 * token verified for the credit's amount and currency, else null.
 */
export const creditView: ObjectView<CreditDoc> = {
  eventTypes: new Set(creditEventTypes),
  objectId: (event) => (event.data as { creditId?: string }).creditId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & CreditEvent;
    switch (event.type) {
      case 'CreditSucceeded':
      case 'CreditFailed': {
        const data = event.data;
        const created = occurredAtSeconds(recorded);
        const failed = event.type === 'CreditFailed' ? event.data : null;
        // A new card is not saved by a credit, so it belongs to no customer.
        const cardCustomerId = data.cardSource === null ? data.customerId : null;
        return {
          id: data.creditId,
          created,
          objectType: 'credit',
          amount: data.amount,
          currency: data.currency,
          description: data.description,
          card: cardObject({ id: data.cardId, created, customerId: cardCustomerId, card: data.card }),
          customerId: data.customerId,
          status: failed ? 'failed' : 'successful',
          metadata: data.metadata,
          ...(failed
            ? {
                failureCode: failed.failureCode,
                failureMessage: failed.failureMessage,
                failureIssuerDeclineCode: failed.failureIssuerDeclineCode,
              }
            : {}),
          threeDSecureInfo: data.threeDSecureInfo ?? null,
          ...tenantFields(recorded),
        };
      }
      case 'CreditUpdated': {
        if (!current) return current;
        const { creditId: _id, ...changes } = event.data;
        return { ...current, ...changes };
      }
      default:
        return current;
    }
  },
};
