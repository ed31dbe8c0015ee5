import { chargeResource, type Billing, type Shipping } from '../domain/charge/charge-events.ts';
import { customerDecider } from '../domain/customer/customer-decider.ts';
import { customerStream, cardResource } from '../domain/customer/customer-events.ts';
import { InvalidRequestError } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import {
  subscriptionDecider,
  type PlanSnapshot,
  type SubscriptionCommand,
} from '../domain/subscription/subscription-decider.ts';
import { subscriptionResource, subscriptionStream } from '../domain/subscription/subscription-events.ts';
import { nextStep, sameStep, type DueStep } from '../domain/subscription/subscription-schedule.ts';
import type { ExistingSubscription } from '../domain/subscription/subscription-state.ts';
import { newId, isIdOf } from '../ids/object-id.ts';
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
import type { ExistingPlan, PlanCommands } from './plan-commands.ts';
import {
  latest,
  loadSubscription,
  recordOnSubscription,
  SubscriptionPayments,
  type StepOptions,
} from './subscription-payments.ts';
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

/**
 * Subscriptions and the work that falls due on them (spec: Subscription). Their charges are made
 * by `SubscriptionPayments`, so that a run that dies anywhere is finished by the next one, without
 * a second charge and without skipping the period.
 */
export class SubscriptionCommands {
  private readonly payments: SubscriptionPayments;

  constructor(private readonly deps: SubscriptionCommandsDeps) {
    this.payments = new SubscriptionPayments(deps);
  }

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
    const earlier = await this.deps.aggregates.createdEarlier(subscriptionStream(subscriptionId), context);
    if (earlier !== undefined) {
      // Every step before the subscription was done then; its first charge may not have been.
      const sub = await loadSubscription(this.deps.aggregates, subscriptionId, context);
      const clocked = await this.deps.clock.onClock(sub.testClockId, context);
      return {
        id: subscriptionId,
        position: latest(earlier, await this.payments.settle(subscriptionId, clocked, {})),
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
    const justSavedFromToken = typeof card === 'string' && isIdOf(tokenResource, card) ? card : cardSavedFromToken;
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
      // The cardholder is present: the first payment, made now, carries the 3-D Secure verification
      // of the token the card was just saved from (checked against the charge's amount and card).
      // Recorded with the payment, so that a worker finishing it after a crash makes it so too.
      ...(justSavedFromToken ? { justSavedFromToken } : {}),
      now: unixSeconds(now),
    };
    // The subscription's own refusals (e.g. a trialEnd in the past) before the card is saved.
    subscriptionDecider.decide(creation, subscriptionDecider.initialState());
    if (card !== undefined) {
      const cardId = typeof card === 'string' && isIdOf(cardResource, card) ? card : null;
      await this.deps.customers.update(fields.customerId, cardId ? { defaultCardId: cardId } : { card }, clocked);
    }
    const created = await recordOnSubscription(this.deps.aggregates, subscriptionId, creation, clocked);
    faultPoint('subscription.after-append', clocked);
    // Without a trial the first charge is made now: a decline leaves the subscription incomplete.
    const settled = await this.payments.settle(subscriptionId, clocked, {});
    return { id: subscriptionId, position: latest(created, settled) };
  }

  async update(
    subscriptionId: string,
    input: UpdateSubscriptionInput,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const current = await loadSubscription(this.deps.aggregates, subscriptionId, context);
    const clocked = await this.deps.clock.onClock(current.testClockId, context);
    const { planId, ...changes } = input;
    const plan =
      planId !== undefined && planId !== current.planId ? snapshot(await this.requirePlan(planId, clocked)) : undefined;
    const updated = await recordOnSubscription(
      this.deps.aggregates,
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
    let position = latest(updated, await this.payments.settle(subscriptionId, clocked, {}));
    // trialEnd = -1 ended the trial now: its end (the first charge) is due at once.
    const step = nextStep(await loadSubscription(this.deps.aggregates, subscriptionId, clocked));
    if (step?.kind === 'trial_end' && step.at <= unixSeconds(clocked.now()))
      position = latest(position, await this.runStep(subscriptionId, step, clocked, {}));
    return { id: subscriptionId, position };
  }

  async cancel(subscriptionId: string, atPeriodEnd: boolean, context: CommandContext): Promise<CommandOutcome> {
    const current = await loadSubscription(this.deps.aggregates, subscriptionId, context);
    const clocked = await this.deps.clock.onClock(current.testClockId, context);
    const position = await recordOnSubscription(
      this.deps.aggregates,
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
    const settled = await this.payments.settle(subscriptionId, context, {});
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
    const sub = await loadSubscription(this.deps.aggregates, subscriptionId, context);
    const now = unixSeconds(context.now());
    switch (step.kind) {
      case 'payment':
        return this.payments.settle(subscriptionId, context, options);
      case 'period_end_cancellation':
        return recordOnSubscription(
          this.deps.aggregates,
          subscriptionId,
          { type: 'EndPeriod', subscriptionId, periodEnd: step.periodStart },
          context,
        );
      case 'billing_cycles_end': {
        const plan = await this.deps.plans.find(sub.planId, context);
        const next = plan?.recursTo ? await this.deps.plans.find(plan.recursTo, context) : null;
        if (!next)
          return recordOnSubscription(
            this.deps.aggregates,
            subscriptionId,
            { type: 'EndPeriod', subscriptionId, periodEnd: step.periodStart },
            context,
          );
        if (await this.customerGone(sub, context))
          return this.payments.cancelForDeletedCustomer(subscriptionId, context);
        const recurred = await recordOnSubscription(
          this.deps.aggregates,
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
        return latest(recurred, await this.payments.settle(subscriptionId, context, options));
      }
      case 'trial_end':
      case 'renewal':
      case 'retry': {
        if (await this.customerGone(sub, context))
          return this.payments.cancelForDeletedCustomer(subscriptionId, context);
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
        const started = await recordOnSubscription(this.deps.aggregates, subscriptionId, command, context);
        return latest(started, await this.payments.settle(subscriptionId, context, options));
      }
    }
  }

  /** A capture job: captures an authorized subscription charge, on the subscription's clock. Captured already: nothing to do. */
  async captureCharge(subscriptionId: string, chargeId: string, context: CommandContext): Promise<number | null> {
    const sub = await loadSubscription(this.deps.aggregates, subscriptionId, context);
    return this.payments.capture(chargeId, await this.deps.clock.onClock(sub.testClockId, context));
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
}

function snapshot(plan: ExistingPlan): PlanSnapshot {
  const { planId, amount, currency, interval, intervalCount, billingCycles, trialPeriodDays } = plan;
  return { planId, amount, currency, interval, intervalCount, billingCycles, trialPeriodDays };
}
