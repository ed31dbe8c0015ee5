import creditCardType from 'credit-card-type';
import type { CardBrand } from '../domain/card/card-snapshot.ts';

/**
 * Card brand from the number's prefix. Detection is delegated to `credit-card-type` (Braintree's
 * maintained prefix table); its `niceType` names are mapped onto our brands, everything else
 * (UnionPay, Elo, Mir, …) and unrecognised prefixes are `Unknown`.
 */
const BRAND_BY_NICE_TYPE: Readonly<Record<string, CardBrand>> = {
  Visa: 'Visa',
  'American Express': 'American Express',
  Mastercard: 'MasterCard',
  Maestro: 'Maestro',
  Discover: 'Discover',
  JCB: 'JCB',
  'Diners Club': 'Diners Club',
};

export function cardBrandOf(number: string): CardBrand {
  if (!/^\d+$/.test(number)) return 'Unknown';
  // For a full card number the library returns the single best match first.
  const best = creditCardType(number)[0];
  return (best && BRAND_BY_NICE_TYPE[best.niceType]) ?? 'Unknown';
}
