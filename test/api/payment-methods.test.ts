import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { PaymentMethod } from '../support/payment-methods.ts';
import { createOtherAccount, eventsOf, type ApiError, type Page } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

describe('payment methods over HTTP', function () {
  this.timeout(60_000);
  const { api, service } = useService();

  const createCustomer = async (): Promise<string> =>
    (await api.post<{ id: string }>('/customers', { form: { email: 'payer@example.com' } })).body.id;

  it('creates a chargeable payment method with a client object id, readable at once and without a deleted field', async () => {
    const created = await api.post<PaymentMethod>('/payment-methods', {
      json: { type: 'alipay', billing: { name: 'Nikola Tesla', address: { city: 'Belgrade', country: 'RS' } } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const method = created.body;
    expect(method.id).to.match(/^pm_[A-Za-z0-9]{24}$/);
    expect(method.clientObjectId).to.match(/^client_pm_[A-Za-z0-9]{24}$/);
    expect(method).to.include({ objectType: 'paymentMethod', type: 'alipay', status: 'chargeable', customerId: null });
    expect(method.billing).to.deep.equal({ name: 'Nikola Tesla', address: { city: 'Belgrade', country: 'RS' } });
    expect(method).not.to.have.property('deleted');
    expect((await api.get<PaymentMethod>(`/payment-methods/${method.id}`)).body).to.deep.equal(method);
    // The spec's event catalog has no payment method types: creating one publishes nothing.
    expect(await eventsOf(api, method.id)).to.deep.equal([]);
  });

  it('refuses a type outside the documented set, a missing type and an unknown customer, and records nothing', async () => {
    const before = (await api.get<Page<PaymentMethod>>('/payment-methods', { query: { limit: '100' } })).body.list;
    const unknownType = await api.post<ApiError>('/payment-methods', { form: { type: 'bitcoin' } });
    expect(unknownType.status).to.equal(400);
    expect(unknownType.body.error.message).to.match(/^Invalid parameter: type must be one of: alipay, apple_pay/);
    const missing = await api.post<ApiError>('/payment-methods', { form: { 'billing[name]': 'A' } });
    expect(missing.status).to.equal(400);
    expect(missing.body.error.message).to.contain('type');
    const noCustomer = await api.post<ApiError>('/payment-methods', {
      form: { type: 'paypal', customerId: 'cust_doesnotexist' },
    });
    expect(noCustomer.status).to.equal(400);
    expect(noCustomer.body.error.message).to.equal("Invalid parameter: customerId 'cust_doesnotexist' does not exist");
    const after = (await api.get<Page<PaymentMethod>>('/payment-methods', { query: { limit: '100' } })).body.list;
    expect(after.map((method) => method.id)).to.deep.equal(before.map((method) => method.id));
  });

  it('soft-deletes: GET shows deleted: true and status canceled; the list hides it unless deleted=true', async () => {
    const method = (await api.post<PaymentMethod>('/payment-methods', { form: { type: 'klarna' } })).body;
    const deleted = await api.delete<{ id: string }>(`/payment-methods/${method.id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ id: method.id });
    const read = (await api.get<PaymentMethod>(`/payment-methods/${method.id}`)).body;
    expect(read).to.include({ deleted: true, status: 'canceled' });
    const live = (await api.get<Page<PaymentMethod>>('/payment-methods', { query: { limit: '100' } })).body.list;
    expect(live.map((candidate) => candidate.id)).not.to.include(method.id);
    const gone = (await api.get<Page<PaymentMethod>>('/payment-methods', { query: { deleted: 'True' } })).body.list;
    expect(gone.map((candidate) => candidate.id)).to.include(method.id);
  });

  it("lists a customer's payment methods newest first, with cursors, and refuses an unknown customer", async () => {
    const customerId = await createCustomer();
    const ids: string[] = [];
    for (const type of ['ideal', 'sofort', 'blik']) {
      ids.push((await api.post<PaymentMethod>('/payment-methods', { form: { type, customerId } })).body.id);
    }
    await api.post('/payment-methods', { form: { type: 'eps' } });
    const all = (await api.get<Page<PaymentMethod>>('/payment-methods', { query: { customerId } })).body;
    expect(all.list.map((method) => method.id)).to.deep.equal([...ids].reverse());
    const after = (
      await api.get<Page<PaymentMethod>>('/payment-methods', { query: { customerId, startingAfterId: ids[2]! } })
    ).body;
    expect(after.list.map((method) => method.id)).to.deep.equal([ids[1], ids[0]]);
    const first = (await api.get<Page<PaymentMethod>>('/payment-methods', { query: { customerId, limit: '1' } })).body;
    expect(first).to.deep.include({ hasMore: true });
    const unknown = await api.get<ApiError>('/payment-methods', { query: { customerId: 'cust_nobody' } });
    expect(unknown.status).to.equal(400);
  });

  it('answers a replayed create with the same object and refuses a reused key with other parameters', async () => {
    const key = randomUUID();
    const body = { type: 'alipay', billing: { name: 'Nikola Tesla' } };
    const first = await api.post<PaymentMethod>('/payment-methods', {
      json: body,
      headers: { 'Idempotency-Key': key },
    });
    const again = await api.post<PaymentMethod>('/payment-methods', {
      json: body,
      headers: { 'Idempotency-Key': key },
    });
    expect(again.body.id).to.equal(first.body.id);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    const other = await api.post<ApiError>('/payment-methods', {
      json: { ...body, type: 'apple_pay' },
      headers: { 'Idempotency-Key': key },
    });
    expect(other.status).to.equal(400);
    expect(other.body.error).to.deep.include({
      type: 'invalid_request',
      message: 'Idempotent key used for request with different parameters.',
    });
    const withoutKey = await api.post<PaymentMethod>('/payment-methods', { json: body });
    expect(withoutKey.body.id).not.to.equal(first.body.id);
  });

  it("is invisible to another account: another tenant's payment method is a 404", async () => {
    const method = (await api.post<PaymentMethod>('/payment-methods', { form: { type: 'paypal' } })).body;
    const other = await createOtherAccount(api, service.dataDir, 'Other shop');
    expect((await other.api.get(`/payment-methods/${method.id}`)).status).to.equal(404);
    expect((await other.api.delete(`/payment-methods/${method.id}`)).status).to.equal(404);
    expect((await api.get<PaymentMethod>(`/payment-methods/${method.id}`)).body).not.to.have.property('deleted');
  });
});
