import { normalizeExpiryYear } from '../../packages/domain/card/card-expiry.ts';
import {
  cardAddress,
  type CardBrand,
  type CardholderDetails,
  type CardSnapshot,
  type CardType,
  type FraudCheckData,
} from '../../packages/domain/card/card-snapshot.ts';
import type { Tenant } from '../../packages/domain/tenant.ts';
import { tenantFingerprint } from '../../packages/vault/tenant-fingerprint.ts';

/**
 * A card as the API renders it (spec: Card), saved or embedded in a charge, credit or token.
 * `first6`, `last4`, `expMonth` and `expYear` are strings on the wire, as in the spec's samples
 * and as the public client libraries expect.
 */
export interface CardObject extends CardholderDetails {
  id: string;
  created: number;
  objectType: 'card';
  first6: string;
  last4: string;
  fingerprint: string;
  expMonth: string;
  expYear: string;
  customerId: string | null;
  brand: CardBrand;
  type: CardType;
  country: string | null;
  issuer: string | null;
  fraudCheckData: FraudCheckData | null;
  merchantAccountId: string | null;
  /** Saved cards only, once checked (`checkFastCredit`). */
  fastCredit?: { supported: boolean; updated: number };
  /** Saved cards only, once deleted. */
  deleted?: true;
}

export function cardObject(options: {
  id: string;
  created: number;
  customerId: string | null;
  card: CardSnapshot;
  merchantAccountId?: string | null;
  /** The account and mode of the event: the fingerprint shown is theirs (see tenantFingerprint). */
  tenant: Tenant;
}): CardObject {
  const { card } = options;
  return {
    id: options.id,
    created: options.created,
    objectType: 'card',
    first6: card.first6,
    last4: card.last4,
    fingerprint: tenantFingerprint(card.fingerprint, options.tenant),
    expMonth: expiryMonthText(card.expMonth),
    expYear: expiryYearText(card.expYear),
    cardholderName: card.cardholderName,
    customerId: options.customerId,
    brand: card.brand,
    type: card.type,
    country: card.country,
    issuer: card.issuer,
    ...cardAddress(card),
    fraudCheckData: card.fraudCheckData,
    merchantAccountId: options.merchantAccountId ?? null,
  };
}

/**
 * Expiry text as clients read it back: the month exactly as they sent it (`"05"` stays `"05"`, `"5"`
 * stays `"5"`), the year in four digits (`"55"` means 2055, as client libraries expect). Events
 * keep the text as sent.
 */
export function expiryMonthText(asSent: string): string {
  return asSent.trim();
}

export function expiryYearText(asSent: string): string {
  return String(normalizeExpiryYear(asSent) ?? asSent);
}
