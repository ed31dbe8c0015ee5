import { expect } from 'chai';
import {
  cardDetails,
  type ApiError,
  type Card,
  type Charge,
  type Customer,
  type Page,
  type Token,
} from '../support/payments.ts';
import { useService } from '../support/use-service.ts';
import { createPlan, type Subscription } from '../support/subscriptions.ts';

/** What the official client libraries send and expect, where it differs from the spec's letter. */
describe('what client libraries send and read back', function () {
  this.timeout(60_000);
  const { api } = useService();

  const newCustomer = async (fields: Record<string, unknown> = {}): Promise<Customer> => {
    const response = await api.post<Customer>('/customers', { json: { email: 'client@example.com', ...fields } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };

  it('answers expMonth exactly as sent and a two-digit expYear in four digits: cards, tokens, charges, customers', async () => {
    const sent = cardDetails('4242424242424242', { expMonth: '05', expYear: '55' });
    const customer = await newCustomer();
    const card = (await api.post<Card>(`/customers/${customer.id}/cards`, { json: sent })).body;
    expect(card).to.include({ expMonth: '05', expYear: '2055' });
    const token = (await api.post<Token>('/tokens', { json: sent })).body;
    expect(token).to.include({ expMonth: '05', expYear: '2055' });
    const charge = (await api.post<Charge>('/charges', { json: { amount: 100, currency: 'EUR', card: sent } })).body;
    expect(charge.card).to.include({ expMonth: '05', expYear: '2055' });
    const embedded = (await api.get<Customer>(`/customers/${customer.id}`)).body.cards[0]!;
    expect(embedded).to.include({ expMonth: '05', expYear: '2055' });
    const unpadded = (
      await api.post<Card>(`/customers/${customer.id}/cards/${card.id}`, { form: { expMonth: '7', expYear: '2056' } })
    ).body;
    expect(unpadded).to.include({ expMonth: '7', expYear: '2056' });
    const padded = (await api.post<Card>(`/customers/${customer.id}/cards/${card.id}`, { form: { expMonth: '09' } }))
      .body;
    expect(padded).to.include({ expMonth: '09', expYear: '2056' });
  });

  it('keeps card addressCountry as the free text sent, up to 255 characters, on create and update', async () => {
    const customer = await newCustomer();
    const created = await api.post<Card>(`/customers/${customer.id}/cards`, {
      json: cardDetails('4242424242424242', { addressCountry: 'Deutschland' }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.addressCountry).to.equal('Deutschland');
    const updated = await api.post<Card>(`/customers/${customer.id}/cards/${created.body.id}`, {
      form: { addressCountry: 'updated addressCountry' },
    });
    expect(updated.body.addressCountry).to.equal('updated addressCountry');
    const tooLong = await api.post<ApiError>(`/customers/${customer.id}/cards/${created.body.id}`, {
      form: { addressCountry: 'x'.repeat(256) },
    });
    expect(tooLong.status).to.equal(400);
    expect(tooLong.body.error.message).to.equal(
      'Invalid parameter: addressCountry must be at most 255 characters long',
    );
    // The spec's address object keeps its two-letter country.
    const badAddress = await api.post<ApiError>('/charges', {
      json: {
        amount: 100,
        currency: 'EUR',
        card: cardDetails('4242424242424242'),
        billing: { address: { country: 'Deutschland' } },
      },
    });
    expect(badAddress.status).to.equal(400);
  });

  it('reads True and False in a query string like true and false', async () => {
    const customer = await newCustomer({ email: 'gone@example.com' });
    await api.delete(`/customers/${customer.id}`);
    const deleted = (await api.get<Page<Customer>>('/customers', { query: { deleted: 'True' } })).body.list;
    expect(deleted.map((candidate) => candidate.id)).to.include(customer.id);
    const live = (await api.get<Page<Customer>>('/customers', { query: { deleted: 'False' } })).body.list;
    expect(live.map((candidate) => candidate.id)).not.to.include(customer.id);
    expect((await api.get('/customers', { query: { deleted: 'TRUE' } })).status).to.equal(400);
  });

  it('leaves shipping and billing out of a subscription until they are set', async () => {
    const plan = await createPlan(api);
    const customer = await newCustomer({ card: cardDetails('4242424242424242') });
    const created = (
      await api.post<Subscription>('/subscriptions', { json: { planId: plan.id, customerId: customer.id } })
    ).body;
    expect(created).not.to.have.any.keys('shipping', 'billing');
    const shipping = { name: 'Updated shipping', address: { line1: 'Main 1', city: 'Bern', country: 'CH' } };
    const updated = (await api.post<Subscription>(`/subscriptions/${created.id}`, { json: { shipping } })).body;
    expect((updated as unknown as { shipping: unknown }).shipping).to.deep.equal(shipping);
    expect(updated).not.to.have.property('billing');
  });

  it('creates a subscription with card for a customer without a default card: the card is saved and charged', async () => {
    const plan = await createPlan(api, { amount: 1500 });
    for (const card of [
      cardDetails('4242424242424242'),
      (await api.post<Token>('/tokens', { json: cardDetails('5555555555554444') })).body.id,
    ]) {
      const customer = await newCustomer();
      const created = await api.post<Subscription>(`/customers/${customer.id}/subscriptions`, {
        json: { planId: plan.id, card },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.status).to.equal('active');
      const after = (await api.get<Customer>(`/customers/${customer.id}`)).body;
      expect(after.cards).to.have.length(1);
      expect(after.defaultCardId).to.equal(after.cards[0]!.id);
      const charges = (await api.get<Page<Charge>>('/charges', { query: { customerId: customer.id } })).body.list;
      expect(charges.map((charge) => [charge.amount, charge.card.id])).to.deep.equal([[1500, after.defaultCardId]]);
    }
    // A refused subscription saves no card.
    const customer = await newCustomer();
    const refused = await api.post<ApiError>(`/customers/${customer.id}/subscriptions`, {
      json: { planId: 'plan_doesnotexist', card: cardDetails('4242424242424242') },
    });
    expect(refused.status).to.equal(400);
    expect((await api.get<Customer>(`/customers/${customer.id}`)).body.cards).to.deep.equal([]);
  });

  it('tells how much of a charge was refunded: amountRefunded, with refunded true only once all of it is', async () => {
    const charge = (
      await api.post<Charge>('/charges', {
        json: { amount: 1000, currency: 'EUR', card: cardDetails('4242424242424242') },
      })
    ).body;
    expect(charge).to.include({ amountRefunded: 0, refunded: false });
    const partly = (await api.post<Charge>(`/charges/${charge.id}/refund`, { json: { amount: 400 } })).body;
    expect(partly).to.include({ amountRefunded: 400, refunded: false });
    const fully = (await api.post<Charge>(`/charges/${charge.id}/refund`)).body;
    expect(fully).to.include({ amountRefunded: 1000, refunded: true });
  });

  it('names every missing required parameter in one format, as clients print it', async () => {
    const missing = async (path: string, json: Record<string, unknown>) =>
      (await api.post<ApiError>(path, { json })).body.error.message;
    expect(await missing('/customers', {})).to.equal('email: Must not be empty.');
    expect(await missing('/plans', { amount: 100, currency: 'EUR', interval: 'month' })).to.equal(
      'name: Must not be empty.',
    );
    expect(await missing('/charges', { currency: 'EUR', card: cardDetails('4242424242424242') })).to.equal(
      'amount: Must not be empty.',
    );
    expect(await missing('/payment-methods', {})).to.equal('type: Must not be empty.');
    expect(await missing('/charges', { amount: 100, currency: 'EUR', paymentMethod: { type: 'ideal' } })).to.equal(
      'flow[returnUrl]: Must not be empty.',
    );
  });
});
