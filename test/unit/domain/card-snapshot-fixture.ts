import type { CardSnapshot } from '../../../packages/domain/card/card-snapshot.ts';

/** The address fields of a card given without a billing address, as events and card objects show them. */
export const noCardAddress = {
  addressLine1: null,
  addressLine2: null,
  addressCity: null,
  addressState: null,
  addressZip: null,
  addressCountry: null,
} as const;

/** A card as events record it (no number, no CVC), for decider specs. */
export const cardSnapshot: CardSnapshot = {
  first6: '424242',
  last4: '4242',
  fingerprint: 'fp_1',
  vaultRef: 'vault_1',
  brand: 'Visa',
  type: 'Credit Card',
  country: 'US',
  issuer: 'Test Bank',
  expMonth: '05',
  expYear: '40',
  cardholderName: null,
  ...noCardAddress,
  fraudCheckData: null,
};
