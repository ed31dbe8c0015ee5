import { chargesProjection } from '../charges-projection.ts';
import { clientObjectsProjection } from '../client-objects-projection.ts';
import { networkOutcomesDueProjection } from '../network-outcomes-due-projection.ts';
import { paymentMethodChargesDueProjection } from '../payment-method-charges-due-projection.ts';
import { publicEvents, type ReadSide } from '../read-side.ts';
import { unansweredIntentsDueProjection } from '../unanswered-intents-due-projection.ts';

/**
 * Charges, and the charge object of the public events of its refunds, disputes and fraud warnings
 * (their `data` is the charge: `docs/events.md`).
 */
export const chargeReadSide = {
  projections: [
    chargesProjection,
    networkOutcomesDueProjection,
    // Charges' and credits' intents: credits are charges' kin here, with the same lifecycle.
    unansweredIntentsDueProjection,
    clientObjectsProjection,
    paymentMethodChargesDueProjection,
  ],
  publicEvents: publicEvents(
    chargesProjection,
    [
      'CHARGE_SUCCEEDED',
      'CHARGE_FAILED',
      'CHARGE_UPDATED',
      'CHARGE_CAPTURED',
      'CHARGE_REFUNDED',
      'CHARGE_DISPUTE_CREATED',
      'CHARGE_DISPUTE_UPDATED',
      'CHARGE_DISPUTE_WON',
      'CHARGE_DISPUTE_LOST',
      'CHARGE_DISPUTE_FUNDS_WITHDRAWN',
      'CHARGE_DISPUTE_FUNDS_RESTORED',
    ],
    {
      ChargeSucceeded: ['CHARGE_SUCCEEDED'],
      ChargeFailed: ['CHARGE_FAILED'],
      // A live charge whose processor's answer is unknown: no event until the lookup decides it.
      CardChargePending: [],
      CardChargeSettled: (event) => (event.data.failure ? ['CHARGE_FAILED'] : ['CHARGE_SUCCEEDED']),
      ChargeCaptured: ['CHARGE_CAPTURED'],
      ChargeUpdated: ['CHARGE_UPDATED'],
      // A refund shows on the charge once the network settled it: refunded, or failed (the charge's refund list changed).
      RefundRequested: [],
      RefundSettled: (event) => (event.data.status === 'successful' ? ['CHARGE_REFUNDED'] : ['CHARGE_UPDATED']),
      RefundUpdated: ['CHARGE_UPDATED'],
      // The merchant's main charge lists the cross-sale charges made on partners' accounts after it.
      CrossSaleChargeAdded: ['CHARGE_UPDATED'],
      // Disputes: `data` is the charge, with `disputed: true` and its `dispute` (docs/disputes.md).
      // A chargeback withdraws the funds when it opens; a retrieval request only if accepted as lost.
      DisputeOpened: (event) =>
        event.data.status === 'RETRIEVAL_REQUEST_NEW'
          ? ['CHARGE_DISPUTE_CREATED']
          : ['CHARGE_DISPUTE_CREATED', 'CHARGE_DISPUTE_FUNDS_WITHDRAWN'],
      DisputeEvidenceSubmitted: ['CHARGE_DISPUTE_UPDATED'],
      DisputeWon: ['CHARGE_DISPUTE_UPDATED', 'CHARGE_DISPUTE_WON', 'CHARGE_DISPUTE_FUNDS_RESTORED'],
      DisputeLost: (event) =>
        event.data.fundsWithdrawn
          ? ['CHARGE_DISPUTE_UPDATED', 'CHARGE_DISPUTE_LOST', 'CHARGE_DISPUTE_FUNDS_WITHDRAWN']
          : ['CHARGE_DISPUTE_UPDATED', 'CHARGE_DISPUTE_LOST'],
      // The warning's verdict changes the charge's fraudDetails.
      FraudWarningReceived: ['CHARGE_UPDATED'],
      // Payment-method charges (docs/payments.md): no event while the payer is away at the provider
      // (the spec has no type for a pending charge); the provider's answer decides the charge.
      ChargePending: [],
      PaymentMethodChargeProcessing: ['CHARGE_UPDATED'],
      PaymentMethodChargeAuthorized: ['CHARGE_SUCCEEDED'],
      PaymentMethodChargeFailed: ['CHARGE_FAILED'],
    },
  ),
} satisfies ReadSide;
