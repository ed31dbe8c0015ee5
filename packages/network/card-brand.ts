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

/**
 * The library's prefixes and ranges are at most 8 digits long, so the first 8 digits (the BIN,
 * which may be shown and kept like the last four) decide the brand. The library copies its whole
 * table on every call; each BIN is looked up once.
 */
const DECIDING_DIGITS = 8;
const MAX_REMEMBERED_BINS = 10_000;
const brandByBin = new Map<string, CardBrand>();

export function cardBrandOf(number: string): CardBrand {
  if (!/^\d+$/.test(number)) return 'Unknown';
  const bin = number.slice(0, DECIDING_DIGITS);
  let brand = brandByBin.get(bin);
  if (brand === undefined) {
    // For a prefix of a full card number's length the library returns the single best match first.
    const best = creditCardType(bin)[0];
    brand = (best && BRAND_BY_NICE_TYPE[best.niceType]) ?? 'Unknown';
    if (brandByBin.size >= MAX_REMEMBERED_BINS) brandByBin.clear();
    brandByBin.set(bin, brand);
  }
  return brand;
}
