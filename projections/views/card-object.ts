import { normalizeExpiryYear, parseExpiryMonth } from '../../packages/domain/card/card-expiry.ts';
import type { CardSnapshot } from '../../packages/domain/card/card-snapshot.ts';

/**
 * A card as the API renders it (spec: Card). `first6`, `last4`, `expMonth` and `expYear` are
 * strings on the wire, as in the spec's samples and as the public client libraries expect.
 */
export function cardObject(options: {
  id: string | null;
  created: number;
  customerId: string | null;
  card: CardSnapshot;
  merchantAccountId?: string | null;
}): Record<string, unknown> {
  const { card } = options;
  return {
    ...(options.id !== null ? { id: options.id } : {}),
    created: options.created,
    objectType: 'card',
    first6: card.first6,
    last4: card.last4,
    fingerprint: card.fingerprint,
    expMonth: expiryMonthText(card.expMonth),
    expYear: expiryYearText(card.expYear),
    cardholderName: card.cardholderName,
    customerId: options.customerId,
    brand: card.brand,
    type: card.type,
    country: card.country,
    issuer: card.issuer,
    addressLine1: card.addressLine1,
    addressLine2: card.addressLine2,
    addressCity: card.addressCity,
    addressState: card.addressState,
    addressZip: card.addressZip,
    addressCountry: card.addressCountry,
    fraudCheckData: card.fraudCheckData,
    merchantAccountId: options.merchantAccountId ?? null,
  };
}

/**
 * Expiry text as the API has always rendered it: the month without a leading zero and the year
 * in four digits, whatever form the client sent (events keep that form).
 */
export function expiryMonthText(asSent: string): string {
  return String(parseExpiryMonth(asSent) ?? asSent);
}

export function expiryYearText(asSent: string): string {
  return String(normalizeExpiryYear(asSent) ?? asSent);
}
