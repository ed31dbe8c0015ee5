/**
 * What the service records about a card: never the number or the CVC (`docs/architecture.md`,
 * "Card data and secrets"). The number lives encrypted in the vault under `vaultRef`;
 * `fingerprint` is a keyed hash of the number, equal for equal numbers across customers, charges
 * and tokens.
 */
export interface CardSnapshot extends CardholderDetails {
  first6: string;
  last4: string;
  fingerprint: string;
  vaultRef: string;
  brand: CardBrand;
  type: CardType;
  /** Two-letter ISO code of the issuing bank's country, or null when unknown. */
  country: string | null;
  issuer: string | null;
  /** Expiry month and year as the client sent them (`"05"`, `"30"`); see card-expiry.ts for their numbers. */
  expMonth: string;
  expYear: string;
  fraudCheckData: FraudCheckData | null;
  /**
   * Live mode: where the account's processors keep this card, made while its CVC was at hand, so
   * that every later payment of it is a card-on-file payment there (`docs/payments.md`). Absent
   * in test mode and for cards no processor kept.
   */
  processorCards?: ProcessorCardRef[];
}

/** A card kept at one processor of the account: the processor (`proc_…`) and its reference of the card. */
export interface ProcessorCardRef {
  processorId: string;
  storedCard: string;
}

/** The card's billing address as the cardholder gave it (each line null when not given). */
export interface CardAddress {
  addressLine1: string | null;
  addressLine2: string | null;
  addressCity: string | null;
  addressState: string | null;
  addressZip: string | null;
  /** Three-letter ISO country code. */
  addressCountry: string | null;
}

/** What a client tells about a card besides its number, expiry and CVC: the cardholder and the billing address. */
export interface CardholderDetails extends CardAddress {
  cardholderName: string | null;
}

/** The address of a card (a snapshot, or card details where a line may be absent): absent lines are null. */
export const cardAddress = (card: Partial<CardAddress>): CardAddress => ({
  addressLine1: card.addressLine1 ?? null,
  addressLine2: card.addressLine2 ?? null,
  addressCity: card.addressCity ?? null,
  addressState: card.addressState ?? null,
  addressZip: card.addressZip ?? null,
  addressCountry: card.addressCountry ?? null,
});

export type CardBrand =
  'Visa' | 'American Express' | 'MasterCard' | 'Maestro' | 'Discover' | 'JCB' | 'Diners Club' | 'Unknown';
export type CardType = 'Credit Card' | 'Debit Card' | 'Prepaid Card' | 'Unknown';

export interface FraudCheckData {
  ipAddress?: string;
  ipCountry?: string;
  email?: string;
  phone?: string;
  userAgent?: string;
  acceptLanguage?: string;
  browserFingerprint?: string;
}
