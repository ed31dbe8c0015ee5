import type { MessageKey } from '../i18n/en.ts';
import type { Shift4Error } from '../service.ts';

/** What the payer is told when 3-D Secure did not let the card pay. */
export const AUTHENTICATION_MESSAGES: Record<string, MessageKey> = {
  authentication_required: 'authenticationFailed',
  authentication_cancelled: 'authenticationCancelled',
};

/**
 * What the payer is told of a card the service refused, in the payer's language (the API's own
 * message is written for the merchant's developers); a decline not listed is a plain decline.
 */
export const CARD_ERROR_MESSAGES: Record<string, MessageKey> = {
  invalid_number: 'numberInvalid',
  invalid_expiry: 'expiryPast',
  invalid_expiry_month: 'expiryMonthInvalid',
  invalid_expiry_year: 'expiryYearInvalid',
  invalid_cvc: 'cvcInvalid',
  incorrect_cvc: 'incorrectCvc',
  expired_card: 'expiredCard',
  insufficient_funds: 'insufficientFunds',
  processing_error: 'processingError',
  expired_token: 'tokenExpired',
};

/** A message of the payer's language's catalog, its placeholders filled in. */
export type Translate = (key: MessageKey, values?: Record<string, string>) => string;

/** A refusal as the payer reads it: a card's in the payer's words, anything else as a general failure. */
export function payerMessage(error: Shift4Error, t: Translate): string {
  const code = error.code ?? '';
  if (error.type === 'card_error')
    return t(AUTHENTICATION_MESSAGES[code] ?? CARD_ERROR_MESSAGES[code] ?? 'cardDeclined');
  if (error.type === 'gateway_error') return t('serviceUnreachable');
  return t('somethingWentWrong');
}
