import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { cardDetails, createOtherAccount, type Charge, type Customer, type Page } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

type Created = { created: number };

type HistoryEntry = {
  id: string;
  objectType: 'history_entry';
  created: number;
  type: string;
  revision: number;
  actor: string | null;
  requestId: string | null;
  idempotencyKey: string | null;
  data: Record<string, unknown>;
  hash: string | null;
};

const now = (): number => Math.floor(Date.now() / 1000);

/** Waits until the clock's second has turned, so that the next change has a later Unix time. */
async function nextSecond(): Promise<number> {
  const current = now();
  while (now() === current) await sleep(50);
  return now();
}

describe('object history and as-of reads over HTTP', function () {
  this.timeout(90_000);
  const { api, service, keys } = useService();

  it("lists a customer's events newest first with the acting key id (never the key), request id and data, page by page", async () => {
    const created = await api.post<Customer>('/customers', {
      json: { email: 'history@example.com' },
      headers: { 'idempotency-key': 'history-create' },
    });
    const updated = await api.post<Customer>(`/customers/${created.body.id}`, { json: { description: 'VIP' } });

    const history = await api.get<Page<HistoryEntry>>(`/objects/${created.body.id}/history`);

    expect(history.status).to.equal(200);
    expect(history.body.hasMore).to.equal(false);
    expect(history.body.list.map((entry) => entry.type)).to.deep.equal(['CustomerUpdated', 'CustomerCreated']);
    const [update, creation] = history.body.list;
    expect(creation).to.include({
      objectType: 'history_entry',
      revision: 0,
      requestId: created.headers.get('x-request-id'),
      idempotencyKey: 'history-create',
    });
    expect(update).to.include({ revision: 1, requestId: updated.headers.get('x-request-id'), idempotencyKey: null });
    expect(creation!.data).to.include({ customerId: created.body.id, email: 'history@example.com' });
    expect(update!.data).to.include({ description: 'VIP' });
    for (const entry of history.body.list) {
      expect(entry.actor).to.match(/^key_/);
      expect(JSON.stringify(entry)).to.not.include(keys.testSecretKey);
      expect(entry.created).to.be.within(now() - 60, now() + 1);
      expect(entry.hash).to.match(/^[0-9a-f]{64}$/);
    }

    const first = await api.get<Page<HistoryEntry>>(`/objects/${created.body.id}/history`, { query: { limit: '1' } });
    expect(first.body).to.deep.equal({ list: [update], hasMore: true });
    const second = await api.get<Page<HistoryEntry>>(`/objects/${created.body.id}/history`, {
      query: { limit: '1', startingAfterId: update!.id },
    });
    expect(second.body).to.deep.equal({ list: [creation], hasMore: false });
    const back = await api.get<Page<HistoryEntry>>(`/objects/${created.body.id}/history`, {
      query: { endingBeforeId: creation!.id },
    });
    expect(back.body).to.deep.equal({ list: [update], hasMore: false });
  });

  it("shows a card's own events from its customer's stream and a refund's from its charge's", async () => {
    const customer = await api.post<Customer>('/customers', {
      json: { email: 'cards@example.com', card: cardDetails('4242424242424242') },
    });
    const cardId = customer.body.defaultCardId!;
    const charge = await api.post<Charge>('/charges', {
      json: { amount: 1000, currency: 'EUR', card: cardDetails('4242424242424242') },
    });
    const refund = await api.post<{ id: string }>('/refunds', { json: { chargeId: charge.body.id, amount: 300 } });
    expect(refund.status).to.equal(200);

    const cardHistory = await api.get<Page<HistoryEntry>>(`/objects/${cardId}/history`);
    expect(cardHistory.status).to.equal(200);
    expect(cardHistory.body.list).to.have.length.greaterThan(0);
    for (const entry of cardHistory.body.list) expect(entry.data).to.include({ cardId });

    const refundHistory = await api.get<Page<HistoryEntry>>(`/objects/${refund.body.id}/history`);
    expect(refundHistory.status).to.equal(200);
    expect(refundHistory.body.list.at(-1)).to.include({ type: 'RefundRequested' });
    for (const entry of refundHistory.body.list) expect(entry.data).to.include({ refundId: refund.body.id });

    const chargeHistory = await api.get<Page<HistoryEntry>>(`/objects/${charge.body.id}/history`);
    expect(chargeHistory.body.list.map((entry) => entry.type)).to.include.members([
      'ChargeSucceeded',
      'RefundRequested',
    ]);
  });

  it('answers every object read with asOf exactly like the read model for the current time', async () => {
    const customer = await api.post<Customer>('/customers', {
      json: { email: 'same@example.com', metadata: { tier: 'gold' }, card: cardDetails('4242424242424242') },
    });
    await api.post(`/customers/${customer.body.id}`, { json: { description: 'Regular' } });
    const charge = await api.post<Charge>('/charges', {
      json: { amount: 2500, currency: 'USD', customerId: customer.body.id, captured: false },
    });
    expect(charge.status).to.equal(200);
    await api.post(`/charges/${charge.body.id}/capture`);
    const refund = await api.post<{ id: string }>('/refunds', { json: { chargeId: charge.body.id, amount: 500 } });
    const plan = await api.post<{ id: string }>('/plans', {
      json: { amount: 990, currency: 'EUR', interval: 'month', name: 'Basic' },
    });
    expect(plan.status).to.equal(200);
    const subscription = await api.post<{ id: string }>('/subscriptions', {
      json: { customerId: customer.body.id, planId: plan.body.id },
    });
    expect(subscription.status, JSON.stringify(subscription.body)).to.equal(200);
    const token = await api.post<{ id: string }>('/tokens', { json: cardDetails('5555555555554444') });
    const rule = await api.post<{ id: string }>('/blacklist', { json: { ruleType: 'email', email: 'x@example.com' } });
    const clock = await api.post<{ id: string }>('/test-clocks', { json: { frozenTime: now(), name: 'Audit' } });
    const endpoint = await api.post<{ id: string }>('/webhook-endpoints', {
      json: { url: 'https://shop.example/hooks' },
    });
    const events = await api.get<Page<{ id: string }>>('/events', { query: { limit: '1' } });
    for (const created of [token, rule, clock, endpoint]) expect(created.status).to.equal(200);
    const later = String(now() + 5);

    for (const path of [
      `/customers/${customer.body.id}`,
      `/customers/${customer.body.id}/cards/${customer.body.defaultCardId!}`,
      `/charges/${charge.body.id}`,
      `/refunds/${refund.body.id}`,
      `/plans/${plan.body.id}`,
      `/subscriptions/${subscription.body.id}`,
      `/tokens/${token.body.id}`,
      `/blacklist/${rule.body.id}`,
      `/test-clocks/${clock.body.id}`,
      `/webhook-endpoints/${endpoint.body.id}`,
      `/events/${events.body.list[0]!.id}`,
    ]) {
      const current = await api.get(path);
      const asOf = await api.get(path, { query: { asOf: later } });
      expect(current.status, path).to.equal(200);
      expect(asOf.status, path).to.equal(200);
      expect(asOf.body, path).to.deep.equal(current.body);
    }
  });

  it('answers an object as it stood at a past time, and 404 before it existed', async () => {
    const created = await api.post<Customer & Created>('/customers', { json: { email: 'past@example.com' } });
    const beforeUpdate = now();
    await nextSecond();
    await api.post(`/customers/${created.body.id}`, { json: { description: 'Changed', email: 'new@example.com' } });

    const then = await api.get<Customer>(`/customers/${created.body.id}`, { query: { asOf: String(beforeUpdate) } });
    expect(then.status).to.equal(200);
    expect(then.body).to.deep.equal(created.body);
    const current = await api.get<Customer>(`/customers/${created.body.id}`);
    expect(current.body).to.include({ description: 'Changed', email: 'new@example.com' });

    const before = await api.get(`/customers/${created.body.id}`, {
      query: { asOf: String(created.body.created - 1) },
    });
    expect(before.status).to.equal(404);
    expect(before.body).to.deep.equal({
      error: { type: 'invalid_request', message: `Customer '${created.body.id}' does not exist` },
    });
  });

  it('prints the object as of a time with `streams show --as-of`, as GET answers it', async () => {
    const created = await api.post<Customer>('/customers', { json: { email: 'cli@example.com' } });
    const at = now();
    await nextSecond();
    await api.post(`/customers/${created.body.id}`, { json: { description: 'Later' } });

    const shown = await runCli(['streams', 'show', created.body.id, '--as-of', String(at)], service.dataDir);
    expect(shown.code, shown.stderr).to.equal(0);
    expect(JSON.parse(shown.stdout)).to.deep.equal(created.body);
    const read = await api.get(`/customers/${created.body.id}`, { query: { asOf: String(at) } });
    expect(read.body).to.deep.equal(created.body);

    const tooEarly = await runCli(['streams', 'show', created.body.id, '--as-of', '1000'], service.dataDir);
    expect(tooEarly.code).to.equal(1);
    expect(tooEarly.stderr).to.include('did not exist');
  });

  it('refuses a bad asOf and asOf on lists, and changes nothing', async () => {
    const created = await api.post<Customer>('/customers', { json: { email: 'bad@example.com' } });
    for (const asOf of ['yesterday', '-5', '1.5', '99999999999999']) {
      const response = await api.get(`/customers/${created.body.id}`, { query: { asOf } });
      expect(response.status, asOf).to.equal(400);
      expect(response.body).to.deep.equal({
        error: { type: 'invalid_request', message: 'Invalid parameter: asOf must be a Unix timestamp in seconds' },
      });
    }
    const onList = await api.get('/customers', { query: { asOf: String(now()) } });
    expect(onList.status).to.equal(400);
    expect(onList.body).to.deep.equal({ error: { type: 'invalid_request', message: 'Unknown parameter: asOf' } });
    const unknownCursor = await api.get(`/objects/${created.body.id}/history`, {
      query: { startingAfterId: 'nope' },
    });
    expect(unknownCursor.status).to.equal(400);
  });

  it("is a 404 for another account's or mode's object and for an unknown id, as for a missing one", async () => {
    const created = await api.post<Customer>('/customers', { json: { email: 'mine@example.com' } });
    const other = await createOtherAccount(api, service.dataDir, 'Other');
    const live = api.withKey(keys.liveSecretKey);
    const publicKey = api.withKey(keys.testPublicKey);

    for (const client of [other.api, live]) {
      const history = await client.get(`/objects/${created.body.id}/history`);
      expect(history.status).to.equal(404);
      const asOf = await client.get(`/customers/${created.body.id}`, { query: { asOf: String(now()) } });
      expect(asOf.status).to.equal(404);
    }
    for (const id of ['cust_doesnotexist', 'nonsense', 'event_unknown']) {
      const response = await api.get(`/objects/${id}/history`);
      expect(response.status, id).to.equal(404);
      expect(response.body).to.deep.equal({
        error: { type: 'invalid_request', message: `Object '${id}' does not exist` },
      });
    }
    expect((await publicKey.get(`/objects/${created.body.id}/history`)).status).to.equal(401);
  });
});
