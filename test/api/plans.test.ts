import { expect } from 'chai';
import { eventsOf, type ApiError, type Page } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';
import {
  advance,
  at,
  chargesOf,
  createClock,
  createPlan,
  customerOnClock,
  getSubscription,
  monthsAfter,
  subscribe,
  type Plan,
} from '../support/subscriptions.ts';

describe('plans over HTTP', function () {
  this.timeout(60_000);
  const { api, service } = useService();

  it('creates a plan from a form with defaults for what is omitted, readable at once', async () => {
    const response = await api.post<Plan>('/plans', {
      form: { amount: '1999', currency: 'usd', interval: 'month', name: 'Pro', 'metadata[tier]': 'pro' },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const plan = response.body;
    expect(plan.id).to.match(/^plan_[A-Za-z0-9]{24}$/);
    expect(plan).to.include({
      objectType: 'plan',
      amount: 1999,
      currency: 'USD',
      interval: 'month',
      intervalCount: 1,
      billingCycles: null,
      name: 'Pro',
      trialPeriodDays: null,
      recursTo: null,
    });
    expect(plan.metadata).to.deep.equal({ tier: 'pro' });
    expect((await api.get<Plan>(`/plans/${plan.id}`)).body).to.deep.equal(plan);
    expect((await eventsOf(api, plan.id)).map((event) => event.type)).to.deep.equal(['PLAN_CREATED']);
  });

  it('requires amount, currency, interval and name, and validates each parameter', async () => {
    const missing = await api.post<ApiError>('/plans', { json: { amount: 100, currency: 'EUR', interval: 'month' } });
    expect(missing.status).to.equal(400);
    expect(missing.body.error.message).to.equal('name: Must not be empty.');
    for (const [json, parameter] of [
      [{ interval: 'fortnight' }, 'interval'],
      [{ intervalCount: 0 }, 'intervalCount'],
      [{ amount: 0 }, 'amount'],
      [{ billingCycles: 0 }, 'billingCycles'],
      [{ trialPeriodDays: -1 }, 'trialPeriodDays'],
      [{ currency: 'XXY' }, 'currency'],
    ] as [Record<string, unknown>, string][]) {
      const response = await api.post<ApiError>('/plans', {
        json: { amount: 100, currency: 'EUR', interval: 'month', name: 'x', ...json },
      });
      expect(response.status, parameter).to.equal(400);
      expect(response.body.error.message, parameter).to.include(parameter);
    }
    const unknownTarget = await api.post<ApiError>('/plans', {
      json: { amount: 100, currency: 'EUR', interval: 'month', name: 'x', billingCycles: 2, recursTo: 'plan_missing' },
    });
    expect(unknownTarget.status).to.equal(400);
    expect(unknownTarget.body.error.message).to.include('recursTo');
  });

  it('updates any parameter; an update that changes nothing emits no event', async () => {
    const plan = await createPlan(api, { amount: 500 });
    const next = await createPlan(api, { name: 'Next' });
    const updated = await api.post<Plan>(`/plans/${plan.id}`, {
      json: {
        amount: 700,
        currency: 'GBP',
        interval: 'week',
        intervalCount: 2,
        billingCycles: 6,
        name: 'Renamed',
        trialPeriodDays: 3,
        recursTo: next.id,
        metadata: { a: 'b' },
      },
    });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect(updated.body).to.include({
      amount: 700,
      currency: 'GBP',
      interval: 'week',
      intervalCount: 2,
      billingCycles: 6,
      name: 'Renamed',
      trialPeriodDays: 3,
      recursTo: next.id,
    });
    await api.post(`/plans/${plan.id}`, { json: { amount: 700 } });
    expect((await eventsOf(api, plan.id)).map((event) => event.type)).to.deep.equal(['PLAN_UPDATED', 'PLAN_CREATED']);
  });

  it('deletes softly: readable with deleted: true, listed only with deleted=true, no longer usable', async () => {
    const plan = await createPlan(api, { name: 'Short-lived' });
    const deleted = await api.delete(`/plans/${plan.id}`);
    expect(deleted.body).to.deep.equal({ id: plan.id });
    expect((await api.get<Plan>(`/plans/${plan.id}`)).body).to.include({ id: plan.id, deleted: true });
    expect(
      (await api.get<Page<Plan>>('/plans', { query: { limit: '100' } })).body.list.map((item) => item.id),
    ).to.not.include(plan.id);
    expect(
      (await api.get<Page<Plan>>('/plans', { query: { deleted: 'true' } })).body.list.map((item) => item.id),
    ).to.include(plan.id);
    expect((await api.post(`/plans/${plan.id}`, { json: { amount: 1 } })).status).to.equal(400);
    expect((await api.delete(`/plans/${plan.id}`)).status).to.equal(400);
    expect((await eventsOf(api, plan.id))[0]!.type).to.equal('PLAN_DELETED');
  });

  it('deleting a plan does not stop its subscriptions; new subscriptions cannot use it', async () => {
    const T0 = at('2026-05-01T00:00:00Z');
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { amount: 800 });
    const subscription = await subscribe(api, customer.id, { planId: plan.id });
    await api.delete(`/plans/${plan.id}`);

    await advance(api, clock.id, monthsAfter(T0, 2));
    expect((await chargesOf(api, customer.id, subscription.id)).map((charge) => charge.amount)).to.deep.equal([
      800, 800, 800,
    ]);
    expect((await getSubscription(api, subscription.id)).status).to.equal('active');
    const refused = await api.post<ApiError>(`/customers/${customer.id}/subscriptions`, { json: { planId: plan.id } });
    expect(refused.status).to.equal(400);
  });

  it('lists plans newest first with the list parameters; another account sees none of them', async () => {
    const first = await createPlan(api, { name: 'A' });
    const second = await createPlan(api, { name: 'B' });
    const page = (await api.get<Page<Plan>>('/plans', { query: { limit: '2' } })).body;
    expect(page.list.map((plan) => plan.id)).to.deep.equal([second.id, first.id]);
    expect(page.hasMore).to.equal(true);
    const live = api.withKey(service.keys!.liveSecretKey);
    expect((await live.get(`/plans/${first.id}`)).status).to.equal(404);
    expect((await live.get<Page<Plan>>('/plans')).body.list).to.deep.equal([]);
  });
});
