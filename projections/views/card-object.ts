import type { Tenant } from '../../packages/commands/command-context.ts';
import type { CardSnapshot } from '../../packages/domain/card/card-snapshot.ts';
import { tenantFingerprint } from '../../packages/vault/tenant-fingerprint.ts';

/**
 * A card as the API renders it (spec: Card). `first6`, `last4`, `expMonth` and `expYear` are
 * strings on the wire, as in the spec's samples and as the public client libraries expect.
 * The fingerprint is the one of the event's account and mode (see tenantFingerprint).
 */
export function cardObject(options: {
  id: string | null;
  created: number;
  customerId: string | null;
  card: CardSnapshot;
  merchantAccountId?: string | null;
  tenant: Tenant;
}): Record<string, unknown> {
  const { card } = options;
  return {
    ...(options.id !== null ? { id: options.id } : {}),
    created: options.created,
    objectType: 'card',
    first6: card.first6,
    last4: card.last4,
    fingerprint: tenantFingerprint(card.fingerprint, options.tenant),
    expMonth: String(card.expMonth),
    expYear: String(card.expYear),
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
