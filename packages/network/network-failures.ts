import type { AuthorizationOutcome } from './card-network.ts';

/** A failed authorization or credit as the port reports it. */
export type NetworkFailure = NonNullable<AuthorizationOutcome['failure']>;

/**
 * Every way the simulated network fails a charge or credit, with the issuer decline code it
 * reports (ISO 8583 response code, as Visa/Mastercard issuers send them) and the message shown to
 * API clients. `null` means the failure does not come from the issuer: a network error, the
 * gateway's own fraud block, AVS or 3-D Secure policy of the merchant.
 *
 * | code                      | issuer code | meaning of the issuer code                              |
 * |---------------------------|-------------|---------------------------------------------------------|
 * | card_declined             | 05          | do not honor                                            |
 * | insufficient_funds        | 51          | not sufficient funds                                    |
 * | lost_or_stolen            | 43          | stolen card, pick up (41 would be "lost card")          |
 * | expired_card              | 54          | expired card                                            |
 * | incorrect_cvc             | N7          | decline for CVV2 failure (Visa)                         |
 * | limit_exceeded            | 61          | exceeds withdrawal / approval amount limit              |
 * | do_not_try_again          | R1          | revocation of all authorizations order: never retry     |
 * | invalid_number            | 14          | invalid card number (only if validation was skipped)    |
 * | authentication_required   | 1A / null   | 1A "additional customer authentication required" when   |
 * |                           |             | the issuer demands 3-D Secure; null when the merchant's |
 * |                           |             | own 3-D Secure requirements are not met                 |
 * | incorrect_zip             | null        | gateway decline on AVS `no_match`, not an issuer code   |
 * | processing_error          | null        | the network could not process the request               |
 * | suspected_fraud           | null        | blocked by fraud screening before reaching the issuer   |
 */
const FAILURES = {
  card_declined: { issuerDeclineCode: '05', message: 'The card was declined.' },
  insufficient_funds: { issuerDeclineCode: '51', message: 'The card has insufficient funds to complete the purchase.' },
  lost_or_stolen: { issuerDeclineCode: '43', message: 'The card was declined because it was reported lost or stolen.' },
  expired_card: { issuerDeclineCode: '54', message: 'The card has expired.' },
  incorrect_cvc: { issuerDeclineCode: 'N7', message: "The card's security code is incorrect." },
  limit_exceeded: { issuerDeclineCode: '61', message: 'The charge exceeds the limit of the card.' },
  do_not_try_again: { issuerDeclineCode: 'R1', message: 'The card was declined; do not try this card again.' },
  invalid_number: { issuerDeclineCode: '14', message: 'The card number is not a valid card number.' },
  authentication_required: {
    issuerDeclineCode: null,
    message: 'The charge requires successful 3-D Secure authentication.',
  },
  incorrect_zip: { issuerDeclineCode: null, message: "The card's zip code failed validation." },
  processing_error: { issuerDeclineCode: null, message: 'An error occurred while processing the card.' },
  suspected_fraud: { issuerDeclineCode: null, message: 'The charge was blocked as suspected fraud.' },
} as const satisfies Record<string, { issuerDeclineCode: string | null; message: string }>;

export type NetworkFailureCode = keyof typeof FAILURES;

/** Issuer response code for "additional customer authentication required" (SCA soft decline). */
export const ISSUER_AUTHENTICATION_REQUIRED = '1A';

export function networkFailure(
  code: NetworkFailureCode,
  overrides: Partial<Omit<NetworkFailure, 'code'>> = {},
): NetworkFailure {
  const { issuerDeclineCode, message } = FAILURES[code];
  return { code, issuerDeclineCode, message, ...overrides };
}
