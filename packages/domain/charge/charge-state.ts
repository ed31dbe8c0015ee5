import type { CardSnapshot } from '../card/card-snapshot.ts';
import type { Metadata } from '../metadata.ts';
import type { ChargeAttempt, ChargeEvent, ChargeFailure } from './charge-events.ts';
import { evolveAftermath, type ChargeAftermath } from './charge-aftermath.ts';
import type { PaymentMethodChargeEvent, PaymentMethodChargeState } from './payment-method-charge.ts';

/** Every event of a charge's stream: card charges, payment-method charges, refunds and aftermath. */
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
    } & ChargeRecord &
      ChargeAftermath);

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
    default:
      return evolveAftermath(state, event);
  }
}

/** What may still be refunded: the captured amount less successful and pending refunds. */
export function refundableAmount(state: ChargeState): number {
  if (state.status !== 'successful' || !state.captured) return 0;
  const reserved = state.refunds
    .filter((refund) => refund.status !== 'failed')
    .reduce((sum, refund) => sum + refund.amount, 0);
  return state.amount - reserved;
}

function withPaymentMethodCharge<State extends { paymentMethodCharge: PaymentMethodChargeState | null }>(
  state: State,
  changes: Partial<PaymentMethodChargeState>,
): State {
  return state.paymentMethodCharge
    ? { ...state, paymentMethodCharge: { ...state.paymentMethodCharge, ...changes } }
    : state;
}
