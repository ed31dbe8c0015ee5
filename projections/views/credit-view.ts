import type { ThreeDSecureResult } from '../../packages/domain/charge/charge-events.ts';
import type { CardErrorCode } from '../../packages/domain/errors.ts';
import type {
  CreditEvent,
  CreditFailed,
  CreditFailure,
  CreditPending,
  CreditSucceeded,
} from '../../packages/domain/credit/credit-events.ts';
import type { Metadata } from '../../packages/domain/metadata.ts';
import type { ProjectedEvent } from '../../packages/projection-runtime/projection.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { cardObject, type CardObject } from './card-object.ts';
import { objectView, fromEventAlone } from './object-view.ts';

/**
 * A credit as GET /credits/{id} renders it. The spec names no fields for its outcome; we use the
 * charge's: `status`, `failureCode`, `failureMessage`, `failureIssuerDeclineCode`, and
 * `threeDSecureInfo`: the result of the token's 3-D Secure verification when the card came from a
 * token verified for the credit's amount and currency, else null.
 */
export interface CreditObject {
  id: string;
  created: number;
  objectType: 'credit';
  amount: number;
  currency: string;
  description: string | null;
  card: CardObject;
  customerId: string | null;
  /** `pending`: a live credit whose processor's answer is looked up (`docs/payments.md`). */
  status: 'pending' | 'successful' | 'failed';
  metadata: Metadata;
  /** Failed credits only. */
  failureCode?: CardErrorCode;
  failureMessage?: string;
  failureIssuerDeclineCode?: string | null;
  /** The 3-D Secure result of the card's token, when it was verified for this amount and currency. */
  threeDSecureInfo: ThreeDSecureResult | null;
}

export interface CreditDoc extends CreditObject, TenantScope {}

function attempted(
  event: ProjectedEvent<CreditSucceeded | CreditFailed | CreditPending>,
  failure: CreditFailure | null,
): CreditDoc {
  const { data } = event;
  const created = occurredAtSeconds(event);
  // A new card is not saved by a credit, so it belongs to no customer.
  const cardCustomerId = data.cardSource === null ? data.customerId : null;
  return {
    id: data.creditId,
    created,
    objectType: 'credit',
    amount: data.amount,
    currency: data.currency,
    description: data.description,
    card: cardObject({ id: data.cardId, created, customerId: cardCustomerId, card: data.card, tenant: event.metadata }),
    customerId: data.customerId,
    status: event.type === 'CreditPending' ? 'pending' : failure ? 'failed' : 'successful',
    metadata: data.metadata,
    ...(failure
      ? {
          failureCode: failure.failureCode,
          failureMessage: failure.failureMessage,
          failureIssuerDeclineCode: failure.failureIssuerDeclineCode,
        }
      : {}),
    threeDSecureInfo: data.threeDSecureInfo ?? null,
    ...tenantFields(event),
  };
}

export const creditView = objectView<CreditDoc, CreditEvent>({
  objectId: (event) => event.data.creditId,
  on: {
    CreditSucceeded: fromEventAlone((event) => attempted(event, null)),
    CreditFailed: fromEventAlone((event) => attempted(event, event.data)),
    CreditPending: fromEventAlone((event) => attempted(event, null)),
    CreditSettled: (current, event) => {
      if (!current) return current;
      const { failure } = event.data;
      if (!failure) return { ...current, status: 'successful' };
      return {
        ...current,
        status: 'failed',
        failureCode: failure.failureCode,
        failureMessage: failure.failureMessage,
        failureIssuerDeclineCode: failure.failureIssuerDeclineCode,
      };
    },
    CreditUpdated: (current, event) => {
      if (!current) return current;
      const { creditId: _id, ...changes } = event.data;
      return { ...current, ...changes };
    },
  },
});
