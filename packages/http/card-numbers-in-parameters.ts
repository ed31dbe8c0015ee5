import { containsCardNumber } from '../network/card-numbers-in-text.ts';
import { InvalidRequestError } from '../domain/errors.ts';
import { parameterName } from './validation.ts';

/**
 * Parameters meant for a card number: the card details' `number` and a blacklist rule's
 * `cardNumber` (both go to the vault or a keyed hash, never stored as given), and binary uploads.
 */
const CARD_NUMBER_FIELDS = new Set(['number', 'cardNumber', 'imageData']);

/**
 * Card numbers belong in the vault only: a request whose free text (descriptions, metadata keys
 * and values, names, emails, addresses, URLs, anything but the card number fields) holds a card
 * number, however written (see card-numbers-in-text.ts), is refused before anything is stored. The message names the parameter, never the value.
 */
export function refuseCardNumbersInText(parameters: unknown, path: string[] = []): void {
  if (typeof parameters === 'string' || typeof parameters === 'number') {
    if (containsCardNumber(String(parameters))) throw refusal(path);
    return;
  }
  if (typeof parameters !== 'object' || parameters === null) return;
  for (const [key, value] of Object.entries(parameters)) {
    const childPath = [...path, key];
    if (!Array.isArray(parameters)) {
      if (containsCardNumber(key)) throw refusal(path, 'a parameter name');
      if (CARD_NUMBER_FIELDS.has(key)) continue;
    }
    refuseCardNumbersInText(value, childPath);
  }
}

function refusal(path: string[], what?: string): InvalidRequestError {
  const subject = what ? `${what} in ${parameterName(path) || 'the request'}` : parameterName(path);
  return new InvalidRequestError(
    `Invalid parameter: ${subject} must not contain a card number; card numbers are accepted only in card number fields, which keep them in the vault`,
  );
}
