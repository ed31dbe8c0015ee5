import type { CardSnapshot } from '../../packages/domain/card/card-snapshot.ts';
import type { ThreeDSecureResult } from '../../packages/domain/charge/charge-events.ts';
import type { TokenEvent } from '../../packages/domain/token/token-events.ts';
import { tokenEventTypes } from '../../packages/domain/token/token-events.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import { cardObject, expiryMonthText, expiryYearText } from './card-object.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface TokenDoc extends Document {
  objectType: 'token';
  used: boolean;
  _accountId: string;
  _mode: Mode;
  _card: CardSnapshot;
  threeDSecureInfo?: ThreeDSecureResult;
}

/**
 * A token as GET /tokens/{id} renders it: card fields of the spec, `used`, `card` once saved, and
 * `threeDSecureInfo` once verified with 3-D Secure.
 */
export const tokenView: ObjectView<TokenDoc> = {
  eventTypes: new Set(tokenEventTypes),
  objectId: (event) => (event.data as { tokenId?: string }).tokenId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & TokenEvent;
    switch (event.type) {
      case 'TokenCreated': {
        const { card } = event.data;
        return {
          id: event.data.tokenId,
          created: occurredAtSeconds(recorded),
          objectType: 'token',
          first6: card.first6,
          last4: card.last4,
          fingerprint: card.fingerprint,
          expMonth: expiryMonthText(card.expMonth),
          expYear: expiryYearText(card.expYear),
          cardholderName: card.cardholderName,
          brand: card.brand,
          type: card.type,
          country: card.country,
          used: false,
          ...tenantFields(recorded),
          _card: card,
        };
      }
      case 'TokenUsed':
        return current ? { ...current, used: true } : current;
      case 'TokenCardCreated':
        return current
          ? {
              ...current,
              card: cardObject({
                id: event.data.cardId,
                created: occurredAtSeconds(recorded),
                customerId: event.data.customerId,
                card: current._card,
              }),
            }
          : current;
      case 'TokenThreeDSecureVerified':
        return current ? { ...current, threeDSecureInfo: event.data.threeDSecureInfo } : current;
      case 'TokenThreeDSecureChallengeCompleted': {
        const info = current?.threeDSecureInfo;
        return current && info
          ? { ...current, threeDSecureInfo: { ...info, liabilityShift: event.data.liabilityShift } }
          : current;
      }
      default:
        return current;
    }
  },
};
