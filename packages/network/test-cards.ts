import type { DisputeReason } from '../domain/charge/dispute-events.ts';
import type { DisputeStage } from '../domain/charge/network-outcome-events.ts';
import type { NetworkFailureCode } from './network-failures.ts';

/**
 * The test-card table of `docs/payments.md` as data: what the simulated network does with each
 * test number (`docs/architecture.md`, "Card network").
 * Numbers not listed (any other Luhn-valid number) behave like a plain successful card; numbers
 * failing Luhn are `invalid_number` before the table is consulted. `simulated-card-network.ts`
 * interprets these facets; this file holds no logic.
 */
export interface TestCardBehaviour {
  /** One line of the test-card table of `docs/payments.md`, for docs and test names. */
  summary: string;
  /** Every authorization and credit on the card fails with this. */
  decline?: Extract<
    NetworkFailureCode,
    | 'card_declined'
    | 'insufficient_funds'
    | 'lost_or_stolen'
    | 'expired_card'
    | 'incorrect_cvc'
    | 'processing_error'
    | 'do_not_try_again'
    | 'limit_exceeded'
  >;
  /** AVS answers `no_match` to any zip, and the charge is declined `incorrect_zip`. */
  zipMismatch?: true;
  /** `fraudulent`: blocked as `suspected_fraud`; `warning_later`: approved, a fraud warning follows. */
  fraud?: 'fraudulent' | 'warning_later';
  /**
   * 3-D Secure enrolment and how the issuer authenticates: with a challenge the cardholder
   * completes or fails, frictionless (authenticated, or `frictionless_refused`: refused without a
   * challenge); absent means not enrolled.
   */
  threeDSecure?: 'challenge' | 'frictionless' | 'frictionless_refused' | 'not_enrolled';
  /** Refunds of charges on the card end `failed`. */
  refundFails?: true;
  /**
   * A dispute opens shortly after an approved charge: a chargeback, or a retrieval request (the
   * issuer asks for the sale's documents first), with this reason.
   */
  disputeLater?: { stage: DisputeStage; reason: DisputeReason };
}

export const TEST_CARDS: ReadonlyMap<string, TestCardBehaviour> = new Map<string, TestCardBehaviour>([
  ['4242424242424242', { summary: 'Visa credit: succeeds' }],
  ['4000056655665556', { summary: 'Visa debit: succeeds' }],
  ['4000000000000077', { summary: 'Visa prepaid: succeeds' }],
  ['5555555555554444', { summary: 'MasterCard credit: succeeds' }],
  ['5200828282828210', { summary: 'MasterCard debit: succeeds' }],
  ['378282246310005', { summary: 'American Express: succeeds' }],
  ['6011111111111117', { summary: 'Discover: succeeds' }],
  ['3566002020360505', { summary: 'JCB: succeeds' }],
  ['30569309025904', { summary: 'Diners Club: succeeds' }],
  ['6759649826438453', { summary: 'Maestro: succeeds' }],
  ['4000000000000002', { summary: 'declined: card_declined', decline: 'card_declined' }],
  [
    '4000000000009995',
    { summary: 'declined: insufficient_funds (issuer decline code 51)', decline: 'insufficient_funds' },
  ],
  ['4000000000009987', { summary: 'declined: lost_or_stolen', decline: 'lost_or_stolen' }],
  ['4000000000000069', { summary: 'declined: expired_card', decline: 'expired_card' }],
  ['4000000000000127', { summary: 'declined: incorrect_cvc', decline: 'incorrect_cvc' }],
  ['4000000000000036', { summary: 'declined: incorrect_zip when a zip is given; AVS no_match', zipMismatch: true }],
  ['4000000000000119', { summary: 'fails: processing_error', decline: 'processing_error' }],
  ['4100000000000019', { summary: 'blocked: suspected_fraud, fraudDetails fraudulent', fraud: 'fraudulent' }],
  ['4000000000000010', { summary: 'declined: do_not_try_again', decline: 'do_not_try_again' }],
  ['4000000000000044', { summary: 'declined: limit_exceeded', decline: 'limit_exceeded' }],
  [
    '4000000000000341',
    { summary: 'can be saved; every charge on it declines card_declined', decline: 'card_declined' },
  ],
  [
    '4000000000003220',
    {
      summary: '3-D Secure enrolled, challenge: fails authentication_required without successful 3-D Secure',
      threeDSecure: 'challenge',
    },
  ],
  ['4000000000003063', { summary: '3-D Secure enrolled, frictionless success', threeDSecure: 'frictionless' }],
  [
    '4000000000003238',
    {
      summary: '3-D Secure enrolled, frictionless: the issuer refuses authentication without a challenge',
      threeDSecure: 'frictionless_refused',
    },
  ],
  [
    '4000000000003089',
    { summary: 'not enrolled in 3-D Secure (liabilityShift not_possible)', threeDSecure: 'not_enrolled' },
  ],
  ['4000000000000101', { summary: 'charge succeeds; any refund of it ends failed', refundFails: true }],
  [
    '4242000000000018',
    {
      summary: 'charge succeeds; a chargeback (reason FRAUDULENT) opens shortly after',
      disputeLater: { stage: 'chargeback', reason: 'FRAUDULENT' },
    },
  ],
  ...chargebackCards([
    ['4242000000001008', 'UNRECOGNIZED'],
    ['4242000000001016', 'DUPLICATE'],
    ['4242000000001024', 'SUBSCRIPTION_CANCELED'],
    ['4242000000001032', 'PRODUCT_NOT_RECEIVED'],
    ['4242000000001040', 'PRODUCT_UNACCEPTABLE'],
    ['4242000000001057', 'CREDIT_NOT_PROCESSED'],
    ['4242000000001065', 'GENERAL'],
  ]),
  [
    '4242000000001073',
    {
      summary: 'charge succeeds; a retrieval request (reason UNRECOGNIZED) opens shortly after',
      disputeLater: { stage: 'retrieval_request', reason: 'UNRECOGNIZED' },
    },
  ],
  ['4242000000000208', { summary: 'charge succeeds; a fraud warning arrives shortly after', fraud: 'warning_later' }],
]);

/** One card per dispute reason: a chargeback with that reason opens shortly after the charge. */
function chargebackCards(cards: [string, DisputeReason][]): [string, TestCardBehaviour][] {
  return cards.map(([number, reason]) => [
    number,
    {
      summary: `charge succeeds; a chargeback (reason ${reason}) opens shortly after`,
      disputeLater: { stage: 'chargeback', reason },
    },
  ]);
}

const ORDINARY_CARD: TestCardBehaviour = { summary: 'any other valid number: succeeds' };

export function testCardBehaviour(number: string): TestCardBehaviour {
  return TEST_CARDS.get(number) ?? ORDINARY_CARD;
}
