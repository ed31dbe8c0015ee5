import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeStream } from '../domain/charge/charge-events.ts';
import type { ChargeState } from '../domain/charge/charge-state.ts';
import { customerDecider } from '../domain/customer/customer-decider.ts';
import { customerStream } from '../domain/customer/customer-events.ts';
import { GatewayError, InvalidRequestError } from '../domain/errors.ts';
import {
  subscriptionDecider,
  type PaymentOutcome,
  type SubscriptionCommand,
} from '../domain/subscription/subscription-decider.ts';
import { subscriptionStream } from '../domain/subscription/subscription-events.ts';
import type { ExistingSubscription } from '../domain/subscription/subscription-state.ts';
import { accountSettings } from './account-settings.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { BackgroundWork } from './background-work.ts';
import type { ChargeCommands } from './charge-commands.ts';
import { unixSeconds, type CommandContext } from './command-context.ts';
import { PaymentDeclined } from './payment-declined.ts';

export interface StepOptions {
  /** Capture at once instead of handing the capture to a job (test clocks: `ready` means done). */
  captureInline?: boolean;
}

/**
 * The payments of a subscription, each made in three steps: the subscription records that it
 * starts a charge under an id, the charge is made (or found, when a previous run made it) under
 * that id, and the outcome is recorded on the subscription, with the capture handed on.
 */
export class SubscriptionPayments {
  constructor(
    private readonly deps: {
      aggregates: AggregateStore;
      charges: ChargeCommands;
      background: BackgroundWork;
    },
  ) {}

  /**
   * Finishes the charge the subscription recorded as started, if any: finds it under its id or
   * makes it, records the outcome, and hands a capture on when the subscription captures charges.
   */
  async settle(subscriptionId: string, context: CommandContext, options: StepOptions): Promise<number | null> {
    const sub = await loadSubscription(this.deps.aggregates, subscriptionId, context);
    const pending = sub.pendingPayment;
    if (!pending) return null;
    let outcome: PaymentOutcome;
    const made = await this.chargeOutcome(pending.chargeId, context);
    if (made) {
      outcome = made;
    } else {
      const { state: customer } = await this.deps.aggregates.load(
        customerDecider,
        customerStream(sub.customerId),
        context,
      );
      if (customer.status !== 'active') return this.cancelForDeletedCustomer(subscriptionId, context);
      outcome = customer.defaultCardId
        ? await this.charge(sub, pending, context)
        : { succeeded: false, charged: false, failureCode: null, failureMessage: 'The customer has no default card' };
    }
    const failureStatus = outcome.succeeded
      ? 'canceled'
      : (await accountSettings(this.deps.aggregates, context.accountId)).subscriptionFailureStatus;
    const result = await this.deps.aggregates.execute(
      subscriptionDecider,
      subscriptionStream(subscriptionId),
      {
        type: 'SettlePayment',
        subscriptionId,
        chargeId: pending.chargeId,
        outcome,
        failureStatus,
        now: unixSeconds(context.now()),
      },
      context,
    );
    let position = result.position;
    // Only the run that recorded the success hands the capture on.
    if (outcome.succeeded && pending.capture && result.events.length > 0) {
      if (options.captureInline) {
        position = latest(position, await this.capture(pending.chargeId, context));
      } else {
        // Lost hand-overs are found again by the capture scheduler (the read model lists owed captures).
        await this.deps.background
          .capture({ accountId: context.accountId, mode: context.mode, subscriptionId, chargeId: pending.chargeId })
          .catch(() => undefined);
      }
    }
    return position;
  }

  /**
   * Makes the period's charge on the customer's current default card: captured in the same step
   * when the subscription captures charges (CHARGE_SUCCEEDED then says `captured: true`), else
   * only authorized, to be captured by hand.
   */
  private async charge(
    sub: ExistingSubscription,
    pending: NonNullable<ExistingSubscription['pendingPayment']>,
    context: CommandContext,
  ): Promise<PaymentOutcome> {
    try {
      await this.deps.charges.create(
        {
          chargeId: pending.chargeId,
          amount: pending.amount,
          currency: pending.currency,
          type: pending.chargeType,
          customerId: sub.customerId,
          captured: pending.capture,
          subscriptionId: sub.subscriptionId,
          ...(sub.shipping ? { shipping: sub.shipping } : {}),
          ...(sub.billing ? { billing: sub.billing } : {}),
          ...(sub.merchantAccountId ? { merchantAccountId: sub.merchantAccountId } : {}),
          ...(pending.justSavedFromToken ? { justSavedFromToken: pending.justSavedFromToken } : {}),
        },
        context,
      );
      // A live charge whose processor's answer is unknown: the period waits for its lookup.
      await this.chargeOutcome(pending.chargeId, context);
      return { succeeded: true, captured: pending.capture };
    } catch (error) {
      if (error instanceof ChargeStillPending) throw error;
      if (error instanceof PaymentDeclined) {
        return {
          succeeded: false,
          charged: true,
          failureCode: error.cardError.code,
          failureMessage: error.cardError.message,
        };
      }
      // Another run recorded this very charge meanwhile: its outcome is the outcome.
      const made = await this.chargeOutcome(pending.chargeId, context);
      if (made) return made;
      throw error;
    }
  }

  /**
   * The outcome of a charge already recorded under this id, or null. Throws while it is pending
   * (live mode, the processor's answer unknown): the step runs again once the lookup settled it.
   */
  private async chargeOutcome(chargeId: string, context: CommandContext): Promise<PaymentOutcome | null> {
    const { state } = await this.deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
    if (state.status === 'pending' && state.card !== null) throw new ChargeStillPending(chargeId);
    return state.status === 'none' ? null : outcomeOf(state);
  }

  async capture(chargeId: string, context: CommandContext): Promise<number | null> {
    try {
      return (await this.deps.charges.capture(chargeId, context)).position;
    } catch (error) {
      // Captured already (by an earlier run, or by hand): the work is done.
      if (error instanceof InvalidRequestError) return null;
      throw error;
    }
  }

  async cancelForDeletedCustomer(subscriptionId: string, context: CommandContext): Promise<number | null> {
    return recordOnSubscription(
      this.deps.aggregates,
      subscriptionId,
      { type: 'CancelForDeletedCustomer', subscriptionId, now: unixSeconds(context.now()) },
      context,
    );
  }
}

/** The subscription as recorded; 404 when there is none. */
export async function loadSubscription(
  aggregates: AggregateStore,
  subscriptionId: string,
  context: CommandContext,
): Promise<ExistingSubscription> {
  const { state } = await aggregates.loadExisting(subscriptionDecider, subscriptionStream(subscriptionId), context, {
    objectName: 'Subscription',
    objectId: subscriptionId,
  });
  return state as ExistingSubscription;
}

/** Records a subscription command; answers the log position of its events (null: nothing recorded). */
export async function recordOnSubscription(
  aggregates: AggregateStore,
  subscriptionId: string,
  command: SubscriptionCommand,
  context: CommandContext,
): Promise<number | null> {
  return (await aggregates.execute(subscriptionDecider, subscriptionStream(subscriptionId), command, context)).position;
}

/** The subscription's charge is pending at the processor: its outcome is not known yet. */
class ChargeStillPending extends GatewayError {
  constructor(chargeId: string) {
    super(`The charge ${chargeId} is pending at the processor; the subscription waits until it is settled.`);
    this.name = 'ChargeStillPending';
  }
}

function outcomeOf(charge: Exclude<ChargeState, { status: 'none' }>): PaymentOutcome {
  if (charge.status === 'successful') return { succeeded: true, captured: charge.captured };
  return {
    succeeded: false,
    charged: true,
    failureCode: charge.failure?.failureCode ?? null,
    failureMessage: charge.failure?.failureMessage ?? 'The charge failed',
  };
}

/** The later of two log positions (null: nothing recorded). */
export function latest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
