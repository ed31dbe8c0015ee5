import type { Metadata } from '../metadata.ts';
import type { ChargeAttempt, ChargeEvent, ChargeFailure } from './charge-events.ts';
import { evolveAftermath, type ChargeAftermath } from './charge-aftermath.ts';

export interface RefundState {
  refundId: string;
  amount: number;
  status: 'pending' | 'successful' | 'failed';
  metadata: Metadata;
}

export type ChargeState =
  | { status: 'none' }
  | ({ status: 'successful' | 'failed'; failure: ChargeFailure | null; refunds: RefundState[] } & ChargeAttempt &
      ChargeAftermath);

export const initialChargeState = (): ChargeState => ({ status: 'none' });

export function evolveCharge(state: ChargeState, event: ChargeEvent): ChargeState {
  switch (event.type) {
    case 'ChargeSucceeded':
      return { status: 'successful', failure: null, refunds: [], ...event.data };
    case 'ChargeFailed': {
      const { failureCode, failureMessage, failureIssuerDeclineCode, blacklistRuleId, ...attempt } = event.data;
      return {
        status: 'failed',
        failure: { failureCode, failureMessage, failureIssuerDeclineCode, blacklistRuleId },
        refunds: [],
        ...attempt,
      };
    }
  }
  if (state.status === 'none') return state;
  switch (event.type) {
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
