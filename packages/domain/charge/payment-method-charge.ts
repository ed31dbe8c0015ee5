import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';
import type { PaymentMethodDetails } from '../payment-method/payment-method-events.ts';
import type { ChargeAttempt, ChargeFailure } from './charge-events.ts';

/**
 * A charge made with a payment method (docs/payments.md, "Payment-method charges"): it starts
 * `pending` while the payer is away at the method's provider (`nextAction: redirect`), may wait for
 * a provider that confirms later (`nextAction: wait`), and ends `successful` or `failed` (declined
 * at the provider, or not completed before `expiresAt`).
 */
export type PaymentMethodChargeAttempt = Omit<
  ChargeAttempt,
  'cardId' | 'card' | 'billing' | 'threeDSecureInfo' | 'avsCheck' | 'networkTransactionId'
> & {
  /** `client_char_…`: lets the payer's page follow the charge with the public key. */
  clientObjectId: string;
  paymentMethod: PaymentMethodDetails;
  /** Where the payer's browser goes once the provider is done, with `clientObjectId` added. */
  returnUrl: string;
  /** The provider's page the payer is sent to (`flow.redirect.redirectUrl`). */
  redirectUrl: string;
  /** Business time after which a charge still waiting for the payer fails. */
  expiresAt: string;
};

export type NextAction = 'redirect' | 'wait' | 'none';

/** The payment-method part of a charge's state; null on card charges. */
export interface PaymentMethodChargeState {
  clientObjectId: string;
  paymentMethod: PaymentMethodDetails;
  returnUrl: string;
  redirectUrl: string;
  expiresAt: string;
  nextAction: NextAction;
  /** Set while the provider is processing: when it confirms the payment. */
  settlesAt: string | null;
}

/** Outcome the payer chose at the provider (the redirect page). */
export type ProviderOutcome = 'authorize' | 'decline' | 'processing';

export type ChargePending = DomainEvent<'ChargePending', PaymentMethodChargeAttempt>;
export type PaymentMethodChargeProcessing = DomainEvent<
  'PaymentMethodChargeProcessing',
  { chargeId: string; settlesAt: string }
>;
export type PaymentMethodChargeAuthorized = DomainEvent<'PaymentMethodChargeAuthorized', { chargeId: string }>;
export type PaymentMethodChargeFailed = DomainEvent<
  'PaymentMethodChargeFailed',
  { chargeId: string; reason: 'declined' | 'expired' } & Omit<ChargeFailure, 'blacklistRuleId'>
>;

export type PaymentMethodChargeEvent =
  ChargePending | PaymentMethodChargeProcessing | PaymentMethodChargeAuthorized | PaymentMethodChargeFailed;

export const paymentMethodChargeEventTypes = everyType<PaymentMethodChargeEvent>()([
  'ChargePending',
  'PaymentMethodChargeProcessing',
  'PaymentMethodChargeAuthorized',
  'PaymentMethodChargeFailed',
]);

/** How each failure reads on the charge (`failureCode`, `failureMessage`). */
export const providerFailures: Readonly<Record<'declined' | 'expired', Omit<ChargeFailure, 'blacklistRuleId'>>> = {
  declined: {
    failureCode: 'card_declined',
    failureMessage: 'The payment was declined at the payment method provider.',
    failureIssuerDeclineCode: null,
  },
  expired: {
    failureCode: 'processing_error',
    failureMessage: 'The payment was not completed at the payment method provider in time.',
    failureIssuerDeclineCode: null,
  },
};
