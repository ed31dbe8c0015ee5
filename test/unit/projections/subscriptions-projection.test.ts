import { expect } from 'chai';
import type { SubscriptionEvent } from '../../../packages/domain/subscription/subscription-events.ts';
import { subscriptionsCollection, subscriptionsProjection } from '../../../projections/subscriptions-projection.ts';
import { seconds, subscriptionCreated } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const subscription = inStream('subscription-sub_1');
const at = '2026-01-01T00:00:00Z';
const start = seconds(at);
const trialEnd = start + 14 * 86_400;
const periodEnd = trialEnd + 31 * 86_400;

describe('subscriptions projection', () => {
  const spec = projectionSpec(subscriptionsProjection);

  it('renders a trialing subscription as GET /subscriptions/{id} shows it', async () => {
    await spec().given(subscription(subscriptionCreated(start, trialEnd), at));
    const doc = (await spec().get(subscriptionsCollection, 'sub_1'))!;
    expect(withoutInternals(doc)).to.deep.equal({
      id: 'sub_1',
      created: start,
      objectType: 'subscription',
      planId: 'plan_1',
      customerId: 'cust_1',
      quantity: 1,
      captureCharges: true,
      status: 'trialing',
      remainingBillingCycles: null,
      start,
      currentPeriodStart: start,
      currentPeriodEnd: trialEnd,
      canceledAt: null,
      endedAt: null,
      trialStart: start,
      trialEnd,
      cancelAtPeriodEnd: false,
      merchantAccountId: null,
      metadata: {},
    });
    expect(doc).to.include({ _deleted: false, _testClockId: null });
  });

  it('lists the cross-sale charges of the checkout that created it', async () => {
    await spec().given(subscription(subscriptionCreated(start, trialEnd), at));
    const crossSaleCharge = { accountId: 'acct_owner', chargeId: 'char_owner1', offerId: 'cso_1' };
    await spec().given(
      subscription<SubscriptionEvent>({
        type: 'SubscriptionCrossSaleChargeAdded',
        data: { subscriptionId: 'sub_1', crossSaleCharge },
      }),
    );
    const doc = (await spec().get(subscriptionsCollection, 'sub_1'))!;
    expect(doc.crossSaleCharges).to.deep.equal([crossSaleCharge]);
    expect(doc.status).to.equal('trialing');
    await spec().expectRebuildIdentical();
  });

  it('follows the first period and its payment, a scheduled cancellation and the cancellation', async () => {
    await spec().given(subscription(subscriptionCreated(start, trialEnd), at));
    await spec().given(
      subscription<SubscriptionEvent>({
        type: 'SubscriptionPeriodStarted',
        data: {
          subscriptionId: 'sub_1',
          currentPeriodStart: trialEnd,
          currentPeriodEnd: periodEnd,
          cycle: { anchor: trialEnd, interval: 'month', intervalCount: 1, index: 0 },
          remainingBillingCycles: null,
        },
      }),
      subscription<SubscriptionEvent>({
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
      }),
      subscription<SubscriptionEvent>({
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
      }),
    );
    expect(await spec().get(subscriptionsCollection, 'sub_1')).to.include({
      status: 'active',
      currentPeriodStart: trialEnd,
      currentPeriodEnd: periodEnd,
    });
    await spec().given(
      subscription<SubscriptionEvent>({
        type: 'SubscriptionCancellationScheduled',
        data: { subscriptionId: 'sub_1', canceledAt: trialEnd + 10, endedAt: periodEnd },
      }),
    );
    expect(await spec().get(subscriptionsCollection, 'sub_1')).to.include({
      cancelAtPeriodEnd: true,
      status: 'active',
    });
    await spec().given(
      subscription<SubscriptionEvent>({
        type: 'SubscriptionCanceled',
        data: { subscriptionId: 'sub_1', canceledAt: trialEnd + 10, endedAt: periodEnd, reason: 'period_end' },
      }),
    );
    expect(await spec().get(subscriptionsCollection, 'sub_1')).to.include({
      status: 'canceled',
      canceledAt: trialEnd + 10,
      endedAt: periodEnd,
      deleted: true,
      _deleted: true,
    });
    await spec().expectRebuildIdentical();
  });
});
