import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import { endPeriod, recurToPlan, retryPayment, settle, startPeriod } from './subscription-billing-decisions.ts';
import type { SubscriptionCommand } from './subscription-command.ts';
import type { SubscriptionEvent } from './subscription-events.ts';
import {
  addCrossSaleCharge,
  cancel,
  cancelForDeletedCustomer,
  create,
  update,
} from './subscription-lifecycle-decisions.ts';
import {
  evolveSubscription,
  initialSubscriptionState,
  type ExistingSubscription,
  type SubscriptionState,
} from './subscription-state.ts';

export type { PaymentOutcome, SubscriptionCommand } from './subscription-command.ts';
export type { PlanSnapshot } from './subscription-payment.ts';

/**
 * Subscriptions (spec: States and transitions › Subscription). Every command that the due work
 * runs (StartPeriod, RecurToPlan, RetryPayment, EndPeriod, SettlePayment) names the period (and
 * attempt, or charge) it is for, and records nothing when that work is already done: running it
 * twice never charges twice.
 */
export const subscriptionDecider: Decider<SubscriptionCommand, SubscriptionEvent, SubscriptionState> = {
  initialState: initialSubscriptionState,
  evolve: evolveSubscription,
  decide(command, state) {
    switch (command.type) {
      case 'CreateSubscription':
        return create(command, state);
      case 'UpdateSubscription':
        return update(command, requireLive(state, command.subscriptionId));
      case 'StartPeriod':
        return startPeriod(command, requireExisting(state, command.subscriptionId));
      case 'RecurToPlan':
        return recurToPlan(command, requireExisting(state, command.subscriptionId));
      case 'RetryPayment':
        return retryPayment(command, requireExisting(state, command.subscriptionId));
      case 'EndPeriod':
        return endPeriod(command, requireExisting(state, command.subscriptionId));
      case 'SettlePayment':
        return settle(command, requireExisting(state, command.subscriptionId));
      case 'CancelSubscription':
        return cancel(command, requireExisting(state, command.subscriptionId));
      case 'CancelForDeletedCustomer':
        return cancelForDeletedCustomer(command, requireExisting(state, command.subscriptionId));
      case 'AddCrossSaleCharge':
        return addCrossSaleCharge(command, requireExisting(state, command.subscriptionId));
    }
  },
};

function requireExisting(state: SubscriptionState, subscriptionId: string): ExistingSubscription {
  if (state.status === 'none') throw new NotFoundError('Subscription', subscriptionId);
  return state;
}

function requireLive(state: SubscriptionState, subscriptionId: string): ExistingSubscription {
  const sub = requireExisting(state, subscriptionId);
  if (sub.status === 'canceled') throw new InvalidRequestError(`Subscription '${subscriptionId}' has been canceled`);
  return sub;
}
