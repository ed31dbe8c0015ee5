import type { CardErrorCode } from '../../../domain/errors.ts';

/**
 * Stripe's decline codes (`decline_code`, the issuer's reason) and card error codes (`code`) mapped
 * to the spec's card error codes. The decline code is the more precise of the two and wins; a code
 * Stripe adds later, or one with no closer match, is a plain `card_declined`.
 */
const SPEC_CODE_OF = new Map<string, CardErrorCode>(
  Object.entries<CardErrorCode>({
    insufficient_funds: 'insufficient_funds',
    lost_card: 'lost_or_stolen',
    stolen_card: 'lost_or_stolen',
    pickup_card: 'lost_or_stolen',
    fraudulent: 'suspected_fraud',
    security_violation: 'suspected_fraud',
    merchant_blacklist: 'blacklisted',
    card_velocity_exceeded: 'limit_exceeded',
    withdrawal_count_limit_exceeded: 'limit_exceeded',
    do_not_try_again: 'do_not_try_again',
    revocation_of_authorization: 'do_not_try_again',
    revocation_of_all_authorizations: 'do_not_try_again',
    stop_payment_order: 'do_not_try_again',
    expired_card: 'expired_card',
    incorrect_cvc: 'incorrect_cvc',
    invalid_cvc: 'invalid_cvc',
    incorrect_zip: 'incorrect_zip',
    incorrect_number: 'invalid_number',
    invalid_number: 'invalid_number',
    invalid_expiry_month: 'invalid_expiry_month',
    invalid_expiry_year: 'invalid_expiry_year',
    processing_error: 'processing_error',
    issuer_not_available: 'processing_error',
    try_again_later: 'processing_error',
    reenter_transaction: 'processing_error',
    authentication_required: 'authentication_required',
    currency_not_supported: 'currency_not_supported',
  }),
);

/** What Stripe says about a refused payment (an error object, or a payment intent's `last_payment_error`). */
export interface StripeDeclineReason {
  code?: string | null;
  decline_code?: string | null;
  message?: string | null;
}

export function specCodeOfStripeDecline(reason: StripeDeclineReason): CardErrorCode {
  for (const stripeCode of [reason.decline_code, reason.code]) {
    const specCode = stripeCode ? SPEC_CODE_OF.get(stripeCode) : undefined;
    if (specCode) return specCode;
  }
  return 'card_declined';
}
