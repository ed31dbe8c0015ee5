import { InvalidRequestError, NotFoundError } from '../errors.ts';
import type { ChargeState, ChargeStreamEvent } from './charge-state.ts';
import { delayedConfirmationTypes } from '../payment-method/payment-method-events.ts';
import { providerFailures, type PaymentMethodChargeAttempt, type ProviderOutcome } from './payment-method-charge.ts';

/** Commands of a payment-method charge (the charge decider delegates them here). */
export type PaymentMethodChargeCommand =
  | { type: 'RecordPaymentMethodCharge'; attempt: PaymentMethodChargeAttempt }
  /**
   * The payer's choice at the provider (the redirect page). `settlesAt`: when a `processing`
   * payment will be confirmed.
   */
  | { type: 'ChooseProviderOutcome'; chargeId: string; outcome: ProviderOutcome; settlesAt: string }
  /** Due work: confirms a processed payment or expires an abandoned one; records nothing before its time. */
  | { type: 'SettlePaymentMethodCharge'; chargeId: string; now: string };

export function decidePaymentMethodCharge(
  command: PaymentMethodChargeCommand,
  state: ChargeState,
): ChargeStreamEvent[] {
  switch (command.type) {
    case 'RecordPaymentMethodCharge':
      if (state.status !== 'none') throw new InvalidRequestError(`Charge '${command.attempt.chargeId}' already exists`);
      return [{ type: 'ChargePending', data: command.attempt }];
    case 'ChooseProviderOutcome': {
      const pending = awaitingPayer(state, command.chargeId);
      const { chargeId } = command;
      switch (command.outcome) {
        case 'authorize':
          return [{ type: 'PaymentMethodChargeAuthorized', data: { chargeId } }];
        case 'decline':
          return [
            { type: 'PaymentMethodChargeFailed', data: { chargeId, reason: 'declined', ...providerFailures.declined } },
          ];
        case 'processing':
          if (!delayedConfirmationTypes.has(pending.paymentMethod.type))
            throw new InvalidRequestError(
              `A ${pending.paymentMethod.type} payment cannot be processing: it is confirmed at once`,
            );
          return [{ type: 'PaymentMethodChargeProcessing', data: { chargeId, settlesAt: command.settlesAt } }];
      }
      break;
    }
    case 'SettlePaymentMethodCharge': {
      if (state.status !== 'pending' || !state.paymentMethodCharge) return [];
      const { nextAction, settlesAt, expiresAt } = state.paymentMethodCharge;
      const now = Date.parse(command.now);
      const { chargeId } = command;
      if (nextAction === 'wait' && settlesAt !== null && Date.parse(settlesAt) <= now)
        return [{ type: 'PaymentMethodChargeAuthorized', data: { chargeId } }];
      if (nextAction === 'redirect' && Date.parse(expiresAt) <= now)
        return [
          { type: 'PaymentMethodChargeFailed', data: { chargeId, reason: 'expired', ...providerFailures.expired } },
        ];
      return [];
    }
  }
}

/** A payment-method charge on which the payer has not decided yet. */
function awaitingPayer(state: ChargeState, chargeId: string) {
  if (state.status === 'none' || !state.paymentMethodCharge) throw new NotFoundError('Charge', chargeId);
  if (state.status !== 'pending') throw new InvalidRequestError(`Charge '${chargeId}' is already ${state.status}`);
  if (state.paymentMethodCharge.nextAction !== 'redirect')
    throw new InvalidRequestError(`Charge '${chargeId}' is being processed by the provider`);
  return state.paymentMethodCharge;
}
