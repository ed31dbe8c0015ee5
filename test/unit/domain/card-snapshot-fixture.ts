import type { CardSnapshot } from '../../../packages/domain/card/card-snapshot.ts';

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
  addressLine1: null,
  addressLine2: null,
  addressCity: null,
  addressState: null,
  addressZip: null,
  addressCountry: null,
  fraudCheckData: null,
};
