import type { CardType } from '../domain/card/card-snapshot.ts';
import type { BinInfo } from './card-network.ts';
import { cardBrandOf } from './card-brand.ts';

/**
 * BIN (issuer prefix) table of the simulated network: card type, issuing country and issuer for
 * the test cards (`docs/payments.md`). Issuers are invented. The longest matching prefix wins,
 * which is why some prefixes are longer than a real 6–8 digit BIN: many test cards share the `400000` BIN and
 * only the longer prefix can tell the prepaid card apart. Numbers matching no entry are `Unknown`
 * with country and issuer null. The brand never comes from this table (see `card-brand.ts`).
 */
export interface BinTableEntry {
  prefix: string;
  type: Exclude<CardType, 'Unknown'>;
  /** Two-letter ISO 3166 country of the issuer. */
  country: string;
  issuer: string;
}

export const BIN_TABLE: readonly BinTableEntry[] = [
  // Visa
  { prefix: '424242', type: 'Credit Card', country: 'US', issuer: 'Visa Test Bank' },
  { prefix: '424200', type: 'Credit Card', country: 'US', issuer: 'Visa Test Bank' },
  { prefix: '400000', type: 'Credit Card', country: 'US', issuer: 'Visa Test Bank' },
  { prefix: '410000', type: 'Credit Card', country: 'US', issuer: 'Visa Test Bank' },
  { prefix: '400005', type: 'Debit Card', country: 'GB', issuer: 'Visa Test Debit Bank' },
  { prefix: '400000000000007', type: 'Prepaid Card', country: 'US', issuer: 'Visa Test Prepaid Bank' },
  // MasterCard
  { prefix: '555555', type: 'Credit Card', country: 'US', issuer: 'Mastercard Test Bank' },
  { prefix: '520082', type: 'Debit Card', country: 'PL', issuer: 'Mastercard Test Debit Bank' },
  // Other brands
  { prefix: '378282', type: 'Credit Card', country: 'US', issuer: 'American Express Test Bank' },
  { prefix: '601111', type: 'Credit Card', country: 'US', issuer: 'Discover Test Bank' },
  { prefix: '356600', type: 'Credit Card', country: 'JP', issuer: 'JCB Test Bank' },
  { prefix: '305693', type: 'Credit Card', country: 'US', issuer: 'Diners Club Test Bank' },
  { prefix: '675964', type: 'Debit Card', country: 'GB', issuer: 'Maestro Test Bank' },
];

/** The BIN table entry with the longest prefix of `number`, or null. */
export function findBinEntry(number: string): BinTableEntry | null {
  let best: BinTableEntry | null = null;
  for (const entry of BIN_TABLE) {
    if (number.startsWith(entry.prefix) && (best === null || entry.prefix.length > best.prefix.length)) best = entry;
  }
  return best;
}

export function binInfo(number: string): BinInfo {
  const entry = findBinEntry(number);
  return {
    brand: cardBrandOf(number),
    type: entry?.type ?? 'Unknown',
    country: entry?.country ?? null,
    issuer: entry?.issuer ?? null,
  };
}
