import type { CardSnapshot } from '../card/card-snapshot.ts';
import type { Metadata } from '../metadata.ts';
import type { ChargeAttempt, ChargeEvent, ChargeFailure, CrossSaleChargeReference } from './charge-events.ts';
import { evolveDisputes, type ChargeDisputes } from './charge-disputes.ts';
import type { PaymentMethodChargeEvent, PaymentMethodChargeState } from './payment-method-charge.ts';

/** Every event of a charge's stream: card charges, payment-method charges, refunds, disputes and fraud warnings. */
export type ChargeStreamEvent = ChargeEvent | PaymentMethodChargeEvent;

export interface RefundState {
  refundId: string;
  amount: number;
  status: 'pending' | 'successful' | 'failed';
  metadata: Metadata;
}

/** A charge is paid with a card (`card` set) or with a payment method (`paymentMethodCharge` set). */
export type ChargeRecord = Omit<ChargeAttempt, 'cardId' | 'card'> & {
  cardId: string | null;
  card: CardSnapshot | null;
  paymentMethodCharge: PaymentMethodChargeState | null;
};

export type ChargeState =
  | { status: 'none' }
  | ({
      status: 'pending' | 'successful' | 'failed';
      failure: ChargeFailure | null;
      refunds: RefundState[];
      /** Cross-sale offers bought after this charge (absent until the first). */
      crossSaleCharges?: CrossSaleChargeReference[];
    } & ChargeRecord &
      ChargeDisputes);

export const initialChargeState = (): ChargeState => ({ status: 'none' });

export function evolveCharge(state: ChargeState, event: ChargeStreamEvent): ChargeState {
  switch (event.type) {
    case 'ChargeSucceeded':
      return { status: 'successful', failure: null, refunds: [], paymentMethodCharge: null, ...event.data };
    case 'ChargeFailed': {
      const { failureCode, failureMessage, failureIssuerDeclineCode, blacklistRuleId, ...attempt } = event.data;
      return {
        status: 'failed',
        failure: { failureCode, failureMessage, failureIssuerDeclineCode, blacklistRuleId },
        refunds: [],
        paymentMethodCharge: null,
        ...attempt,
      };
    }
    case 'CardChargePending':
      return { status: 'pending', failure: null, refunds: [], paymentMethodCharge: null, ...event.data };
    case 'ChargePending': {
      const { clientObjectId, paymentMethod, returnUrl, redirectUrl, expiresAt, ...attempt } = event.data;
      return {
        status: 'pending',
        failure: null,
        refunds: [],
        ...attempt,
        cardId: null,
        card: null,
        billing: null,
        threeDSecureInfo: null,
        avsCheck: null,
        networkTransactionId: null,
        paymentMethodCharge: {
          clientObjectId,
          paymentMethod,
          returnUrl,
          redirectUrl,
          expiresAt,
          nextAction: 'redirect',
          settlesAt: null,
        },
      };
    }
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'PaymentMethodChargeProcessing':
      return withPaymentMethodCharge(state, { nextAction: 'wait', settlesAt: event.data.settlesAt });
    case 'PaymentMethodChargeAuthorized':
      return { ...withPaymentMethodCharge(state, { nextAction: 'none', settlesAt: null }), status: 'successful' };
    case 'PaymentMethodChargeFailed': {
      const { chargeId: _id, reason: _reason, ...failure } = event.data;
      return {
        ...withPaymentMethodCharge(state, { nextAction: 'none', settlesAt: null }),
        status: 'failed',
        captured: false,
        failure: { ...failure, blacklistRuleId: null },
      };
    }
    case 'CardChargeSettled': {
      const { failure, networkTransactionId, processorId } = event.data;
      return {
        ...state,
        status: failure ? 'failed' : 'successful',
        failure,
        networkTransactionId,
        ...(processorId ? { processorId } : {}),
        captured: failure ? false : state.captured,
      };
    }
    case 'ChargeCaptured':
      return { ...state, captured: true };
    case 'ChargeUpdated': {
      const { chargeId: _id, ...changes } = event.data;
      return { ...state, ...changes };
    }
    case 'RefundRequested':
      return {
        ...state,
        refunds: [
          ...state.refunds,
          {
            refundId: event.data.refundId,
            amount: event.data.amount,
            status: 'pending',
            metadata: event.data.metadata,
          },
        ],
      };
    case 'RefundSettled':
      return {
        ...state,
        refunds: state.refunds.map((refund) =>
          refund.refundId === event.data.refundId ? { ...refund, status: event.data.status } : refund,
        ),
      };
    case 'RefundUpdated':
      return {
        ...state,
        refunds: state.refunds.map((refund) =>
          refund.refundId === event.data.refundId ? { ...refund, metadata: event.data.metadata } : refund,
        ),
      };
    case 'CrossSaleChargeAdded':
      return { ...state, crossSaleCharges: [...(state.crossSaleCharges ?? []), event.data.crossSaleCharge] };
    default:
      return evolveDisputes(state, event);
  }
}

/**
 * What may still be refunded: the captured amount less successful and pending refunds, and less
 * what a chargeback took back. While a chargeback is open (`CHARGEBACK_NEW`, funds withdrawn) or
 * once it is lost (`CHARGEBACK_REPRESENTED_UNSUCCESSFULLY`, or accepted as lost), the disputed
 * amount is the cardholder's already: refunding it too would pay it out twice. A won dispute
 * gives it back; a retrieval request withdraws nothing.
 */
export function refundableAmount(state: ChargeState): number {
  if (state.status !== 'successful' || !state.captured) return 0;
  const reserved = state.refunds
    .filter((refund) => refund.status !== 'failed')
    .reduce((sum, refund) => sum + refund.amount, 0);
  return Math.max(0, state.amount - reserved - withdrawnByChargeback(state));
}

/** The amount an open or lost chargeback took from the merchant (0 without one). */
export function withdrawnByChargeback(state: ChargeState): number {
  if (state.status === 'none' || !state.dispute) return 0;
  const { status, amount, acceptedAsLost } = state.dispute;
  const withdrawn = status === 'CHARGEBACK_NEW' || status === 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY' || acceptedAsLost;
  return withdrawn ? amount : 0;
}

function withPaymentMethodCharge<State extends { paymentMethodCharge: PaymentMethodChargeState | null }>(
  state: State,
  changes: Partial<PaymentMethodChargeState>,
): State {
  return state.paymentMethodCharge
    ? { ...state, paymentMethodCharge: { ...state.paymentMethodCharge, ...changes } }
    : state;
}
