import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import { sameMetadata, type Metadata } from '../metadata.ts';
import type {
  ChargeAttempt,
  ChargeEvent,
  ChargeFailure,
  ChargeUpdated,
  CrossSaleChargeReference,
  FraudStatus,
} from './charge-events.ts';
import { decideAftermath, type ChargeAftermathCommand } from './charge-aftermath-decider.ts';
import type { NetworkOutcomeDue } from './network-outcome-events.ts';
import { decidePaymentMethodCharge, type PaymentMethodChargeCommand } from './payment-method-charge-decider.ts';
import { decideProcessorReport, type ProcessorReportCommand } from './processor-report-decider.ts';
import {
  evolveCharge,
  initialChargeState,
  refundableAmount,
  withdrawnByChargeback,
  type ChargeState,
  type ChargeStreamEvent,
} from './charge-state.ts';

export type ChargeCommand =
  /** `expectedOutcomes`: what the network announced for later about a successful charge. */
  | {
      type: 'RecordCharge';
      attempt: ChargeAttempt;
      failure: ChargeFailure | null;
      expectedOutcomes?: NetworkOutcomeDue[];
    }
  /** A live card charge whose processor's answer is unknown; looked up from `lookupDueAt` (ISO). */
  | { type: 'RecordPendingCharge'; attempt: ChargeAttempt; lookupDueAt: string }
  /** What the lookup at the processor found for a pending card charge. */
  | {
      type: 'SettleCardCharge';
      chargeId: string;
      networkTransactionId: string | null;
      processorId: string | null;
      failure: ChargeFailure | null;
    }
  | { type: 'CaptureCharge'; chargeId: string }
  | {
      type: 'UpdateCharge';
      chargeId: string;
      customerId?: string;
      description?: string | null;
      shipping?: ChargeUpdated['data']['shipping'];
      billing?: ChargeUpdated['data']['billing'];
      fraudStatus?: FraudStatus;
      metadata?: Metadata;
    }
  /**
   * `amount` undefined refunds everything still refundable. `lookupDueAt` (ISO; live mode): when the
   * refund's lookup at the processor falls due should its answer never be recorded.
   */
  | {
      type: 'RequestRefund';
      chargeId: string;
      refundId: string;
      amount?: number;
      reason: 'fraudulent' | null;
      metadata: Metadata;
      lookupDueAt?: string;
    }
  | { type: 'SettleRefund'; chargeId: string; refundId: string; status: 'successful' | 'failed' }
  | { type: 'UpdateRefund'; chargeId: string; refundId: string; metadata: Metadata }
  | { type: 'AddCrossSaleCharge'; chargeId: string; crossSaleCharge: CrossSaleChargeReference }
  | ChargeAftermathCommand
  | PaymentMethodChargeCommand
  | ProcessorReportCommand;

type ExistingCharge = Exclude<ChargeState, { status: 'none' }>;

export const chargeDecider: Decider<ChargeCommand, ChargeStreamEvent, ChargeState> = {
  initialState: initialChargeState,
  evolve: evolveCharge,
  decide(command, state) {
    switch (command.type) {
      case 'RecordCharge':
        if (state.status !== 'none')
          throw new InvalidRequestError(`Charge '${command.attempt.chargeId}' already exists`);
        return command.failure
          ? [{ type: 'ChargeFailed', data: { ...command.attempt, ...command.failure } }]
          : [
              { type: 'ChargeSucceeded', data: command.attempt },
              ...expectedOutcomes(command.attempt.chargeId, command.expectedOutcomes),
            ];
      case 'RecordPendingCharge':
        if (state.status !== 'none')
          throw new InvalidRequestError(`Charge '${command.attempt.chargeId}' already exists`);
        return [
          { type: 'CardChargePending', data: command.attempt },
          ...expectedOutcomes(command.attempt.chargeId, [{ kind: 'authorization', dueAt: command.lookupDueAt }]),
        ];
      case 'SettleCardCharge': {
        const charge = requireCharge(state, command.chargeId);
        // Settled already, or a payment-method charge (settled by its provider): nothing recorded.
        if (charge.status !== 'pending' || charge.card === null) return [];
        const { type: _type, ...data } = command;
        return [{ type: 'CardChargeSettled', data }];
      }
      case 'CaptureCharge': {
        const charge = requireCharge(state, command.chargeId);
        if (charge.status === 'failed')
          throw new InvalidRequestError(`Charge '${command.chargeId}' failed and cannot be captured`);
        if (charge.status === 'pending')
          throw new InvalidRequestError(`Charge '${command.chargeId}' is pending and cannot be captured yet`);
        if (charge.captured) throw new InvalidRequestError(`Charge '${command.chargeId}' has already been captured`);
        return [{ type: 'ChargeCaptured', data: { chargeId: command.chargeId, amount: charge.amount } }];
      }
      case 'UpdateCharge': {
        const charge = requireCharge(state, command.chargeId);
        const changes: ChargeUpdated['data'] = { chargeId: command.chargeId };
        if (command.customerId !== undefined && command.customerId !== charge.customerId) {
          if (charge.customerId !== null)
            throw new InvalidRequestError(`Charge '${command.chargeId}' is already assigned to a customer`);
          changes.customerId = command.customerId;
        }
        if (command.description !== undefined && command.description !== charge.description)
          changes.description = command.description;
        if (command.shipping !== undefined && JSON.stringify(command.shipping) !== JSON.stringify(charge.shipping))
          changes.shipping = command.shipping;
        if (command.billing !== undefined && JSON.stringify(command.billing) !== JSON.stringify(charge.billing)) {
          if (charge.paymentMethodCharge)
            throw new InvalidRequestError('Invalid parameter: billing cannot be used with paymentMethod');
          changes.billing = command.billing;
        }
        if (command.fraudStatus !== undefined && command.fraudStatus !== charge.fraudDetails.status) {
          changes.fraudDetails = { ...charge.fraudDetails, status: command.fraudStatus };
        }
        if (command.metadata !== undefined && !sameMetadata(command.metadata, charge.metadata))
          changes.metadata = command.metadata;
        return Object.keys(changes).length > 1 ? [{ type: 'ChargeUpdated', data: changes }] : [];
      }
      case 'RequestRefund': {
        const charge = requireCharge(state, command.chargeId);
        if (charge.status === 'failed')
          throw new InvalidRequestError(`Charge '${command.chargeId}' failed and cannot be refunded`);
        if (charge.status === 'pending')
          throw new InvalidRequestError(`Charge '${command.chargeId}' is pending and cannot be refunded yet`);
        if (!charge.captured)
          throw new InvalidRequestError(`Charge '${command.chargeId}' has not been captured and cannot be refunded`);
        const refundable = refundableAmount(charge);
        if (refundable === 0 && withdrawnByChargeback(charge) > 0) {
          throw new InvalidRequestError(
            `Charge '${command.chargeId}' cannot be refunded: its dispute is open or lost, and the disputed amount has been withdrawn by the chargeback`,
          );
        }
        if (refundable === 0)
          throw new InvalidRequestError(`Charge '${command.chargeId}' has already been fully refunded`);
        const amount = command.amount ?? refundable;
        if (amount > refundable) {
          throw new InvalidRequestError(
            `Invalid parameter: amount must not exceed the amount left to refund (${refundable})`,
          );
        }
        return [
          {
            type: 'RefundRequested',
            data: {
              chargeId: command.chargeId,
              refundId: command.refundId,
              amount,
              currency: charge.currency,
              reason: command.reason,
              metadata: command.metadata,
            },
          },
          ...(command.lookupDueAt
            ? expectedOutcomes(command.chargeId, [
                { kind: 'refund', dueAt: command.lookupDueAt, refundId: command.refundId },
              ])
            : []),
        ];
      }
      case 'SettleRefund': {
        const refund = requireRefund(requireCharge(state, command.chargeId), command.refundId);
        if (refund.status !== 'pending') return [];
        return [
          {
            type: 'RefundSettled',
            data: { chargeId: command.chargeId, refundId: command.refundId, status: command.status },
          },
        ];
      }
      case 'UpdateRefund': {
        const refund = requireRefund(requireCharge(state, command.chargeId), command.refundId);
        if (sameMetadata(refund.metadata, command.metadata)) return [];
        return [
          {
            type: 'RefundUpdated',
            data: { chargeId: command.chargeId, refundId: command.refundId, metadata: command.metadata },
          },
        ];
      }
      case 'AddCrossSaleCharge': {
        const charge = requireCharge(state, command.chargeId);
        if (charge.status !== 'successful')
          throw new InvalidRequestError(`Charge '${command.chargeId}' did not succeed: nothing can be sold after it`);
        // Listed already (the same purchase again): nothing recorded.
        if (charge.crossSaleCharges?.some((listed) => listed.chargeId === command.crossSaleCharge.chargeId)) return [];
        return [
          {
            type: 'CrossSaleChargeAdded',
            data: { chargeId: command.chargeId, crossSaleCharge: command.crossSaleCharge },
          },
        ];
      }
      case 'DeliverNetworkOutcome':
      case 'SubmitDisputeEvidence':
      case 'CloseDispute':
        return decideAftermath(command, state);
      case 'RecordPaymentMethodCharge':
      case 'ChooseProviderOutcome':
      case 'SettlePaymentMethodCharge':
        return decidePaymentMethodCharge(command, state);
      case 'RecordProcessorRefund':
      case 'RecordProcessorDispute':
        return decideProcessorReport(command, state);
    }
  },
};

/** Recorded with the charge itself, so that no announced outcome can be lost between two appends. */
function expectedOutcomes(chargeId: string, outcomes: NetworkOutcomeDue[] = []): ChargeEvent[] {
  return outcomes.length > 0 ? [{ type: 'NetworkOutcomesExpected', data: { chargeId, outcomes } }] : [];
}

function requireCharge(state: ChargeState, chargeId: string): ExistingCharge {
  if (state.status === 'none') throw new NotFoundError('Charge', chargeId);
  return state;
}

function requireRefund(charge: ExistingCharge, refundId: string) {
  const refund = charge.refunds.find((candidate) => candidate.refundId === refundId);
  if (!refund) throw new NotFoundError('Refund', refundId);
  return refund;
}
