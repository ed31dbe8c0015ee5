import type { CardBrand, CardSnapshot, CardType } from '../../packages/domain/card/card-snapshot.ts';
import type { ThreeDSecureResult } from '../../packages/domain/charge/charge-events.ts';
import type { TokenEvent } from '../../packages/domain/token/token-events.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { cardObject, expiryMonthText, expiryYearText, type CardObject } from './card-object.ts';
import { objectView, fromEventAlone } from './object-view.ts';
import { tenantFingerprint } from '../../packages/vault/tenant-fingerprint.ts';

/**
 * A token as GET /tokens/{id} renders it: card fields of the spec, `used`, `card` once saved, and
 * `threeDSecureInfo` once verified with 3-D Secure.
 */
export interface TokenObject {
  id: string;
  created: number;
  objectType: 'token';
  first6: string;
  last4: string;
  fingerprint: string;
  expMonth: string;
  expYear: string;
  cardholderName: string | null;
  brand: CardBrand;
  type: CardType;
  country: string | null;
  used: boolean;
  /** The card saved from the token, once one was. */
  card?: CardObject;
  /** Once the card was verified with 3-D Secure for an amount. */
  threeDSecureInfo?: ThreeDSecureResult;
}

export interface TokenDoc extends TokenObject, TenantScope {
  _card: CardSnapshot;
  threeDSecureInfo?: ThreeDSecureResult;
}

export const tokenView = objectView<TokenDoc, TokenEvent>({
  objectId: (event) => event.data.tokenId,
  on: {
    TokenCreated: fromEventAlone((event) => {
      const { card } = event.data;
      return {
        id: event.data.tokenId,
        created: occurredAtSeconds(event),
        objectType: 'token',
        first6: card.first6,
        last4: card.last4,
        fingerprint: tenantFingerprint(card.fingerprint, event.metadata),
        expMonth: expiryMonthText(card.expMonth),
        expYear: expiryYearText(card.expYear),
        cardholderName: card.cardholderName,
        brand: card.brand,
        type: card.type,
        country: card.country,
        used: false,
        ...tenantFields(event),
        _card: card,
      };
    }),
    TokenUsed: (current) => current && { ...current, used: true },
    TokenCardCreated: (current, event) =>
      current && {
        ...current,
        card: cardObject({
          id: event.data.cardId,
          created: occurredAtSeconds(event),
          customerId: event.data.customerId,
          card: current._card,
          tenant: event.metadata,
        }),
      },
    TokenThreeDSecureVerified: (current, event) =>
      current && { ...current, threeDSecureInfo: event.data.threeDSecureInfo },
    TokenThreeDSecureChallengeCompleted: (current, event) =>
      current?.threeDSecureInfo
        ? { ...current, threeDSecureInfo: { ...current.threeDSecureInfo, liabilityShift: event.data.liabilityShift } }
        : current,
  },
});
