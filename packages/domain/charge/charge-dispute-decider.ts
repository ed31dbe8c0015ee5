import { InvalidRequestError, NotFoundError } from '../errors.ts';
import type { ChargeEvent } from './charge-events.ts';
import { refundableAmount, type ChargeState } from './charge-state.ts';
import type { DisputeState } from './charge-disputes.ts';
import type { DisputeEvidence } from './dispute-events.ts';
import type { NetworkOutcomeKind } from './network-outcome-events.ts';

/** Commands about what happens to a charge after it was made (the charge decider delegates them here). */
export type ChargeDisputeCommand =
  /**
   * Delivers an announced network outcome. Ids are generated before deciding and used only when
   * the outcome is recorded now; a delivered, unannounced or moot outcome records nothing.
   */
  | {
      type: 'DeliverNetworkOutcome';
      chargeId: string;
      kind: NetworkOutcomeKind;
      disputeId: string;
      fraudWarningId: string;
    }
  /**
   * `decision`: what the network answered to the representment of a chargeback, and when it will
   * say so; null when nothing is announced: the answer to a retrieval request, which nobody
   * decides, or a live chargeback, whose processor reports its decision itself.
   */
  | {
      type: 'SubmitDisputeEvidence';
      chargeId: string;
      disputeId: string;
      evidence: DisputeEvidence;
      decision: { outcome: 'won' | 'lost'; dueAt: string } | null;
    }
  | { type: 'CloseDispute'; chargeId: string; disputeId: string };

type ExistingCharge = Exclude<ChargeState, { status: 'none' }>;

export function decideDisputes(command: ChargeDisputeCommand, state: ChargeState): ChargeEvent[] {
  switch (command.type) {
    case 'DeliverNetworkOutcome':
      if (state.status === 'none') throw new NotFoundError('Charge', command.chargeId);
      return deliverNetworkOutcome(state, command);
    case 'SubmitDisputeEvidence': {
      const dispute = assertEvidenceAccepted(state, command.disputeId);
      if (dispute.status === 'RETRIEVAL_REQUEST_NEW')
        return [
          {
            type: 'DisputeEvidenceSubmitted',
            data: {
              chargeId: command.chargeId,
              disputeId: command.disputeId,
              evidence: command.evidence,
              status: 'RETRIEVAL_REQUEST_REPRESENTED',
            },
          },
        ];
      const submitted: ChargeEvent = {
        type: 'DisputeEvidenceSubmitted',
        data: { chargeId: command.chargeId, disputeId: command.disputeId, evidence: command.evidence },
      };
      if (!command.decision) return [submitted];
      return [
        submitted,
        {
          type: 'NetworkOutcomesExpected',
          data: { chargeId: command.chargeId, outcomes: [{ kind: 'dispute_decision', ...command.decision }] },
        },
      ];
    }
    case 'CloseDispute': {
      const dispute = openDispute(state, command.disputeId);
      return [
        {
          type: 'DisputeLost',
          data: {
            chargeId: command.chargeId,
            disputeId: command.disputeId,
            status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY',
            acceptedAsLost: true,
            ...(dispute.status === 'RETRIEVAL_REQUEST_NEW' ? { fundsWithdrawn: true as const } : {}),
          },
        },
      ];
    }
  }
}

/**
 * Throws what a submission of evidence would be refused with: the dispute must be open and not yet
 * contested. Commands check this before asking the network, and the decider again under concurrency.
 */
export function assertEvidenceAccepted(state: ChargeState, disputeId: string): DisputeState {
  const dispute = openDispute(state, disputeId);
  if (dispute.evidence !== null)
    throw new InvalidRequestError(
      `Evidence for dispute '${disputeId}' has already been submitted; the dispute is under review`,
    );
  return dispute;
}

/** A dispute the merchant can still act on: a new chargeback or a retrieval request not yet answered. */
function openDispute(state: ChargeState, disputeId: string): DisputeState {
  const dispute = state.status === 'none' ? undefined : state.dispute;
  if (!dispute || dispute.disputeId !== disputeId) throw new NotFoundError('Dispute', disputeId);
  if (dispute.status === 'RETRIEVAL_REQUEST_REPRESENTED')
    throw new InvalidRequestError(`Retrieval request '${disputeId}' has already been answered`);
  if (dispute.status !== 'CHARGEBACK_NEW' && dispute.status !== 'RETRIEVAL_REQUEST_NEW')
    throw new InvalidRequestError(`Dispute '${disputeId}' has already been closed`);
  return dispute;
}

function deliverNetworkOutcome(
  charge: ExistingCharge,
  command: Extract<ChargeDisputeCommand, { type: 'DeliverNetworkOutcome' }>,
): ChargeEvent[] {
  const expected = charge.networkOutcomes?.find((outcome) => outcome.kind === command.kind);
  if (!expected || charge.status !== 'successful') return [];
  const chargeId = charge.chargeId;
  switch (expected.kind) {
    case 'dispute':
      if (charge.dispute) return [];
      return [
        {
          type: 'DisputeOpened',
          data: {
            chargeId,
            disputeId: command.disputeId,
            amount: charge.amount,
            currency: charge.currency,
            reason: expected.reason,
            status: expected.stage === 'retrieval_request' ? 'RETRIEVAL_REQUEST_NEW' : 'CHARGEBACK_NEW',
          },
        },
      ];
    case 'fraud_warning':
      if (charge.fraudWarningId) return [];
      return [
        {
          type: 'FraudWarningReceived',
          data: {
            chargeId,
            fraudWarningId: command.fraudWarningId,
            fraudDetails: expected.fraudDetails,
            actionable: refundableAmount(charge) > 0 && !charge.dispute,
          },
        },
      ];
    case 'dispute_decision': {
      const dispute = charge.dispute;
      // Closed meanwhile (accepted as lost): the decision is moot.
      if (!dispute || dispute.status !== 'CHARGEBACK_NEW') return [];
      return expected.outcome === 'won'
        ? [
            {
              type: 'DisputeWon',
              data: { chargeId, disputeId: dispute.disputeId, status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY' },
            },
          ]
        : [
            {
              type: 'DisputeLost',
              data: {
                chargeId,
                disputeId: dispute.disputeId,
                status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY',
                acceptedAsLost: false,
              },
            },
          ];
    }
    case 'authorization':
    case 'refund':
      // Settled by a lookup at the processor (`SettleCardCharge`, `SettleRefund`), not delivered.
      return [];
  }
}
