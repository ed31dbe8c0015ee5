import { expect } from 'chai';
import { cardDetails, createOtherAccount, eventsOf, type Page } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';
import {
  advance,
  ALWAYS_DECLINES,
  at,
  chargesOf,
  createClock,
  createPlan,
  customerOnClock,
  DAY,
  getSubscription,
  monthsAfter,
  subscribe,
  type Subscription,
} from '../support/subscriptions.ts';

/** Each row of the spec's subscription state table, and each transition docs/subscriptions.md adds, driven by test clocks. */
describe('subscription states (test clocks)', function () {
  this.timeout(60_000);
  const { api, service } = useService();
  const T0 = at('2026-03-01T08:00:00Z');

  const statusesIn = async (subscriptionId: string) =>
    (await eventsOf<Subscription>(api, subscriptionId)).reverse().map((event) => `${event.type}:${event.data.status}`);

  it('a plan with trial days starts trialing; the trial end makes the first charge and it becomes active', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { amount: 900, trialPeriodDays: 14 });

    const trialing = await subscribe(api, customer.id, { planId: plan.id });
    expect(trialing).to.include({
      status: 'trialing',
      trialStart: T0,
      trialEnd: T0 + 14 * DAY,
      currentPeriodStart: T0,
      currentPeriodEnd: T0 + 14 * DAY,
    });
    expect(await chargesOf(api, customer.id, trialing.id)).to.have.length(0);

    await advance(api, clock.id, T0 + 14 * DAY - 1);
    expect((await getSubscription(api, trialing.id)).status).to.equal('trialing');

    await advance(api, clock.id, T0 + 14 * DAY);
    const active = await getSubscription(api, trialing.id);
    expect(active).to.include({
      status: 'active',
      trialEnd: T0 + 14 * DAY,
      currentPeriodStart: T0 + 14 * DAY,
      currentPeriodEnd: monthsAfter(T0 + 14 * DAY, 1),
    });
    const charges = await chargesOf(api, customer.id, trialing.id);
    expect(charges.map((charge) => [charge.amount, charge.created, charge.type])).to.deep.equal([
      [900, T0 + 14 * DAY, 'first_recurring'],
    ]);
    expect(await statusesIn(trialing.id)).to.deep.equal([
      'CUSTOMER_SUBSCRIPTION_CREATED:trialing',
      'CUSTOMER_SUBSCRIPTION_UPDATED:trialing',
      'CUSTOMER_SUBSCRIPTION_UPDATED:active',
    ]);
  });

  it('trialEnd=-1 on update ends the trial at once and charges', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { amount: 400 });
    const trialing = await subscribe(api, customer.id, { planId: plan.id, trialEnd: T0 + 30 * DAY });
    expect(trialing).to.include({ status: 'trialing', trialEnd: T0 + 30 * DAY });

    await advance(api, clock.id, T0 + 2 * DAY);
    const ended = await api.post<Subscription>(`/subscriptions/${trialing.id}`, { json: { trialEnd: -1 } });
    expect(ended.status, JSON.stringify(ended.body)).to.equal(200);
    expect(ended.body).to.include({
      status: 'active',
      trialEnd: T0 + 2 * DAY,
      currentPeriodStart: T0 + 2 * DAY,
      currentPeriodEnd: monthsAfter(T0 + 2 * DAY, 1),
    });
    expect((await chargesOf(api, customer.id, trialing.id)).map((charge) => charge.created)).to.deep.equal([
      T0 + 2 * DAY,
    ]);
  });

  it('without a trial the first charge is made at once: active; when it fails the create still answers, incomplete, never charged again', async () => {
    const clock = await createClock(api, T0);
    const plan = await createPlan(api);
    const payer = await customerOnClock(api, clock.id);
    expect((await subscribe(api, payer.id, { planId: plan.id })).status).to.equal('active');

    const decliner = await customerOnClock(api, clock.id, ALWAYS_DECLINES);
    const incomplete = await subscribe(api, decliner.id, { planId: plan.id });
    expect(incomplete.status).to.equal('incomplete');
    const [failed] = await chargesOf(api, decliner.id, incomplete.id);
    expect(failed).to.include({
      status: 'failed',
      failureCode: 'card_declined',
      type: 'first_recurring',
      subscriptionId: incomplete.id,
    });

    await advance(api, clock.id, monthsAfter(T0, 3));
    expect(await chargesOf(api, decliner.id, incomplete.id)).to.have.length(1);
    expect((await getSubscription(api, incomplete.id)).status).to.equal('incomplete');
  });

  it('a failed renewal makes it past_due; a successful retry (day 3) makes it active again in the same period', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { amount: 700 });
    const subscription = await subscribe(api, customer.id, { planId: plan.id });
    await api.post(`/customers/${customer.id}/cards`, { json: cardDetails(ALWAYS_DECLINES) });
    const renewal = monthsAfter(T0, 1);

    await advance(api, clock.id, renewal);
    expect(await getSubscription(api, subscription.id)).to.include({
      status: 'past_due',
      currentPeriodStart: renewal,
      currentPeriodEnd: monthsAfter(T0, 2),
    });
    await advance(api, clock.id, renewal + DAY);
    expect((await getSubscription(api, subscription.id)).status).to.equal('past_due');

    // The customer fixes the card before the second retry.
    await api.post(`/customers/${customer.id}/cards`, { json: cardDetails('5555555555554444') });
    await advance(api, clock.id, renewal + 3 * DAY);
    expect(await getSubscription(api, subscription.id)).to.include({
      status: 'active',
      currentPeriodStart: renewal,
      currentPeriodEnd: monthsAfter(T0, 2),
    });

    await advance(api, clock.id, monthsAfter(T0, 2));
    const charges = await chargesOf(api, customer.id, subscription.id);
    expect(charges.map((charge) => [charge.status, charge.created, charge.amount])).to.deep.equal([
      ['successful', T0, 700],
      ['failed', renewal, 700],
      ['failed', renewal + DAY, 700],
      ['successful', renewal + 3 * DAY, 700],
      ['successful', monthsAfter(T0, 2), 700],
    ]);
    expect(await statusesIn(subscription.id)).to.include.members([
      'CUSTOMER_SUBSCRIPTION_UPDATED:past_due',
      'CUSTOMER_SUBSCRIPTION_UPDATED:active',
    ]);
  });

  it('when every retry (days 1, 3, 5) fails it is canceled (the account default); a failed trial end counts as a failed renewal', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id, ALWAYS_DECLINES);
    const plan = await createPlan(api, { trialPeriodDays: 7 });
    const subscription = await subscribe(api, customer.id, { planId: plan.id });
    const trialEnd = T0 + 7 * DAY;

    await advance(api, clock.id, trialEnd + 4 * DAY);
    expect((await getSubscription(api, subscription.id)).status).to.equal('past_due');
    await advance(api, clock.id, trialEnd + 30 * DAY);

    const charges = await chargesOf(api, customer.id, subscription.id);
    expect(charges.map((charge) => [charge.status, charge.created])).to.deep.equal([
      ['failed', trialEnd],
      ['failed', trialEnd + DAY],
      ['failed', trialEnd + 3 * DAY],
      ['failed', trialEnd + 5 * DAY],
    ]);
    expect(await getSubscription(api, subscription.id)).to.include({
      status: 'canceled',
      deleted: true,
      canceledAt: trialEnd + 5 * DAY,
      endedAt: trialEnd + 5 * DAY,
    });
    const events = await eventsOf(api, subscription.id);
    expect(events[0]!.type).to.equal('CUSTOMER_SUBSCRIPTION_DELETED');
  });

  it('when every retry fails on an account set to unpaid, it becomes unpaid and is charged no more', async () => {
    const other = await createOtherAccount(api, service.dataDir, 'Unpaid shop');
    const set = await runCli(
      ['accounts', 'settings', other.keys.id, '--subscription-failure-status', 'unpaid', '--json'],
      service.dataDir,
    );
    expect(set.code, set.stderr).to.equal(0);
    expect(JSON.parse(set.stdout)).to.deep.equal({ subscriptionFailureStatus: 'unpaid' });

    const clock = await createClock(other.api, T0);
    const customer = await customerOnClock(other.api, clock.id);
    const plan = await createPlan(other.api);
    const subscription = await subscribe(other.api, customer.id, { planId: plan.id });
    await other.api.post(`/customers/${customer.id}/cards`, { json: cardDetails(ALWAYS_DECLINES) });

    await advance(other.api, clock.id, monthsAfter(T0, 3));
    const unpaid = await getSubscription(other.api, subscription.id);
    expect(unpaid).to.include({
      status: 'unpaid',
      canceledAt: null,
      endedAt: null,
      currentPeriodStart: monthsAfter(T0, 1),
    });
    expect(unpaid).to.not.have.property('deleted');
    expect(await chargesOf(other.api, customer.id, subscription.id)).to.have.length(5);
    const listed = await other.api.get<Page<Subscription>>(`/customers/${customer.id}/subscriptions`);
    expect(listed.body.list.map((item) => item.id)).to.deep.equal([subscription.id]);
  });

  it('DELETE cancels at once: canceledAt = endedAt = now; listed only with deleted=true; never charged again', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api);
    const subscription = await subscribe(api, customer.id, { planId: plan.id });
    await advance(api, clock.id, T0 + 5 * DAY);

    const canceled = await api.delete<Subscription>(`/customers/${customer.id}/subscriptions/${subscription.id}`);
    expect(canceled.status, JSON.stringify(canceled.body)).to.equal(200);
    expect(canceled.body).to.include({
      id: subscription.id,
      status: 'canceled',
      deleted: true,
      canceledAt: T0 + 5 * DAY,
      endedAt: T0 + 5 * DAY,
      cancelAtPeriodEnd: false,
    });
    expect((await api.get<Page<Subscription>>(`/customers/${customer.id}/subscriptions`)).body.list).to.deep.equal([]);
    expect(
      (
        await api.get<Page<Subscription>>('/subscriptions', { query: { customerId: customer.id, deleted: 'true' } })
      ).body.list.map((item) => item.id),
    ).to.deep.equal([subscription.id]);
    expect((await eventsOf(api, subscription.id))[0]!.type).to.equal('CUSTOMER_SUBSCRIPTION_DELETED');

    await advance(api, clock.id, monthsAfter(T0, 3));
    expect(await chargesOf(api, customer.id, subscription.id)).to.have.length(1);
    expect((await api.delete(`/subscriptions/${subscription.id}`)).status).to.equal(400);
    expect((await api.post(`/subscriptions/${subscription.id}`, { json: { quantity: 2 } })).status).to.equal(400);
  });

  it('DELETE with atPeriodEnd=true keeps it until the period end, then cancels without a renewal', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api);
    const subscription = await subscribe(api, customer.id, { planId: plan.id });
    await advance(api, clock.id, T0 + 5 * DAY);

    const scheduled = await api.delete<Subscription>(`/subscriptions/${subscription.id}`, {
      query: { atPeriodEnd: 'true' },
    });
    expect(scheduled.body).to.include({
      status: 'active',
      cancelAtPeriodEnd: true,
      canceledAt: T0 + 5 * DAY,
      endedAt: monthsAfter(T0, 1),
    });
    expect(scheduled.body).to.not.have.property('deleted');

    await advance(api, clock.id, monthsAfter(T0, 2));
    expect(await getSubscription(api, subscription.id)).to.include({
      status: 'canceled',
      deleted: true,
      canceledAt: T0 + 5 * DAY,
      endedAt: monthsAfter(T0, 1),
    });
    expect(await chargesOf(api, customer.id, subscription.id)).to.have.length(1);
    expect((await eventsOf(api, subscription.id)).map((event) => event.type).slice(0, 2)).to.deep.equal([
      'CUSTOMER_SUBSCRIPTION_DELETED',
      'CUSTOMER_SUBSCRIPTION_UPDATED',
    ]);
  });

  it('a daily plan recovered late from past_due renews the periods that passed meanwhile, one by one, at once', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { amount: 100, interval: 'day' });
    const subscription = await subscribe(api, customer.id, { planId: plan.id });
    await api.post(`/customers/${customer.id}/cards`, { json: cardDetails(ALWAYS_DECLINES) });
    await advance(api, clock.id, T0 + 2 * DAY);
    expect(await getSubscription(api, subscription.id)).to.include({
      status: 'past_due',
      currentPeriodStart: T0 + DAY,
      currentPeriodEnd: T0 + 2 * DAY,
    });

    await api.post(`/customers/${customer.id}/cards`, { json: cardDetails('4242424242424242') });
    await advance(api, clock.id, T0 + 4 * DAY + 3_600);
    const charges = await chargesOf(api, customer.id, subscription.id);
    expect(charges.map((charge) => [charge.status, charge.created])).to.deep.equal([
      ['successful', T0],
      ['failed', T0 + DAY],
      ['failed', T0 + 2 * DAY],
      ['successful', T0 + 4 * DAY],
      ['successful', T0 + 4 * DAY],
      ['successful', T0 + 4 * DAY],
      ['successful', T0 + 4 * DAY],
    ]);
    expect(await getSubscription(api, subscription.id)).to.include({
      status: 'active',
      currentPeriodStart: T0 + 4 * DAY,
      currentPeriodEnd: T0 + 5 * DAY,
    });
  });

  it('a plan change during a trial keeps the trial, restarts start, and its end charges the new plan', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const basic = await createPlan(api, { amount: 500, trialPeriodDays: 10 });
    const premium = await createPlan(api, { amount: 1500 });
    const subscription = await subscribe(api, customer.id, { planId: basic.id });
    await advance(api, clock.id, T0 + 3 * DAY);

    const changed = await api.post<Subscription>(`/subscriptions/${subscription.id}`, { json: { planId: premium.id } });
    expect(changed.body).to.include({
      status: 'trialing',
      planId: premium.id,
      start: T0 + 3 * DAY,
      trialEnd: T0 + 10 * DAY,
      currentPeriodEnd: T0 + 10 * DAY,
    });
    expect(await chargesOf(api, customer.id, subscription.id)).to.have.length(0);
    await advance(api, clock.id, T0 + 10 * DAY);
    expect(
      (await chargesOf(api, customer.id, subscription.id)).map((charge) => [charge.amount, charge.created]),
    ).to.deep.equal([[1500, T0 + 10 * DAY]]);
  });

  it('remainingBillingCycles: on create it replaces the plan’s billingCycles; 0 on update ends it at the current period’s end', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { billingCycles: 12 });
    const short = await subscribe(api, customer.id, { planId: plan.id, remainingBillingCycles: 2 });
    expect(short.remainingBillingCycles).to.equal(1);
    const stopping = await subscribe(api, customer.id, { planId: plan.id });
    expect(stopping.remainingBillingCycles).to.equal(11);
    expect(
      (await api.post<Subscription>(`/subscriptions/${stopping.id}`, { json: { remainingBillingCycles: 0 } })).body
        .remainingBillingCycles,
    ).to.equal(0);

    await advance(api, clock.id, monthsAfter(T0, 3));
    expect(await chargesOf(api, customer.id, short.id)).to.have.length(2);
    expect(await getSubscription(api, short.id)).to.include({ status: 'canceled', endedAt: monthsAfter(T0, 2) });
    expect(await chargesOf(api, customer.id, stopping.id)).to.have.length(1);
    expect(await getSubscription(api, stopping.id)).to.include({ status: 'canceled', endedAt: monthsAfter(T0, 1) });
  });

  it('an incomplete subscription canceled with atPeriodEnd=true is canceled at once', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id, ALWAYS_DECLINES);
    const plan = await createPlan(api);
    const incomplete = await subscribe(api, customer.id, { planId: plan.id });
    const canceled = await api.delete<Subscription>(`/subscriptions/${incomplete.id}`, {
      query: { atPeriodEnd: 'true' },
    });
    expect(canceled.body).to.include({ status: 'canceled', canceledAt: T0, endedAt: T0 });
  });
  it('a subscription whose customer was deleted is canceled when its next charge falls due', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api);
    const subscription = await subscribe(api, customer.id, { planId: plan.id });
    expect((await api.delete(`/customers/${customer.id}`)).status).to.equal(200);

    await advance(api, clock.id, monthsAfter(T0, 1));
    expect(await getSubscription(api, subscription.id)).to.include({
      status: 'canceled',
      canceledAt: monthsAfter(T0, 1),
      endedAt: monthsAfter(T0, 1),
    });
    expect(await chargesOf(api, customer.id, subscription.id)).to.have.length(1);
  });
});
