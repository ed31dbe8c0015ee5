import { expect } from 'chai';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import type { SubscriptionEvent } from '../../../packages/domain/subscription/subscription-events.ts';
import {
  PAYMENT_RESUME_AFTER_SECONDS,
  subscriptionCapturesCollection,
  subscriptionDueCollection,
  subscriptionDueWorkProjection,
} from '../../../projections/subscription-due-work-projection.ts';
import { seconds, subscriptionCreated } from './fixtures.ts';
import { inStream, projectionSpec } from './projection-spec.ts';

const subscription = inStream('subscription-sub_1');
const start = seconds('2026-01-01T00:00:00Z');
const trialEnd = start + 14 * 86_400;
const periodEnd = trialEnd + 31 * 86_400;

const periodStarted: SubscriptionEvent = {
  type: 'SubscriptionPeriodStarted',
  data: {
    subscriptionId: 'sub_1',
    currentPeriodStart: trialEnd,
    currentPeriodEnd: periodEnd,
    cycle: { anchor: trialEnd, interval: 'month', intervalCount: 1, index: 0 },
    remainingBillingCycles: null,
  },
};
const paymentStarted: SubscriptionEvent = {
  type: 'SubscriptionPaymentStarted',
  data: {
    subscriptionId: 'sub_1',
    periodStart: trialEnd,
    attempt: 0,
    chargeId: 'char_1',
    amount: 1000,
    currency: 'EUR',
    chargeType: 'first_recurring',
    capture: true,
    startedAt: trialEnd,
  },
};
const paymentSucceeded: SubscriptionEvent = {
  type: 'SubscriptionPaymentSucceeded',
  data: {
    subscriptionId: 'sub_1',
    periodStart: trialEnd,
    attempt: 0,
    chargeId: 'char_1',
    capture: true,
    status: 'active',
    previousStatus: 'trialing',
  },
};

describe('subscription schedule projection', () => {
  const spec = projectionSpec(subscriptionDueWorkProjection);

  it('schedules the trial end, then an unsettled charge, then the renewal', async () => {
    await spec().given(subscription(subscriptionCreated(start, trialEnd)));
    expect(await spec().get(subscriptionDueCollection, 'sub_1')).to.deep.include({
      created: trialEnd,
      _due: true,
      step: { kind: 'trial_end', at: trialEnd, periodStart: trialEnd },
    });
    await spec().given(subscription(periodStarted), subscription(paymentStarted));
    // A started charge is resumed by the scheduler only if no live worker settled it meanwhile.
    expect(await spec().get(subscriptionDueCollection, 'sub_1')).to.deep.include({
      created: trialEnd + PAYMENT_RESUME_AFTER_SECONDS,
      step: { kind: 'payment', at: trialEnd, chargeId: 'char_1' },
    });
    await spec().given(subscription(paymentSucceeded));
    expect(await spec().get(subscriptionDueCollection, 'sub_1')).to.deep.include({
      created: periodEnd,
      step: { kind: 'renewal', at: periodEnd, periodStart: periodEnd },
    });
    await spec().expectRebuildIdentical();
  });

  it('owes the capture of an authorized subscription charge until the charge is captured', async () => {
    await spec().given(
      subscription(subscriptionCreated(start, trialEnd)),
      subscription(periodStarted),
      subscription(paymentStarted),
      subscription(paymentSucceeded),
    );
    expect(await spec().get(subscriptionCapturesCollection, 'char_1')).to.include({ subscriptionId: 'sub_1' });
    await spec().given(
      inStream('charge-char_1')<ChargeEvent>({ type: 'ChargeCaptured', data: { chargeId: 'char_1', amount: 1000 } }),
    );
    expect(await spec().all(subscriptionCapturesCollection)).to.deep.equal([]);
  });

  it('has nothing due for a canceled subscription', async () => {
    await spec().given(subscription(subscriptionCreated(start, trialEnd)));
    await spec().given(
      subscription<SubscriptionEvent>({
        type: 'SubscriptionCanceled',
        data: { subscriptionId: 'sub_1', canceledAt: start + 60, endedAt: start + 60, reason: 'requested' },
      }),
    );
    expect(await spec().get(subscriptionDueCollection, 'sub_1')).to.include({ _due: false, step: null });
  });
});
