import { expect } from 'chai';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import {
  subscriptionDecider,
  type PlanSnapshot,
  type SubscriptionCommand,
} from '../../../packages/domain/subscription/subscription-decider.ts';
import type { SubscriptionEvent } from '../../../packages/domain/subscription/subscription-events.ts';
import { nextStep } from '../../../packages/domain/subscription/subscription-schedule.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(subscriptionDecider);
const DAY = 86_400;
const T0 = Date.parse('2026-01-15T00:00:00Z') / 1000;
const FEB15 = Date.parse('2026-02-15T00:00:00Z') / 1000;
const MAR15 = Date.parse('2026-03-15T00:00:00Z') / 1000;
const plan: PlanSnapshot = {
  planId: 'plan_1',
  amount: 1000,
  currency: 'EUR',
  interval: 'month',
  intervalCount: 1,
  billingCycles: null,
  trialPeriodDays: null,
};

const create = (
  overrides: Partial<Extract<SubscriptionCommand, { type: 'CreateSubscription' }>> = {},
): SubscriptionCommand => ({
  type: 'CreateSubscription',
  subscriptionId: 'sub_1',
  customerId: 'cust_1',
  testClockId: null,
  plan,
  quantity: 2,
  captureCharges: true,
  shipping: null,
  billing: null,
  merchantAccountId: null,
  metadata: {},
  chargeId: 'char_1',
  now: T0,
  ...overrides,
});

/** The events of deciding `commands` one after the other, from nothing. */
function history(...commands: SubscriptionCommand[]): SubscriptionEvent[] {
  const events: SubscriptionEvent[] = [];
  for (const command of commands)
    events.push(
      ...subscriptionDecider.decide(
        command,
        events.reduce(subscriptionDecider.evolve, subscriptionDecider.initialState()),
      ),
    );
  return events;
}
const stateOf = (events: SubscriptionEvent[]) =>
  events.reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
const succeeded = (chargeId: string, now: number): SubscriptionCommand => ({
  type: 'SettlePayment',
  subscriptionId: 'sub_1',
  chargeId,
  outcome: { succeeded: true },
  failureStatus: 'canceled',
  now,
});
const declined = (
  chargeId: string,
  now: number,
  failureStatus: 'canceled' | 'unpaid' = 'canceled',
): SubscriptionCommand => ({
  type: 'SettlePayment',
  subscriptionId: 'sub_1',
  chargeId,
  outcome: { succeeded: false, charged: true, failureCode: 'card_declined', failureMessage: 'declined' },
  failureStatus,
  now,
});
const renew = (periodStart: number, chargeId: string): SubscriptionCommand => ({
  type: 'StartPeriod',
  subscriptionId: 'sub_1',
  periodStart,
  plan,
  chargeId,
  now: periodStart,
});

describe('subscription decider', () => {
  it('without a trial, starts incomplete with its first charge recorded as started (plan amount × quantity)', () => {
    const events = history(create());
    expect(events.map((event) => event.type)).to.deep.equal(['SubscriptionCreated', 'SubscriptionPaymentStarted']);
    expect(events[0]!.data).to.include({
      status: 'incomplete',
      start: T0,
      currentPeriodStart: T0,
      currentPeriodEnd: FEB15,
    });
    expect(events[1]!.data).to.include({
      periodStart: T0,
      attempt: 0,
      chargeId: 'char_1',
      amount: 2000,
      currency: 'EUR',
      chargeType: 'first_recurring',
    });
  });

  it('created with a card just saved from a token, records the token on its first payment only, for whoever makes it', () => {
    const events = history(create({ justSavedFromToken: 'tok_1' }), succeeded('char_1', T0), renew(FEB15, 'char_2'));
    const started = events.filter((event) => event.type === 'SubscriptionPaymentStarted');
    expect(started.map((event) => event.data.chargeId)).to.deep.equal(['char_1', 'char_2']);
    expect(started[0]!.data).to.include({ chargeId: 'char_1', justSavedFromToken: 'tok_1' });
    expect(started[1]!.data).not.to.have.property('justSavedFromToken');
    expect(history(create()).at(-1)!.data).not.to.have.property('justSavedFromToken');
    // The pending payment a worker finishes after a crash carries it.
    const beforeCharging = stateOf(history(create({ justSavedFromToken: 'tok_1' })));
    expect(beforeCharging.status !== 'none' && beforeCharging.pendingPayment).to.include({
      chargeId: 'char_1',
      justSavedFromToken: 'tok_1',
    });
  });

  it('with the plan’s trial days, starts trialing with the trial as its period and no charge', () => {
    const events = history(create({ plan: { ...plan, trialPeriodDays: 14 } }));
    expect(events).to.have.length(1);
    expect(events[0]!.data).to.include({
      status: 'trialing',
      trialStart: T0,
      trialEnd: T0 + 14 * DAY,
      currentPeriodEnd: T0 + 14 * DAY,
    });
    expect(nextStep(stateOf(events))).to.deep.equal({
      kind: 'trial_end',
      at: T0 + 14 * DAY,
      periodStart: T0 + 14 * DAY,
    });
  });

  it('refuses a trial end in the past', () => {
    spec([])
      .when(create({ trialEnd: T0 - 1 }))
      .thenThrows(InvalidRequestError, /trialEnd/);
  });

  it('renews a period once: the same renewal again records nothing', () => {
    const given = history(create(), succeeded('char_1', T0), renew(FEB15, 'char_2'));
    expect(given.slice(-2).map((event) => event.type)).to.deep.equal([
      'SubscriptionPeriodStarted',
      'SubscriptionPaymentStarted',
    ]);
    expect(given[given.length - 1]!.data).to.include({ chargeType: 'subsequent_recurring', chargeId: 'char_2' });
    spec(given).when(renew(FEB15, 'char_3')).then([]);
    // Settling a charge that is not the pending one records nothing either.
    spec(given).when(succeeded('char_3', FEB15)).then([]);
  });

  it('retries a failed renewal 1, 3 and 5 days after it was due, then cancels (account default)', () => {
    const events = history(create(), succeeded('char_1', T0), renew(FEB15, 'char_2'), declined('char_2', FEB15));
    expect(stateOf(events)).to.include({ status: 'past_due', nextRetryAt: FEB15 + DAY });
    const retryDays = [1, 3, 5];
    for (const [index, days] of retryDays.entries()) {
      const step = nextStep(stateOf(events));
      expect(step).to.deep.equal({ kind: 'retry', at: FEB15 + days * DAY, periodStart: FEB15, attempt: index + 1 });
      const retry: SubscriptionCommand = {
        type: 'RetryPayment',
        subscriptionId: 'sub_1',
        periodStart: FEB15,
        attempt: index + 1,
        plan,
        chargeId: `char_r${index}`,
        now: FEB15 + days * DAY,
      };
      events.push(...subscriptionDecider.decide(retry, stateOf(events)));
      events.push(...subscriptionDecider.decide(declined(`char_r${index}`, FEB15 + days * DAY), stateOf(events)));
    }
    const final = stateOf(events);
    expect(final).to.include({ status: 'canceled', canceledAt: FEB15 + 5 * DAY, endedAt: FEB15 + 5 * DAY });
    expect(nextStep(final)).to.equal(null);
  });

  it('becomes unpaid instead when the account says so', () => {
    const given = history(create(), succeeded('char_1', T0), renew(FEB15, 'char_2'), declined('char_2', FEB15));
    const state = stateOf(given);
    const lastRetry = { ...state, failedAttempts: 3 } as typeof state;
    const retry: SubscriptionCommand = {
      type: 'RetryPayment',
      subscriptionId: 'sub_1',
      periodStart: FEB15,
      attempt: 3,
      plan,
      chargeId: 'char_9',
      now: FEB15 + 5 * DAY,
    };
    const started = subscriptionDecider.decide(retry, lastRetry);
    const afterStart = started.reduce(subscriptionDecider.evolve, lastRetry);
    const settled = subscriptionDecider.decide(declined('char_9', FEB15 + 5 * DAY, 'unpaid'), afterStart);
    expect(settled.map((event) => event.type)).to.deep.equal(['SubscriptionPaymentFailed']);
    expect(settled[0]!.data).to.include({ status: 'unpaid', nextRetryAt: null });
  });

  it('recovers from past_due with a successful retry; the period stays where it was', () => {
    const given = history(create(), succeeded('char_1', T0), renew(FEB15, 'char_2'), declined('char_2', FEB15), {
      type: 'RetryPayment',
      subscriptionId: 'sub_1',
      periodStart: FEB15,
      attempt: 1,
      plan,
      chargeId: 'char_3',
      now: FEB15 + DAY,
    });
    spec(given)
      .when(succeeded('char_3', FEB15 + DAY))
      .then([
        {
          type: 'SubscriptionPaymentSucceeded',
          data: {
            subscriptionId: 'sub_1',
            periodStart: FEB15,
            attempt: 1,
            chargeId: 'char_3',
            capture: true,
            status: 'active',
            previousStatus: 'past_due',
          },
        },
      ]);
    const recovered = stateOf([
      ...given,
      ...subscriptionDecider.decide(succeeded('char_3', FEB15 + DAY), stateOf(given)),
    ]);
    expect(nextStep(recovered)).to.deep.equal({ kind: 'renewal', at: MAR15, periodStart: MAR15 });
  });

  it('an incomplete subscription is never charged again', () => {
    const events = history(create(), declined('char_1', T0));
    expect(stateOf(events)).to.include({ status: 'incomplete' });
    expect(nextStep(stateOf(events))).to.equal(null);
  });

  it('cancels at once, or at the period end', () => {
    const active = history(create(), succeeded('char_1', T0));
    spec(active)
      .when({ type: 'CancelSubscription', subscriptionId: 'sub_1', atPeriodEnd: false, now: T0 + DAY })
      .then([
        {
          type: 'SubscriptionCanceled',
          data: { subscriptionId: 'sub_1', canceledAt: T0 + DAY, endedAt: T0 + DAY, reason: 'requested' },
        },
      ]);
    const scheduled = history(create(), succeeded('char_1', T0), {
      type: 'CancelSubscription',
      subscriptionId: 'sub_1',
      atPeriodEnd: true,
      now: T0 + DAY,
    });
    expect(stateOf(scheduled)).to.include({
      status: 'active',
      cancelAtPeriodEnd: true,
      canceledAt: T0 + DAY,
      endedAt: FEB15,
    });
    expect(nextStep(stateOf(scheduled))).to.deep.equal({
      kind: 'period_end_cancellation',
      at: FEB15,
      periodStart: FEB15,
    });
    // No renewal starts at that boundary; the period end cancels.
    spec(scheduled).when(renew(FEB15, 'char_2')).then([]);
    spec(scheduled)
      .when({ type: 'EndPeriod', subscriptionId: 'sub_1', periodEnd: FEB15 })
      .then([
        {
          type: 'SubscriptionCanceled',
          data: { subscriptionId: 'sub_1', canceledAt: T0 + DAY, endedAt: FEB15, reason: 'period_end' },
        },
      ]);
    const canceled = history(create(), succeeded('char_1', T0), {
      type: 'CancelSubscription',
      subscriptionId: 'sub_1',
      atPeriodEnd: false,
      now: T0,
    });
    spec(canceled)
      .when({ type: 'CancelSubscription', subscriptionId: 'sub_1', atPeriodEnd: false, now: T0 })
      .thenThrows(InvalidRequestError, /canceled/);
  });

  it('ends after its billing cycles, or recurs to the next plan with a new start', () => {
    const limited = history(create({ plan: { ...plan, billingCycles: 1 } }), succeeded('char_1', T0));
    expect(stateOf(limited)).to.include({ remainingBillingCycles: 0 });
    expect(nextStep(stateOf(limited))).to.deep.equal({ kind: 'billing_cycles_end', at: FEB15, periodStart: FEB15 });
    spec(limited)
      .when({ type: 'EndPeriod', subscriptionId: 'sub_1', periodEnd: FEB15 })
      .then([
        {
          type: 'SubscriptionCanceled',
          data: { subscriptionId: 'sub_1', canceledAt: FEB15, endedAt: FEB15, reason: 'billing_cycles_ended' },
        },
      ]);
    const next: PlanSnapshot = { ...plan, planId: 'plan_2', amount: 500, billingCycles: 3 };
    const recurred = subscriptionDecider.decide(
      { type: 'RecurToPlan', subscriptionId: 'sub_1', periodStart: FEB15, plan: next, chargeId: 'char_2', now: FEB15 },
      stateOf(limited),
    );
    expect(recurred[0]!.data).to.include({
      planId: 'plan_2',
      start: FEB15,
      currentPeriodStart: FEB15,
      currentPeriodEnd: MAR15,
      remainingBillingCycles: 2,
      reason: 'recursion',
    });
    expect(recurred[1]!.data).to.include({ amount: 1000, periodStart: FEB15 });
  });

  it('a plan change restarts start and charges the new plan now; during a trial it waits for the trial end', () => {
    const active = history(create(), succeeded('char_1', T0));
    const next: PlanSnapshot = { ...plan, planId: 'plan_2', amount: 700 };
    const changed = subscriptionDecider.decide(
      {
        type: 'UpdateSubscription',
        subscriptionId: 'sub_1',
        changes: {},
        plan: next,
        chargeId: 'char_2',
        now: T0 + 10 * DAY,
      },
      stateOf(active),
    );
    expect(changed.map((event) => event.type)).to.deep.equal(['SubscriptionPlanChanged', 'SubscriptionPaymentStarted']);
    expect(changed[0]!.data).to.include({ planId: 'plan_2', start: T0 + 10 * DAY, currentPeriodStart: T0 + 10 * DAY });
    expect(changed[1]!.data).to.include({ amount: 1400, chargeType: 'subsequent_recurring' });

    const trialing = history(create({ plan: { ...plan, trialPeriodDays: 7 } }));
    const duringTrial = subscriptionDecider.decide(
      {
        type: 'UpdateSubscription',
        subscriptionId: 'sub_1',
        changes: {},
        plan: next,
        chargeId: 'char_2',
        now: T0 + DAY,
      },
      stateOf(trialing),
    );
    expect(duringTrial.map((event) => event.type)).to.deep.equal(['SubscriptionPlanChanged']);
    expect(duringTrial[0]!.data).to.include({ start: T0 + DAY, currentPeriodEnd: T0 + 7 * DAY });
  });

  it('trialEnd -1 ends the trial now; trialEnd cannot change outside a trial', () => {
    const trialing = history(create({ plan: { ...plan, trialPeriodDays: 7 } }));
    spec(trialing)
      .when({
        type: 'UpdateSubscription',
        subscriptionId: 'sub_1',
        changes: { trialEnd: -1 },
        chargeId: 'char_2',
        now: T0 + DAY,
      })
      .then([{ type: 'SubscriptionUpdated', data: { subscriptionId: 'sub_1', trialEnd: T0 + DAY } }]);
    const active = history(create(), succeeded('char_1', T0));
    spec(active)
      .when({
        type: 'UpdateSubscription',
        subscriptionId: 'sub_1',
        changes: { trialEnd: -1 },
        chargeId: 'char_2',
        now: T0,
      })
      .thenThrows(InvalidRequestError, /trialing/);
  });

  it('cancels at once when its customer is deleted; nothing happens the second time', () => {
    const active = history(create(), succeeded('char_1', T0));
    const cancel: SubscriptionCommand = { type: 'CancelForDeletedCustomer', subscriptionId: 'sub_1', now: T0 + DAY };
    const canceledEvent: SubscriptionEvent = {
      type: 'SubscriptionCanceled',
      data: { subscriptionId: 'sub_1', canceledAt: T0 + DAY, endedAt: T0 + DAY, reason: 'customer_deleted' },
    };
    spec(active).when(cancel).then([canceledEvent]);
    spec([...active, canceledEvent])
      .when(cancel)
      .then([]);
    spec([]).when(cancel).thenThrows(NotFoundError);
  });
});

describe('subscription decider: AddCrossSaleCharge', () => {
  const crossSaleCharge = { accountId: 'acct_owner', chargeId: 'char_owner1', offerId: 'cso_1' };
  const add: SubscriptionCommand = { type: 'AddCrossSaleCharge', subscriptionId: 'sub_1', crossSaleCharge };
  const added: SubscriptionEvent = {
    type: 'SubscriptionCrossSaleChargeAdded',
    data: { subscriptionId: 'sub_1', crossSaleCharge },
  };

  it('lists a cross-sale charge of the checkout that created the subscription, once', () => {
    const trialing = history(create({ trialEnd: T0 + 7 * DAY }));
    spec(trialing).when(add).then([added]);
    spec([...trialing, added])
      .when(add)
      .then([]);
    spec([]).when(add).thenThrows(NotFoundError);
  });
});
