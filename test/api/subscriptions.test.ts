import { expect } from 'chai';
import { cardDetails, eventsOf, type ApiError, type Page } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';
import {
  chargesOf,
  createPlan,
  getSubscription,
  waitUntil,
  type Plan,
  type Subscription,
} from '../support/subscriptions.ts';

/** Subscriptions on real time: both places of the API, validation, events, and the worker's scheduler and capture jobs. */
describe('subscriptions over HTTP', function () {
  this.timeout(60_000);
  const { api, service } = useService();
  let plan: Plan;

  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const customerWithCard = async (number = '4242424242424242') =>
    (
      await api.post<{ id: string; defaultCardId: string }>('/customers', {
        json: { email: 'sub@example.com', card: cardDetails(number) },
      })
    ).body;

  before(async () => {
    plan = await createPlan(api, { amount: 1500, currency: 'EUR' });
  });

  it('creates under /customers/{id}/subscriptions and at /subscriptions with customerId, as JSON or a form', async () => {
    const customer = await customerWithCard();
    const nested = await api.post<Subscription>(`/customers/${customer.id}/subscriptions`, {
      json: { planId: plan.id, metadata: { order: '1' } },
    });
    const topLevel = await api.post<Subscription>('/subscriptions', {
      form: { customerId: customer.id, planId: plan.id, quantity: '2', captureCharges: 'false' },
    });
    for (const response of [nested, topLevel]) {
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.id).to.match(/^sub_[A-Za-z0-9]{24}$/);
      expect(response.body).to.include({
        objectType: 'subscription',
        customerId: customer.id,
        planId: plan.id,
        status: 'active',
      });
      expect(response.body.created).to.be.within(nowSeconds() - 60, nowSeconds() + 1);
    }
    expect(nested.body.metadata).to.deep.equal({ order: '1' });
    expect(topLevel.body).to.include({ quantity: 2, captureCharges: false });
    expect((await chargesOf(api, customer.id, topLevel.body.id)).map((charge) => charge.amount)).to.deep.equal([3000]);
  });

  it('gets, updates, cancels and lists at both places; a subscription under another customer’s path is a 404', async () => {
    const customer = await customerWithCard();
    const other = await customerWithCard();
    const subscription = (
      await api.post<Subscription>(`/customers/${customer.id}/subscriptions`, { json: { planId: plan.id } })
    ).body;

    expect(
      (await api.get<Subscription>(`/customers/${customer.id}/subscriptions/${subscription.id}`)).body,
    ).to.deep.equal(subscription);
    expect((await api.get<Subscription>(`/subscriptions/${subscription.id}`)).body).to.deep.equal(subscription);
    expect((await api.get(`/customers/${other.id}/subscriptions/${subscription.id}`)).status).to.equal(404);
    expect((await api.get(`/subscriptions/${subscription.id}`, { query: { customerId: other.id } })).status).to.equal(
      404,
    );

    const nestedUpdate = await api.post<Subscription>(`/customers/${customer.id}/subscriptions/${subscription.id}`, {
      json: { metadata: { a: '1' } },
    });
    expect(nestedUpdate.body.metadata).to.deep.equal({ a: '1' });
    const topUpdate = await api.post<Subscription>(`/subscriptions/${subscription.id}`, {
      form: { customerId: customer.id, 'shipping[name]': 'Jane', merchantAccountId: 'm_1' },
    });
    expect(topUpdate.body).to.include({ merchantAccountId: 'm_1' });
    expect(topUpdate.body).to.have.deep.property('shipping', { name: 'Jane' });
    expect(
      (await api.post(`/customers/${other.id}/subscriptions/${subscription.id}`, { json: { quantity: 3 } })).status,
    ).to.equal(404);

    expect(
      (await api.get<Page<Subscription>>(`/customers/${customer.id}/subscriptions`)).body.list.map((item) => item.id),
    ).to.deep.equal([subscription.id]);
    expect(
      (await api.get<Page<Subscription>>('/subscriptions', { query: { customerId: customer.id } })).body.list.map(
        (item) => item.id,
      ),
    ).to.deep.equal([subscription.id]);
    expect((await api.get<Page<Subscription>>(`/customers/${other.id}/subscriptions`)).body.list).to.deep.equal([]);

    expect((await api.delete(`/customers/${other.id}/subscriptions/${subscription.id}`)).status).to.equal(404);
    const canceled = await api.delete<Subscription>(`/subscriptions/${subscription.id}`, {
      query: { customerId: customer.id },
    });
    expect(canceled.body).to.include({ status: 'canceled', deleted: true });
    expect(canceled.body.canceledAt).to.equal(canceled.body.endedAt);
    expect(
      (
        await api.get<Page<Subscription>>(`/customers/${customer.id}/subscriptions`, { query: { deleted: 'true' } })
      ).body.list.map((item) => item.id),
    ).to.deep.equal([subscription.id]);
  });

  it('refuses bad parameters with 400, an unknown customer path with 404', async () => {
    const customer = await customerWithCard();
    const cardless = (await api.post<{ id: string }>('/customers', { json: { email: 'nocard@example.com' } })).body;
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [`/customers/${customer.id}/subscriptions`, {}, /planId: Must not be empty\./],
      [`/customers/${customer.id}/subscriptions`, { planId: 'plan_unknown' }, /planId/],
      [`/customers/${customer.id}/subscriptions`, { planId: plan.id, quantity: 0 }, /quantity/],
      [`/customers/${customer.id}/subscriptions`, { planId: plan.id, trialEnd: 1_000 }, /trialEnd/],
      [`/customers/${customer.id}/subscriptions`, { planId: plan.id, start: 5 }, /Unknown parameter: start/],
      [`/customers/${cardless.id}/subscriptions`, { planId: plan.id }, /default card/],
      ['/subscriptions', { planId: plan.id }, /customerId: Must not be empty\./],
      ['/subscriptions', { planId: plan.id, customerId: 'cust_unknown' }, /customerId/],
    ];
    for (const [path, json, message] of cases) {
      const response = await api.post<ApiError>(path, { json });
      expect(response.status, `${path} ${JSON.stringify(json)}`).to.equal(400);
      expect(response.body.error).to.include({ type: 'invalid_request' });
      expect(response.body.error.message).to.match(message);
    }
    expect((await api.post('/customers/cust_unknown/subscriptions', { json: { planId: plan.id } })).status).to.equal(
      404,
    );
    expect((await api.get('/subscriptions', { query: { customerId: 'cust_unknown' } })).status).to.equal(400);
    // With a trial, a customer without a card may subscribe: the trial end's charge will fail.
    const trialing = await api.post<Subscription>(`/customers/${cardless.id}/subscriptions`, {
      json: { planId: plan.id, trialEnd: nowSeconds() + 3_600 },
    });
    expect(trialing.body.status).to.equal('trialing');
  });

  it('emits CUSTOMER_SUBSCRIPTION_CREATED (incomplete until the first charge settles), then _UPDATED to active, and the charge events', async () => {
    const customer = await customerWithCard();
    const subscription = (
      await api.post<Subscription>(`/customers/${customer.id}/subscriptions`, { json: { planId: plan.id } })
    ).body;
    const events = (await eventsOf<Subscription>(api, subscription.id)).reverse();
    expect(events.map((event) => [event.type, event.data.status])).to.deep.equal([
      ['CUSTOMER_SUBSCRIPTION_CREATED', 'incomplete'],
      ['CUSTOMER_SUBSCRIPTION_UPDATED', 'active'],
    ]);
    const [charge] = await chargesOf(api, customer.id, subscription.id);
    // The capture runs as its own job after the authorization.
    await waitUntil(
      async () => (await api.get<{ captured: boolean }>(`/charges/${charge!.id}`)).body.captured,
      'the capture job',
    );
    expect((await eventsOf(api, charge!.id)).map((event) => event.type).reverse()).to.deep.equal([
      'CHARGE_SUCCEEDED',
      'CHARGE_CAPTURED',
    ]);
  });

  it('the worker’s scheduler runs a trial end that falls due on real time, and captures its charge', async () => {
    const customer = await customerWithCard();
    const trialEnd = nowSeconds() + 2;
    const subscription = (
      await api.post<Subscription>(`/customers/${customer.id}/subscriptions`, { json: { planId: plan.id, trialEnd } })
    ).body;
    expect(subscription.status).to.equal('trialing');

    const active = await waitUntil(async () => {
      const current = await getSubscription(api, subscription.id);
      return current.status === 'active' ? current : null;
    }, 'the trial end to be run by the worker');
    expect(active).to.include({ currentPeriodStart: trialEnd });
    const charges = await waitUntil(async () => {
      const found = await chargesOf(api, customer.id, subscription.id);
      return found.length === 1 && found[0]!.captured ? found : null;
    }, 'the charge to be captured');
    expect(charges[0]).to.include({ amount: 1500, type: 'first_recurring', status: 'successful' });
  });

  it('keeps tenants apart: another mode’s subscription is a 404', async () => {
    const customer = await customerWithCard();
    const subscription = (
      await api.post<Subscription>(`/customers/${customer.id}/subscriptions`, { json: { planId: plan.id } })
    ).body;
    const live = api.withKey(service.keys!.liveSecretKey);
    expect((await live.get(`/subscriptions/${subscription.id}`)).status).to.equal(404);
    expect((await live.delete(`/subscriptions/${subscription.id}`)).status).to.equal(404);
    expect((await live.get<Page<Subscription>>('/subscriptions')).body.list).to.deep.equal([]);
  });
});
