import type { CardEntry, CardValidationFailure } from './card-network.ts';
import { luhnValid } from './card-numbers-in-text.ts';
import { cardBrandOf } from './card-brand.ts';

export { luhnValid };

/**
 * Validation of card data before anything is sent to the network or recorded
 * (`docs/architecture.md`, "Card network"), checked in this order, the first failure wins:
 *
 * 1. number: digits only, 12–19 digits, passes the Luhn check → else `invalid_number`;
 * 2. `expMonth` an integer 1–12 → else `invalid_expiry_month`;
 * 3. `expYear` a four-digit integer (callers turn two-digit years into 20YY first, so `25` is
 *    malformed here), at most 50 years ahead → else `invalid_expiry_year`;
 * 4. a card is valid through the last day of its expiry month, so an expiry before the current
 *    month (an earlier year, or the current year and an earlier month) → `expired_card`;
 * 5. CVC, when given (`undefined` means not given; an empty string is given and invalid): digits
 *    only, 4 long for American Express, 3 for every other brand → else `invalid_cvc`.
 *
 * "Current" is the UTC year and month of `now`. Messages never contain the number or the CVC.
 */

const MAX_YEARS_AHEAD = 50;

/** Digits only, 12–19 long, Luhn-valid. */
export function isValidCardNumber(number: string): boolean {
  return /^\d{12,19}$/.test(number) && luhnValid(number);
}

export const VALIDATION_MESSAGES = {
  invalid_number: 'The card number is not a valid card number.',
  invalid_expiry_month: "The card's expiration month is invalid.",
  invalid_expiry_year: "The card's expiration year is invalid.",
  expired_card: 'The card has expired.',
  invalid_cvc: "The card's security code is invalid.",
} as const satisfies Record<CardValidationFailure['code'], string>;

function failure(code: CardValidationFailure['code']): CardValidationFailure {
  return { code, message: VALIDATION_MESSAGES[code] };
}

export function validateCardEntry(entry: CardEntry, now: Date): CardValidationFailure | null {
  if (!isValidCardNumber(entry.number)) return failure('invalid_number');

  const { expMonth, expYear } = entry;
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12) return failure('invalid_expiry_month');

  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  const fourDigits = Number.isInteger(expYear) && expYear >= 1000 && expYear <= 9999;
  if (!fourDigits || expYear > currentYear + MAX_YEARS_AHEAD) return failure('invalid_expiry_year');
  if (expYear < currentYear || (expYear === currentYear && expMonth < currentMonth)) return failure('expired_card');

  if (entry.cvc !== undefined) {
    const expectedLength = cardBrandOf(entry.number) === 'American Express' ? 4 : 3;
    if (!/^\d+$/.test(entry.cvc) || entry.cvc.length !== expectedLength) return failure('invalid_cvc');
  }
  return null;
}
