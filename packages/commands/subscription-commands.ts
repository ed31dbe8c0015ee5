import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeResource, chargeStream, type Billing, type Shipping } from '../domain/charge/charge-events.ts';
import type { ChargeState } from '../domain/charge/charge-state.ts';
import { customerDecider } from '../domain/customer/customer-decider.ts';
import { customerStream, cardResource } from '../domain/customer/customer-events.ts';
import { GatewayError, InvalidRequestError } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import {
  subscriptionDecider,
  type PaymentOutcome,
  type PlanSnapshot,
  type SubscriptionCommand,
} from '../domain/subscription/subscription-decider.ts';
import { subscriptionResource, subscriptionStream } from '../domain/subscription/subscription-events.ts';
import { nextStep, sameStep, type DueStep } from '../domain/subscription/subscription-schedule.ts';
import type { ExistingSubscription } from '../domain/subscription/subscription-state.ts';
import { newId, isIdOf } from '../ids/object-id.ts';
import { accountSettings } from './account-settings.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { BackgroundWork } from './background-work.ts';
import type { CardIntake } from './card-intake.ts';
import type { CardReference } from './card-sources.ts';
import { faultPoint } from '../config/fault-injection.ts';
import type { ChargeCommands } from './charge-commands.ts';
import { createdObjectId, unixSeconds, type CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { CustomerClock } from './customer-clock.ts';
import type { CustomerCommands } from './customer-commands.ts';
import { PaymentDeclined } from './payment-declined.ts';
import type { ExistingPlan, PlanCommands } from './plan-commands.ts';
import { tokenResource } from '../domain/token/token-events.ts';

export interface CreateSubscriptionInput {
  customerId: string;
  /** A card to make the customer's default first: a saved card's id, a token or card details. */
  card?: CardReference;
  planId: string;
  quantity?: number;
  captureCharges?: boolean;
  /** A future timestamp (trial until then), or -1 for no trial even when the plan has trial days. */
  trialEnd?: number;
  /** Billing cycles to charge, instead of the plan's billingCycles. */
  remainingBillingCycles?: number;
  shipping?: Shipping;
  billing?: Billing;
  merchantAccountId?: string;
  metadata?: Metadata;
  /**
   * The token the customer's default card was saved from earlier in this same request (hosted
   * checkout saves it with the new customer). A token given as `card` counts so too.
   */
  cardSavedFromToken?: string;
}

export interface UpdateSubscriptionInput {
  planId?: string;
  quantity?: number;
  captureCharges?: boolean;
  /** While trialing: a new trial end, or -1 to end the trial (and charge) now. */
  trialEnd?: number;
  remainingBillingCycles?: number | null;
  shipping?: Shipping | null;
  billing?: Billing | null;
  merchantAccountId?: string | null;
  metadata?: Metadata;
}

export interface SubscriptionCommandsDeps {
  aggregates: AggregateStore;
  customers: CustomerCommands;
  intake: CardIntake;
  charges: ChargeCommands;
  plans: PlanCommands;
  clock: CustomerClock;
  background: BackgroundWork;
}

/** The first payment of a subscription created with a card just saved from a token. */
interface FirstPayment {
  chargeId: string;
  justSavedFromToken: string;
}

export interface StepOptions {
  /** Capture at once instead of handing the capture to a job (test clocks: `ready` means done). */
  captureInline?: boolean;
}

/**
 * Subscriptions and the work that falls due on them (spec: Subscription). A charge is always made
 * in three steps: the subscription records that it starts a charge under an id, the charge is made
 * (or found, when a previous run made it) under that id, and the outcome is recorded on the
 * subscription. A run that dies anywhere in between is finished by the next one, without a second
 * charge and without skipping the period.
 */
export class SubscriptionCommands {
  constructor(private readonly deps: SubscriptionCommandsDeps) {}

  /**
   * Creates a subscription; with `card`, that card becomes the customer's default first (a new one
   * is saved), so that the subscription charges it. Every refusal comes before the first write (a
   * refused request records nothing, and takes in no card). Safe to run again for the same
   * idempotent request cut short by a crash: each step finds what an earlier run recorded (the
   * card under its id derived from the request, the subscription, its first charge) and goes on
   * from there.
   */
  async create(input: CreateSubscriptionInput, context: CommandContext): Promise<CommandOutcome> {
    const { card, cardSavedFromToken, ...fields } = input;
    const subscriptionId = createdObjectId(subscriptionResource, context);
    const firstCharge = createdObjectId(chargeResource, context, 'first-charge');
    // The cardholder is present: the first payment, made now, carries the 3-D Secure verification
    // of the token the card was just saved from (checked against the charge's amount and card).
    const justSavedFromToken = typeof card === 'string' && isIdOf(tokenResource, card) ? card : cardSavedFromToken;
    const first: FirstPayment | undefined = justSavedFromToken
      ? { chargeId: firstCharge, justSavedFromToken }
      : undefined;
    const earlier = await this.deps.aggregates.createdEarlier(subscriptionStream(subscriptionId), context);
    if (earlier !== undefined) {
      // Every step before the subscription was done then; its first charge may not have been.
      const sub = await this.existing(subscriptionId, context);
      const clocked = await this.deps.clock.onClock(sub.testClockId, context);
      return {
        id: subscriptionId,
        position: latest(earlier, await this.settlePending(subscriptionId, clocked, {}, first)),
      };
    }
    // With a card, an unknown plan is named before anything about the customer or the card.
    if (card !== undefined) await this.requirePlan(fields.planId, context);
    const customer = await this.liveCustomer(fields.customerId, context);
    const clocked = await this.deps.clock.onClock(customer.testClockId, context);
    const plan = await this.requirePlan(fields.planId, clocked);
    // An earlier run of this request that saved the card had passed every check at its time: the
    // retry decides at that time too, so that it finishes what that run began (a trialEnd still
    // in the future then is not refused now) and answers as that run would have.
    const resumed =
      card === undefined ? null : await this.deps.customers.savedByEarlierRun(fields.customerId, card, clocked);
    const now = resumed?.savedAt ?? clocked.now();
    const trial = fields.trialEnd !== undefined ? fields.trialEnd !== -1 : Boolean(plan.trialPeriodDays);
    if (card !== undefined && typeof card !== 'string') this.deps.intake.check(card, now);
    if (!trial && !customer.defaultCardId && card === undefined)
      throw new InvalidRequestError(`Customer '${fields.customerId}' has no default card to charge`);
    const creation: SubscriptionCommand = {
      type: 'CreateSubscription',
      subscriptionId,
      customerId: fields.customerId,
      testClockId: customer.testClockId ?? null,
      plan: snapshot(plan),
      quantity: fields.quantity ?? 1,
      captureCharges: fields.captureCharges ?? true,
      ...(fields.remainingBillingCycles !== undefined ? { remainingBillingCycles: fields.remainingBillingCycles } : {}),
      ...(fields.trialEnd !== undefined ? { trialEnd: fields.trialEnd } : {}),
      shipping: fields.shipping ?? null,
      billing: fields.billing ?? null,
      merchantAccountId: fields.merchantAccountId ?? null,
      metadata: fields.metadata ?? {},
      chargeId: firstCharge,
      now: unixSeconds(now),
    };
    // The subscription's own refusals (e.g. a trialEnd in the past) before the card is saved.
    subscriptionDecider.decide(creation, subscriptionDecider.initialState());
    if (card !== undefined) {
      const cardId = typeof card === 'string' && isIdOf(cardResource, card) ? card : null;
      await this.deps.customers.update(fields.customerId, cardId ? { defaultCardId: cardId } : { card }, clocked);
    }
    const created = await this.execute(subscriptionId, creation, clocked);
    faultPoint('subscription.after-append', clocked);
    // Without a trial the first charge is made now: a decline leaves the subscription incomplete.
    const settled = await this.settlePending(subscriptionId, clocked, {}, first);
    return { id: subscriptionId, position: latest(created, settled) };
  }

  async update(
    subscriptionId: string,
    input: UpdateSubscriptionInput,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const current = await this.existing(subscriptionId, context);
    const clocked = await this.deps.clock.onClock(current.testClockId, context);
    const { planId, ...changes } = input;
    const plan =
      planId !== undefined && planId !== current.planId ? snapshot(await this.requirePlan(planId, clocked)) : undefined;
    const updated = await this.execute(
      subscriptionId,
      {
        type: 'UpdateSubscription',
        subscriptionId,
        changes,
        ...(plan ? { plan } : {}),
        chargeId: newId(chargeResource),
        now: unixSeconds(clocked.now()),
      },
      clocked,
    );
    // A plan change outside a trial charges the new plan now.
    let position = latest(updated, await this.settlePending(subscriptionId, clocked, {}));
    // trialEnd = -1 ended the trial now: its end (the first charge) is due at once.
    const step = nextStep(await this.existing(subscriptionId, clocked));
    if (step?.kind === 'trial_end' && step.at <= unixSeconds(clocked.now()))
      position = latest(position, await this.runStep(subscriptionId, step, clocked, {}));
    return { id: subscriptionId, position };
  }

  async cancel(subscriptionId: string, atPeriodEnd: boolean, context: CommandContext): Promise<CommandOutcome> {
    const current = await this.existing(subscriptionId, context);
    const clocked = await this.deps.clock.onClock(current.testClockId, context);
    const position = await this.execute(
      subscriptionId,
      { type: 'CancelSubscription', subscriptionId, atPeriodEnd, now: unixSeconds(clocked.now()) },
      clocked,
    );
    return { id: subscriptionId, position };
  }

  /**
   * A worker's job for `expected`: first finishes any charge a dead worker left half-done, then
   * runs `expected` if it is still what the subscription waits for and it has fallen due.
   */
  async runDueJob(subscriptionId: string, expected: DueStep, context: CommandContext): Promise<number | null> {
    const settled = await this.settlePending(subscriptionId, context, {});
    const { state } = await this.deps.aggregates.load(subscriptionDecider, subscriptionStream(subscriptionId), context);
    const step = nextStep(state);
    if (!step || !sameStep(step, expected)) return settled;
    // A job that runs a moment early must not complete (its id would then hold the step off): fail, to be retried.
    if (step.at > unixSeconds(context.now()))
      throw new Error(`Step ${step.kind} of ${subscriptionId} is not due before ${step.at}`);
    return latest(settled, await this.runStep(subscriptionId, step, context, {}));
  }

  /** Runs one due step with `context.now()` as its time; what it records is the same whoever runs it. */
  async runStep(
    subscriptionId: string,
    step: DueStep,
    context: CommandContext,
    options: StepOptions,
  ): Promise<number | null> {
    const sub = await this.existing(subscriptionId, context);
    const now = unixSeconds(context.now());
    switch (step.kind) {
      case 'payment':
        return this.settlePending(subscriptionId, context, options);
      case 'period_end_cancellation':
        return this.execute(
          subscriptionId,
          { type: 'EndPeriod', subscriptionId, periodEnd: step.periodStart },
          context,
        );
      case 'billing_cycles_end': {
        const plan = await this.deps.plans.find(sub.planId, context);
        const next = plan?.recursTo ? await this.deps.plans.find(plan.recursTo, context) : null;
        if (!next)
          return this.execute(
            subscriptionId,
            { type: 'EndPeriod', subscriptionId, periodEnd: step.periodStart },
            context,
          );
        if (await this.customerGone(sub, context)) return this.cancelForDeletedCustomer(subscriptionId, context);
        const recurred = await this.execute(
          subscriptionId,
          {
            type: 'RecurToPlan',
            subscriptionId,
            periodStart: step.periodStart,
            plan: snapshot(next),
            chargeId: newId(chargeResource),
            now,
          },
          context,
        );
        return latest(recurred, await this.settlePending(subscriptionId, context, options));
      }
      case 'trial_end':
      case 'renewal':
      case 'retry': {
        if (await this.customerGone(sub, context)) return this.cancelForDeletedCustomer(subscriptionId, context);
        const plan = snapshot(await this.currentPlan(sub, context));
        const chargeId = newId(chargeResource);
        const command: SubscriptionCommand =
          step.kind === 'retry'
            ? {
                type: 'RetryPayment',
                subscriptionId,
                periodStart: step.periodStart,
                attempt: step.attempt,
                plan,
                chargeId,
                now,
              }
            : { type: 'StartPeriod', subscriptionId, periodStart: step.periodStart, plan, chargeId, now };
        const started = await this.execute(subscriptionId, command, context);
        return latest(started, await this.settlePending(subscriptionId, context, options));
      }
    }
  }

  /** A capture job: captures an authorized subscription charge, on the subscription's clock. Captured already: nothing to do. */
  async captureCharge(subscriptionId: string, chargeId: string, context: CommandContext): Promise<number | null> {
    const sub = await this.existing(subscriptionId, context);
    return this.capture(chargeId, await this.deps.clock.onClock(sub.testClockId, context));
  }

  /**
   * Finishes the charge the subscription recorded as started, if any: finds it under its id or
   * makes it, records the outcome, and hands a capture on when the subscription captures charges.
   */
  private async settlePending(
    subscriptionId: string,
    context: CommandContext,
    options: StepOptions,
    first?: FirstPayment,
  ): Promise<number | null> {
    const sub = await this.existing(subscriptionId, context);
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
        ? await this.charge(sub, pending, context, first?.chargeId === pending.chargeId ? first : undefined)
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
    first: FirstPayment | undefined,
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
          ...(first ? { justSavedFromToken: first.justSavedFromToken } : {}),
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

  private async capture(chargeId: string, context: CommandContext): Promise<number | null> {
    try {
      return (await this.deps.charges.capture(chargeId, context)).position;
    } catch (error) {
      // Captured already (by an earlier run, or by hand): the work is done.
      if (error instanceof InvalidRequestError) return null;
      throw error;
    }
  }

  private async cancelForDeletedCustomer(subscriptionId: string, context: CommandContext): Promise<number | null> {
    return this.execute(
      subscriptionId,
      { type: 'CancelForDeletedCustomer', subscriptionId, now: unixSeconds(context.now()) },
      context,
    );
  }

  private async customerGone(sub: ExistingSubscription, context: CommandContext): Promise<boolean> {
    const { state } = await this.deps.aggregates.load(customerDecider, customerStream(sub.customerId), context);
    return state.status !== 'active';
  }

  private async liveCustomer(customerId: string, context: CommandContext) {
    const { state } = await this.deps.aggregates.load(customerDecider, customerStream(customerId), context);
    if (state.status === 'none')
      throw new InvalidRequestError(`Invalid parameter: customerId '${customerId}' does not exist`);
    if (state.status === 'deleted')
      throw new InvalidRequestError(`Invalid parameter: customer '${customerId}' has been deleted`);
    return state;
  }

  /** A plan for a new subscription or a plan change: it must exist and not be deleted. */
  private async requirePlan(planId: string, context: CommandContext): Promise<ExistingPlan> {
    const plan = await this.deps.plans.find(planId, context);
    if (!plan) throw new InvalidRequestError(`Invalid parameter: planId '${planId}' does not exist`);
    if (plan.status === 'deleted')
      throw new InvalidRequestError(`Invalid parameter: plan '${planId}' has been deleted`);
    return plan;
  }

  /** The subscription's plan as it stands now; a deleted plan still bills its subscriptions (spec). */
  private async currentPlan(sub: ExistingSubscription, context: CommandContext): Promise<ExistingPlan> {
    const plan = await this.deps.plans.find(sub.planId, context);
    if (!plan) throw new Error(`Plan ${sub.planId} of subscription ${sub.subscriptionId} is missing`);
    return plan;
  }

  private async existing(subscriptionId: string, context: CommandContext): Promise<ExistingSubscription> {
    const { state } = await this.deps.aggregates.loadExisting(
      subscriptionDecider,
      subscriptionStream(subscriptionId),
      context,
      {
        objectName: 'Subscription',
        objectId: subscriptionId,
      },
    );
    return state as ExistingSubscription;
  }

  private async execute(
    subscriptionId: string,
    command: SubscriptionCommand,
    context: CommandContext,
  ): Promise<number | null> {
    return (
      await this.deps.aggregates.execute(subscriptionDecider, subscriptionStream(subscriptionId), command, context)
    ).position;
  }
}

function snapshot(plan: ExistingPlan): PlanSnapshot {
  const { planId, amount, currency, interval, intervalCount, billingCycles, trialPeriodDays } = plan;
  return { planId, amount, currency, interval, intervalCount, billingCycles, trialPeriodDays };
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
function latest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
