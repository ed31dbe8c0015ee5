import creditCardType from 'credit-card-type';
import type { CardFieldError } from './field-messages.ts';

/**
 * What the card fields check as the customer types: brand (from `credit-card-type`), number length
 * and Luhn checksum, expiry in the future, security code length by brand. Runs in the field frames
 * and is unit-tested in Node, so it touches no DOM. The service checks everything again.
 */

export type FieldName = 'number' | 'expiry' | 'cvc' | 'cardholderName';

export interface CardBrand {
  /** `credit-card-type` id: `visa`, `mastercard`, `american-express`, ... */
  id: string;
  /** As the customer knows it: `Visa`, `American Express`, ... */
  name: string;
  /** Digit positions after which the number is shown with a space. */
  gaps: number[];
  lengths: number[];
  cvcLength: number;
  /** What the brand calls its security code: CVV, CVC, CID, ... */
  cvcName: string;
}

/** The outcome of checking one field's value. */
export interface FieldCheck {
  empty: boolean;
  /** Enough has been typed to judge the value. */
  complete: boolean;
  /**
   * Null when the value is fine, or when it is incomplete and the customer is still typing. Errors
   * are the catalogs' keys: the frame shows them in the payer's language.
   */
  error: CardFieldError | null;
  /** Shown on leaving the field (or on submit) when the value is incomplete. */
  incompleteError: CardFieldError | null;
}

const DEFAULT_GAPS = [4, 8, 12];
const MAX_NUMBER_LENGTH = 19;

export const digitsOf = (text: string): string => text.replace(/\D/g, '');

/** The brand of a number (or its first digits), when exactly one brand matches. */
export function brandOf(number: string): CardBrand | null {
  const digits = digitsOf(number);
  if (digits.length === 0) return null;
  const matches = creditCardType(digits);
  const match = matches.length === 1 || digits.length >= 4 ? matches[0] : undefined;
  if (!match) return null;
  return {
    id: match.type,
    name: match.niceType,
    gaps: match.gaps,
    lengths: match.lengths,
    cvcLength: match.code.size,
    cvcName: match.code.name,
  };
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** The number as shown in the field: digits grouped by the brand's gaps. */
export function formatNumber(text: string): string {
  const digits = digitsOf(text).slice(0, MAX_NUMBER_LENGTH);
  const gaps = brandOf(digits)?.gaps ?? DEFAULT_GAPS;
  let formatted = '';
  for (let index = 0; index < digits.length; index++) {
    if (gaps.includes(index)) formatted += ' ';
    formatted += digits[index];
  }
  return formatted;
}

export function checkNumber(text: string): FieldCheck {
  const digits = digitsOf(text);
  const brand = brandOf(digits);
  const incompleteError = 'numberIncomplete';
  if (digits.length === 0) return { empty: true, complete: false, error: null, incompleteError };
  if (digits.length >= 2 && creditCardType(digits).length === 0)
    return { empty: false, complete: false, error: 'numberInvalid', incompleteError };
  const lengths = brand?.lengths ?? [16];
  const longest = Math.max(...lengths);
  const complete = lengths.includes(digits.length) || digits.length >= longest;
  // Shown at once, also for a length after which a longer number could follow (Visa 19): the
  // message goes away if more digits make the number valid.
  if (complete && !passesLuhn(digits)) return { empty: false, complete: true, error: 'numberInvalid', incompleteError };
  return { empty: false, complete, error: null, incompleteError };
}

/** The expiry as shown: `MM / YY`, a leading 0 added when the month cannot have two digits. */
export function formatExpiry(text: string, deleting = false): string {
  let digits = digitsOf(text).slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  if (digits.length < 2) return digits;
  if (digits.length === 2 && deleting) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** Month and four-digit year of a complete expiry, else null. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const digits = digitsOf(text);
  if (digits.length !== 4) return null;
  return { month: Number(digits.slice(0, 2)), year: 2000 + Number(digits.slice(2)) };
}

export function checkExpiry(text: string, now: Date): FieldCheck {
  const digits = digitsOf(text);
  const incompleteError = 'expiryIncomplete';
  if (digits.length === 0) return { empty: true, complete: false, error: null, incompleteError };
  const month = Number(digits.slice(0, 2));
  if (digits.length >= 2 && (month < 1 || month > 12))
    return { empty: false, complete: false, error: 'expiryMonthInvalid', incompleteError };
  const expiry = parseExpiry(text);
  if (!expiry) return { empty: false, complete: false, error: null, incompleteError };
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const expiryMonth = expiry.year * 12 + (expiry.month - 1);
  if (expiryMonth < thisMonth)
    return {
      empty: false,
      complete: true,
      error: expiry.year < now.getUTCFullYear() ? 'expiryYearPast' : 'expiryPast',
      incompleteError,
    };
  if (expiry.year > now.getUTCFullYear() + 50)
    return { empty: false, complete: true, error: 'expiryYearInvalid', incompleteError };
  return { empty: false, complete: true, error: null, incompleteError };
}

/** CVC length from the brand (4 for American Express); 3 when the brand is not known yet. */
export function cvcLengthOf(brand: CardBrand | null): number {
  return brand?.cvcLength ?? 3;
}

/** `length`: the card brand's code length (`cvcLengthOf`). */
export function checkCvc(text: string, length: number): FieldCheck {
  const digits = digitsOf(text);
  const incompleteError = 'cvcIncomplete';
  if (digits.length === 0) return { empty: true, complete: false, error: null, incompleteError };
  if (digits.length > length) return { empty: false, complete: true, error: 'cvcInvalid', incompleteError };
  return { empty: false, complete: digits.length === length, error: null, incompleteError };
}

export function checkCardholderName(text: string): FieldCheck {
  const empty = text.trim().length === 0;
  return { empty, complete: !empty, error: null, incompleteError: null };
}

/** The error to show now: a definite error at once; an incomplete value once the customer left the field. */
export function errorToShow(check: FieldCheck, touched: boolean): CardFieldError | null {
  if (check.error) return check.error;
  if (touched && !check.complete && check.incompleteError) return check.incompleteError;
  return null;
}
