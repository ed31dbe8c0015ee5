import { NotFoundError } from '../errors.ts';
import type { ChargeEvent } from './charge-events.ts';
import type { ChargeState } from './charge-state.ts';
import type { DisputeReason } from './dispute-events.ts';

/**
 * What a live charge's processor reported on its own (`docs/payments.md`, "Refunds and disputes
 * made at the processor"): a refund of the charge, its dispute. Recorded once each: a report
 * delivered twice, or about a refund this service made, records nothing more.
 */
export type ProcessorReportCommand =
  /**
   * `reference`: the refund id this service gave a refund it made (from the processor's metadata);
   * `refundId`: the id a refund made at the processor gets here, derived from its processor id.
   */
  | {
      type: 'RecordProcessorRefund';
      chargeId: string;
      refundId: string;
      processorRefundId: string;
      reference: string | null;
      amount: number;
      currency: string;
      status: 'successful' | 'pending' | 'failed';
    }
  /** `disputeId`: derived from the processor's dispute id; used only when the dispute opens now. */
  | {
      type: 'RecordProcessorDispute';
      chargeId: string;
      disputeId: string;
      amount: number;
      currency: string;
      reason: DisputeReason;
      stage: 'chargeback' | 'retrieval_request' | 'won' | 'lost';
    };

export function decideProcessorReport(command: ProcessorReportCommand, state: ChargeState): ChargeEvent[] {
  if (state.status === 'none') throw new NotFoundError('Charge', command.chargeId);
  // Only a charge the processor took can be refunded or disputed there.
  if (state.status !== 'successful') return [];
  const { chargeId } = command;
  switch (command.type) {
    case 'RecordProcessorRefund': {
      const ours = command.reference === null ? undefined : state.refunds.find((r) => r.refundId === command.reference);
      if (ours) {
        // A refund this service asked for: its outcome settles it if it still waits for one.
        if (ours.status !== 'pending' || command.status === 'pending') return [];
        return [{ type: 'RefundSettled', data: { chargeId, refundId: ours.refundId, status: command.status } }];
      }
      // Made at the processor: recorded once it moved money, under its derived id.
      if (command.status !== 'successful' || state.refunds.some((r) => r.refundId === command.refundId)) return [];
      return [
        {
          type: 'RefundRequested',
          data: {
            chargeId,
            refundId: command.refundId,
            amount: command.amount,
            currency: command.currency,
            reason: null,
            metadata: {},
            processorRefundId: command.processorRefundId,
          },
        },
        { type: 'RefundSettled', data: { chargeId, refundId: command.refundId, status: 'successful' } },
      ];
    }
    case 'RecordProcessorDispute': {
      const events: ChargeEvent[] = [];
      let dispute = state.dispute;
      if (!dispute) {
        const status = command.stage === 'retrieval_request' ? 'RETRIEVAL_REQUEST_NEW' : 'CHARGEBACK_NEW';
        events.push({
          type: 'DisputeOpened',
          data: {
            chargeId,
            disputeId: command.disputeId,
            amount: command.amount,
            currency: command.currency,
            reason: command.reason,
            status,
          },
        });
        dispute = {
          disputeId: command.disputeId,
          amount: command.amount,
          currency: command.currency,
          reason: command.reason,
          status,
          acceptedAsLost: false,
          evidence: null,
        };
      }
      if (command.stage === 'chargeback' || command.stage === 'retrieval_request') return events;
      // Decided already (here or by an earlier report): nothing more.
      if (dispute.status !== 'CHARGEBACK_NEW' && dispute.status !== 'RETRIEVAL_REQUEST_NEW') return events;
      const { disputeId } = dispute;
      if (command.stage === 'won')
        return [
          ...events,
          { type: 'DisputeWon', data: { chargeId, disputeId, status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY' } },
        ];
      return [
        ...events,
        {
          type: 'DisputeLost',
          data: {
            chargeId,
            disputeId,
            status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY',
            acceptedAsLost: false,
            ...(dispute.status === 'RETRIEVAL_REQUEST_NEW' ? { fundsWithdrawn: true as const } : {}),
          },
        },
      ];
    }
  }
}
