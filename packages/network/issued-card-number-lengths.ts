import creditCardType from 'credit-card-type';

/**
 * The lengths of card number that the card brands issue under a prefix, from credit-card-type's
 * table of prefixes and lengths (the one brand detection uses): what tells a card number from any
 * other run of digits that happens to pass the Luhn check.
 */

/**
 * Lengths a brand issues that the table leaves out: Visa's 13-digit numbers are still valid
 * cards, and the service takes them.
 */
const ALSO_ISSUED: Readonly<Record<string, readonly number[]>> = { visa: [13] };

interface BrandNumbers {
  patterns: readonly (number | number[])[];
  /** Bit n set: the brand issues n-digit numbers. */
  lengths: number;
}

const BRANDS: readonly BrandNumbers[] = Object.values(creditCardType.types).map((type) => {
  const { patterns, lengths } = creditCardType.getTypeInfo(type);
  return { patterns, lengths: [...lengths, ...(ALSO_ISSUED[type] ?? [])].reduce((mask, n) => mask | (1 << n), 0) };
});

/** The table's longest prefix: more digits than this never change the answer. */
export const DECIDING_DIGITS = 8;
const MAX_REMEMBERED_PREFIXES = 10_000;
const lengthsByPrefix = new Map<string, number>();

/**
 * The lengths (bit n set for n digits) of the numbers some brand issues beginning with `digits`,
 * of which the first DECIDING_DIGITS decide; 0 when no brand issues numbers so beginning.
 */
export function issuedLengthsOf(digits: string): number {
  const prefix = digits.slice(0, DECIDING_DIGITS);
  let lengths = lengthsByPrefix.get(prefix);
  if (lengths === undefined) {
    lengths = 0;
    for (const brand of BRANDS) if (brand.patterns.some((pattern) => begins(prefix, pattern))) lengths |= brand.lengths;
    if (lengthsByPrefix.size >= MAX_REMEMBERED_PREFIXES) lengthsByPrefix.clear();
    lengthsByPrefix.set(prefix, lengths);
  }
  return lengths;
}

/** Whether some brand issues numbers of this length and prefix. */
export function isIssuedCardNumber(digits: string): boolean {
  return (issuedLengthsOf(digits) & (1 << digits.length)) !== 0;
}

/** A table pattern is a prefix (`4`) or an inclusive range of prefixes of one length (`[51, 55]`). */
function begins(prefix: string, pattern: number | number[]): boolean {
  if (typeof pattern === 'number') return prefix.startsWith(String(pattern));
  const [low, high] = pattern as [number, number];
  const length = String(low).length;
  if (prefix.length < length) return false;
  const value = Number(prefix.slice(0, length));
  return value >= low && value <= high;
}
