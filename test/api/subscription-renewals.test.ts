import { expect } from 'chai';
import { cardDetails, eventsOf } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';
import {
  advance,
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

/** Renewals driven by test clocks: periods, amounts, quantity, plan changes, billing cycles, recursion, captures. */
describe('subscription renewals (test clocks)', function () {
  this.timeout(60_000);
  const { api } = useService();
  /** The 31st: monthly periods must land on the last day of shorter months and come back. */
  const T0 = at('2026-01-31T10:00:00Z');

  it('renews monthly for a year: 12 charges of the plan amount on the customer’s default card, one on each period start', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { amount: 1250, currency: 'USD' });

    const created = await subscribe(api, customer.id, { planId: plan.id });
    expect(created).to.include({
      objectType: 'subscription',
      status: 'active',
      created: T0,
      start: T0,
      currentPeriodStart: T0,
      currentPeriodEnd: monthsAfter(T0, 1),
    });
    expect(created).to.include({
      quantity: 1,
      captureCharges: true,
      remainingBillingCycles: null,
      cancelAtPeriodEnd: false,
      trialStart: null,
      trialEnd: null,
      canceledAt: null,
      endedAt: null,
    });

    await advance(api, clock.id, monthsAfter(T0, 11) + 3_600);

    const charges = await chargesOf(api, customer.id, created.id);
    expect(charges.map((charge) => charge.created)).to.deep.equal(
      Array.from({ length: 12 }, (_, month) => monthsAfter(T0, month)),
    );
    expect(new Date(charges[1]!.created * 1000).toISOString()).to.equal('2026-02-28T10:00:00.000Z');
    expect(new Date(charges[2]!.created * 1000).toISOString()).to.equal('2026-03-31T10:00:00.000Z');
    for (const [index, charge] of charges.entries()) {
      expect(charge).to.include({
        amount: 1250,
        currency: 'USD',
        status: 'successful',
        captured: true,
        customerId: customer.id,
        subscriptionId: created.id,
      });
      expect(charge.type).to.equal(index === 0 ? 'first_recurring' : 'subsequent_recurring');
      expect(charge.card.id).to.equal(customer.defaultCardId);
    }
    const renewed = await getSubscription(api, created.id);
    expect(renewed).to.include({
      status: 'active',
      start: T0,
      currentPeriodStart: monthsAfter(T0, 11),
      currentPeriodEnd: monthsAfter(T0, 12),
    });

    // Every period change is a CUSTOMER_SUBSCRIPTION_UPDATED whose data is the subscription then.
    const events = await eventsOf<Subscription>(api, created.id);
    expect(events.filter((event) => event.type === 'CUSTOMER_SUBSCRIPTION_CREATED')).to.have.length(1);
    const periodStarts = new Set(
      events
        .filter((event) => event.type === 'CUSTOMER_SUBSCRIPTION_UPDATED')
        .map((event) => event.data.currentPeriodStart),
    );
    for (let month = 1; month < 12; month++)
      expect(periodStarts.has(monthsAfter(T0, month)), `period ${month}`).to.equal(true);
    // Dated when recorded; the clock's time of the change is testClockTime.
    expect(events[0]!.testClockTime).to.equal(monthsAfter(T0, 11));
    expect(events[0]!.created)
      .to.be.at.most(Math.ceil(Date.now() / 1000))
      .and.not.equal(monthsAfter(T0, 11));
  });

  it('applies a plan amount change from the next renewal only', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { amount: 1000 });
    const subscription = await subscribe(api, customer.id, { planId: plan.id });

    await advance(api, clock.id, T0 + 10 * DAY);
    expect((await api.post(`/plans/${plan.id}`, { json: { amount: 2000 } })).body).to.include({ amount: 2000 });
    expect((await chargesOf(api, customer.id, subscription.id)).map((charge) => charge.amount)).to.deep.equal([1000]);
    expect(await getSubscription(api, subscription.id)).to.include({
      currentPeriodStart: T0,
      currentPeriodEnd: monthsAfter(T0, 1),
    });

    await advance(api, clock.id, monthsAfter(T0, 2));
    expect((await chargesOf(api, customer.id, subscription.id)).map((charge) => charge.amount)).to.deep.equal([
      1000, 2000, 2000,
    ]);
  });

  it('charges plan amount × quantity; a quantity change applies from the next charge', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { amount: 100 });
    const subscription = await subscribe(api, customer.id, { planId: plan.id, quantity: 5 });
    expect(subscription.quantity).to.equal(5);

    const updated = await api.post<Subscription>(`/subscriptions/${subscription.id}`, { json: { quantity: 2 } });
    expect(updated.body).to.include({ quantity: 2, currentPeriodStart: T0 });
    await advance(api, clock.id, monthsAfter(T0, 1));
    expect((await chargesOf(api, customer.id, subscription.id)).map((charge) => charge.amount)).to.deep.equal([
      500, 200,
    ]);
  });

  it('ends after billingCycles charges: canceled at the end of the last period, nothing charged after', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { billingCycles: 3 });
    const subscription = await subscribe(api, customer.id, { planId: plan.id });
    expect(subscription.remainingBillingCycles).to.equal(2);

    await advance(api, clock.id, monthsAfter(T0, 2));
    expect((await getSubscription(api, subscription.id)).remainingBillingCycles).to.equal(0);
    await advance(api, clock.id, monthsAfter(T0, 5));

    expect(await chargesOf(api, customer.id, subscription.id)).to.have.length(3);
    const ended = await getSubscription(api, subscription.id);
    expect(ended).to.include({
      status: 'canceled',
      deleted: true,
      remainingBillingCycles: 0,
      canceledAt: monthsAfter(T0, 3),
      endedAt: monthsAfter(T0, 3),
    });
    expect((await eventsOf(api, subscription.id))[0]!.type).to.equal('CUSTOMER_SUBSCRIPTION_DELETED');
  });

  it('recurs to the plan in recursTo after billingCycles charges, with a new start', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const monthly = await createPlan(api, { amount: 300, name: 'After intro' });
    const intro = await createPlan(api, { amount: 100, billingCycles: 2, recursTo: monthly.id, name: 'Intro' });
    const subscription = await subscribe(api, customer.id, { planId: intro.id });

    await advance(api, clock.id, monthsAfter(T0, 3));

    const charges = await chargesOf(api, customer.id, subscription.id);
    expect(charges.map((charge) => [charge.amount, charge.created])).to.deep.equal([
      [100, T0],
      [100, monthsAfter(T0, 1)],
      [300, monthsAfter(T0, 2)],
      [300, monthsAfter(T0, 3)],
    ]);
    const recurred = await getSubscription(api, subscription.id);
    expect(recurred).to.include({
      status: 'active',
      planId: monthly.id,
      start: monthsAfter(T0, 2),
      remainingBillingCycles: null,
    });
    expect(recurred).to.include({ currentPeriodStart: monthsAfter(T0, 3), currentPeriodEnd: monthsAfter(T0, 4) });
  });

  it('a plan change restarts start and a new period now, charged now at the new plan’s amount', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const monthly = await createPlan(api, { amount: 1000 });
    const weekly = await createPlan(api, { amount: 250, interval: 'week' });
    const subscription = await subscribe(api, customer.id, { planId: monthly.id });

    await advance(api, clock.id, T0 + 10 * DAY);
    const changed = await api.post<Subscription>(`/customers/${customer.id}/subscriptions/${subscription.id}`, {
      json: { planId: weekly.id },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.include({
      planId: weekly.id,
      status: 'active',
      created: T0,
      start: T0 + 10 * DAY,
      currentPeriodStart: T0 + 10 * DAY,
      currentPeriodEnd: T0 + 17 * DAY,
    });

    await advance(api, clock.id, T0 + 17 * DAY);
    const charges = await chargesOf(api, customer.id, subscription.id);
    expect(charges.map((charge) => [charge.amount, charge.created, charge.type])).to.deep.equal([
      [1000, T0, 'first_recurring'],
      [250, T0 + 10 * DAY, 'subsequent_recurring'],
      [250, T0 + 17 * DAY, 'subsequent_recurring'],
    ]);
  });

  it('with captureCharges=false only authorizes each charge; the merchant captures by hand', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api);
    const subscription = await subscribe(api, customer.id, { planId: plan.id, captureCharges: false });
    expect(subscription.captureCharges).to.equal(false);

    await advance(api, clock.id, monthsAfter(T0, 2));
    const charges = await chargesOf(api, customer.id, subscription.id);
    expect(charges).to.have.length(3);
    for (const charge of charges) expect(charge).to.include({ status: 'successful', captured: false });

    const captured = await api.post(`/charges/${charges[0]!.id}/capture`);
    expect(captured.body).to.include({ captured: true });
  });

  it('charges the customer’s current default card', async () => {
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api);
    const subscription = await subscribe(api, customer.id, { planId: plan.id });
    const mastercard = await api.post<{ id: string }>(`/customers/${customer.id}/cards`, {
      json: cardDetails('5555555555554444'),
    });

    await advance(api, clock.id, monthsAfter(T0, 1));
    const charges = await chargesOf(api, customer.id, subscription.id);
    expect(charges.map((charge) => charge.card.id)).to.deep.equal([customer.defaultCardId, mastercard.body.id]);
    expect(charges[1]!.card.last4).to.equal('4444');
  });
});
