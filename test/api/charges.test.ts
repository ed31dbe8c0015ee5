import { expect } from 'chai';
import {
  cardDetails,
  cardForm,
  createOtherAccount,
  eventsOf,
  type ApiError,
  type Card,
  type Charge,
  type Customer,
  type Page,
  type Refund,
} from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

describe('charges and refunds over HTTP', function () {
  this.timeout(60_000);
  const { api, service } = useService();

  const newCharge = async (extra: Record<string, unknown> = {}, number = '4242424242424242'): Promise<Charge> => {
    const response = await api.post<Charge>('/charges', {
      json: { amount: 1000, currency: 'EUR', card: cardDetails(number), ...extra },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  const newCustomer = async (email: string, extra: Record<string, unknown> = {}): Promise<Customer> => {
    const response = await api.post<Customer>('/customers', { json: { email, ...extra } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  const getCharge = async (id: string): Promise<Charge> => (await api.get<Charge>(`/charges/${id}`)).body;
  const expectBadRequest = (response: { status: number; body: unknown }, message: RegExp) => {
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body).to.have.nested.property('error.type', 'invalid_request');
    expect((response.body as ApiError).error.message).to.match(message);
  };

  it('creates the same charge from a JSON and a form body, readable at once', async () => {
    const json = await api.post<Charge>('/charges', {
      json: {
        amount: 2599,
        currency: 'usd',
        description: 'Order 1',
        type: 'customer_initiated',
        card: cardDetails('5555555555554444', { cardholderName: 'Jane Doe' }),
        billing: { name: 'Jane Doe', address: { line1: 'Main St 1', city: 'Warsaw', country: 'PL' } },
        shipping: { name: 'Jane Doe', phone: '+48123' },
        metadata: { order: '1' },
      },
    });
    const form = await api.post<Charge>('/charges', {
      form: {
        amount: '2599',
        currency: 'usd',
        description: 'Order 1',
        type: 'customer_initiated',
        ...cardForm('card', '5555555555554444', { cardholderName: 'Jane Doe' }),
        'billing[name]': 'Jane Doe',
        'billing[address][line1]': 'Main St 1',
        'billing[address][city]': 'Warsaw',
        'billing[address][country]': 'PL',
        'shipping[name]': 'Jane Doe',
        'shipping[phone]': '+48123',
        'metadata[order]': '1',
      },
    });
    expect(json.status, JSON.stringify(json.body)).to.equal(200);
    expect(form.status, JSON.stringify(form.body)).to.equal(200);
    const comparable = (charge: Charge) => ({
      ...charge,
      id: undefined,
      created: undefined,
      card: { ...charge.card, id: undefined, created: undefined },
    });
    expect(comparable(form.body)).to.deep.equal(comparable(json.body));
    expect(json.body).to.include({
      amount: 2599,
      currency: 'USD',
      description: 'Order 1',
      status: 'successful',
      captured: true,
      customerId: null,
    });
    expect(json.body.metadata).to.deep.equal({ order: '1' });
    expect(json.body.id).to.match(/^char_[A-Za-z0-9]{24}$/);
    expect(json.body.card).to.include({ brand: 'MasterCard', cardholderName: 'Jane Doe', last4: '4444' });
    expect(json.body.avsCheck).to.deep.equal({ result: 'partial_match' });
    expect(json.body.created).to.be.within(Math.floor(Date.now() / 1000) - 60, Math.floor(Date.now() / 1000) + 1);
    for (const response of [json, form]) expect(await getCharge(response.body.id)).to.deep.equal(response.body);
  });

  it('replays a charge, declined or not, for a repeated Idempotency-Key instead of charging again', async () => {
    const key = `charge-${Date.now()}`;
    const body = { amount: 1234, currency: 'EUR', card: cardDetails('4242424242424242'), description: key };
    const [first, second] = await Promise.all(
      [0, 1].map(() => api.post<Charge>('/charges', { json: body, headers: { 'idempotency-key': key } })),
    );
    expect(first!.status).to.equal(200);
    expect(second!.body).to.deep.equal(first!.body);
    const listed = (await api.get<Page<Charge>>('/charges', { query: { limit: '100' } })).body.list.filter(
      (charge) => charge.description === key,
    );
    expect(listed.map((charge) => charge.id)).to.deep.equal([first!.body.id]);

    const declinedBody = { amount: 1234, currency: 'EUR', card: cardDetails('4000000000000002') };
    const declined = await api.post<ApiError>('/charges', {
      json: declinedBody,
      headers: { 'idempotency-key': `${key}-declined` },
    });
    const replayed = await api.post<ApiError>('/charges', {
      json: declinedBody,
      headers: { 'idempotency-key': `${key}-declined` },
    });
    expect(declined.status).to.equal(402);
    expect(replayed.status).to.equal(402);
    expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
    expect(replayed.body.error.chargeId).to.equal(declined.body.error.chargeId);
  });

  describe('capture', () => {
    it('captures an authorization once; a second capture is a 400', async () => {
      const authorized = await api.post<Charge>('/charges', {
        form: { amount: '1000', currency: 'EUR', captured: 'false', ...cardForm('card', '4242424242424242') },
      });
      expect(authorized.status).to.equal(200);
      expect(authorized.body).to.include({ status: 'successful', captured: false });

      const captured = await api.post<Charge>(`/charges/${authorized.body.id}/capture`);
      expect(captured.status, JSON.stringify(captured.body)).to.equal(200);
      expect(captured.body).to.deep.equal({ ...authorized.body, captured: true });
      expect(await getCharge(authorized.body.id)).to.deep.equal(captured.body);

      expectBadRequest(await api.post(`/charges/${authorized.body.id}/capture`), /already been captured/);
      expect((await getCharge(authorized.body.id)).captured).to.equal(true);
    });

    it('a captured charge (captured omitted) cannot be captured again', async () => {
      const charge = await newCharge();
      expectBadRequest(await api.post(`/charges/${charge.id}/capture`), /already been captured/);
    });

    it('a failed charge cannot be captured', async () => {
      const declined = await api.post<ApiError>('/charges', {
        json: { amount: 1000, currency: 'EUR', captured: false, card: cardDetails('4000000000000002') },
      });
      expect(declined.status).to.equal(402);
      const chargeId = declined.body.error.chargeId!;
      expectBadRequest(await api.post(`/charges/${chargeId}/capture`), /failed/);
      expect(await getCharge(chargeId)).to.include({ status: 'failed', captured: false });
    });

    it('an uncaptured charge cannot be refunded until it is captured', async () => {
      const authorized = await newCharge({ captured: false });
      expectBadRequest(
        await api.post(`/charges/${authorized.id}/refund`, { json: { amount: 100 } }),
        /not been captured/,
      );
      expectBadRequest(await api.post('/refunds', { json: { chargeId: authorized.id } }), /not been captured/);
      expect((await getCharge(authorized.id)).refunds).to.deep.equal([]);
      await api.post(`/charges/${authorized.id}/capture`);
      expect(
        (await api.post<Charge>(`/charges/${authorized.id}/refund`, { json: { amount: 100 } })).body.refunds,
      ).to.have.length(1);
    });

    it('a failed charge cannot be refunded', async () => {
      const declined = await api.post<ApiError>('/charges', {
        json: { amount: 1000, currency: 'EUR', card: cardDetails('4000000000009995') },
      });
      expectBadRequest(await api.post(`/charges/${declined.body.error.chargeId}/refund`), /failed/);
    });
  });

  describe('refunds', () => {
    it('refunds partially through both paths until fully refunded, never more than what is left', async () => {
      const charge = await newCharge();

      const first = await api.post<Charge>(`/charges/${charge.id}/refund`, { form: { amount: '300' } });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body).to.include({ id: charge.id, refunded: false, amount: 1000 });
      expect(first.body.refunds).to.have.length(1);
      expect(first.body.refunds[0]).to.include({
        amount: 300,
        currency: 'EUR',
        objectType: 'refund',
        charge: charge.id,
        status: 'successful',
      });
      expect(first.body.refunds[0]!.created).to.be.a('number');

      const second = await api.post<Refund>('/refunds', {
        json: { chargeId: charge.id, amount: 200, reason: 'fraudulent', metadata: { ticket: 'T-1' } },
      });
      expect(second.status, JSON.stringify(second.body)).to.equal(200);
      expect(second.body).to.include({
        objectType: 'refund',
        amount: 200,
        currency: 'EUR',
        charge: charge.id,
        reason: 'fraudulent',
        status: 'successful',
      });
      expect(second.body.id).to.match(/^re_/);
      expect(second.body.metadata).to.deep.equal({ ticket: 'T-1' });

      expectBadRequest(await api.post(`/charges/${charge.id}/refund`, { json: { amount: 501 } }), /amount/);
      expectBadRequest(await api.post('/refunds', { json: { chargeId: charge.id, amount: 501 } }), /amount/);

      // No amount: everything that is left.
      const rest = await api.post<Refund>('/refunds', { form: { chargeId: charge.id } });
      expect(rest.status, JSON.stringify(rest.body)).to.equal(200);
      expect(rest.body.amount).to.equal(500);

      const refunded = await getCharge(charge.id);
      expect(refunded.refunded).to.equal(true);
      expect(refunded.refunds.map((refund) => refund.amount)).to.deep.equal([300, 200, 500]);
      expect(refunded.refunds[1]).to.deep.equal(second.body);
      for (const refund of refunded.refunds) expect(refund).to.include.keys('id', 'amount', 'currency', 'created');

      expectBadRequest(await api.post(`/charges/${charge.id}/refund`, { json: { amount: 1 } }), /fully refunded/);
      expectBadRequest(await api.post(`/charges/${charge.id}/refund`), /fully refunded/);
      expect((await getCharge(charge.id)).refunds).to.have.length(3);
    });

    it('refunds everything with no amount through the charge path', async () => {
      const charge = await newCharge();
      const refunded = await api.post<Charge>(`/charges/${charge.id}/refund`);
      expect(refunded.status).to.equal(200);
      expect(refunded.body.refunded).to.equal(true);
      expect(refunded.body.refunds.map((refund) => refund.amount)).to.deep.equal([1000]);
    });

    it('lists, reads and updates refunds', async () => {
      const charge = await newCharge();
      const a = (await api.post<Refund>('/refunds', { json: { chargeId: charge.id, amount: 100 } })).body;
      const b = (await api.post<Refund>('/refunds', { json: { chargeId: charge.id, amount: 150 } })).body;
      const other = await newCharge();
      await api.post('/refunds', { json: { chargeId: other.id, amount: 10 } });

      const listed = await api.get<Page<Refund>>('/refunds', { query: { chargeId: charge.id } });
      expect(listed.status).to.equal(200);
      expect(listed.body.list.map((refund) => refund.id)).to.deep.equal([b.id, a.id]);
      expect(listed.body.hasMore).to.equal(false);
      const paged = await api.get<Page<Refund>>('/refunds', { query: { chargeId: charge.id, limit: '1' } });
      expect(paged.body).to.deep.equal({ list: [listed.body.list[0]], hasMore: true });

      expectBadRequest(await api.get('/refunds'), /chargeId: Must not be empty\./);
      expectBadRequest(await api.get('/refunds', { query: { chargeId: 'char_doesnotexist' } }), /chargeId/);

      const read = await api.get<Refund>(`/refunds/${a.id}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(a);
      expect((await api.get(`/refunds/re_doesnotexist`)).status).to.equal(404);

      const updated = await api.post<Refund>(`/refunds/${a.id}`, { json: { metadata: { note: 'customer called' } } });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
      expect(updated.body).to.deep.equal({ ...a, metadata: { note: 'customer called' } });
      expect((await api.get<Refund>(`/refunds/${a.id}`)).body).to.deep.equal(updated.body);
      expect((await getCharge(charge.id)).refunds.find((refund) => refund.id === a.id)).to.deep.equal(updated.body);
      expectBadRequest(await api.post(`/refunds/${a.id}`, { json: { amount: 5 } }), /Unknown parameter: amount/);
    });

    it('answers a refund of an unknown charge with 400 (POST /refunds) and 404 (charge path)', async () => {
      expectBadRequest(await api.post('/refunds', { json: { chargeId: 'char_doesnotexist', amount: 1 } }), /chargeId/);
      expectBadRequest(await api.post('/refunds', { json: { amount: 1 } }), /chargeId: Must not be empty\./);
      expect((await api.post('/charges/char_doesnotexist/refund')).status).to.equal(404);
    });
  });

  describe('update', () => {
    it('changes description, metadata and fraudDetails status; an unchanged update changes nothing', async () => {
      const charge = await newCharge({ description: 'before', metadata: { a: '1' } });
      const updated = await api.post<Charge>(`/charges/${charge.id}`, {
        form: { description: 'after', 'metadata[b]': '2', 'fraudDetails[status]': 'suspicious' },
      });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
      expect(updated.body).to.deep.equal({
        ...charge,
        description: 'after',
        metadata: { b: '2' },
        fraudDetails: { ...charge.fraudDetails, status: 'suspicious' },
      });
      expect(await getCharge(charge.id)).to.deep.equal(updated.body);

      const same = await api.post<Charge>(`/charges/${charge.id}`, { json: { description: 'after' } });
      expect(same.body).to.deep.equal(updated.body);
      expect((await eventsOf(api, charge.id)).map((event) => event.type)).to.deep.equal([
        'CHARGE_UPDATED',
        'CHARGE_SUCCEEDED',
      ]);

      expectBadRequest(
        await api.post(`/charges/${charge.id}`, { json: { fraudDetails: { status: 'evil' } } }),
        /fraudDetails\[status\]/,
      );
      expectBadRequest(await api.post(`/charges/${charge.id}`, { json: { amount: 5 } }), /Unknown parameter: amount/);
      expect((await api.post('/charges/char_doesnotexist', { json: { description: 'x' } })).status).to.equal(404);
    });

    it('assigns an unassigned successful charge to a customer once: its card becomes the default card', async () => {
      const customer = await newCustomer('assign@example.com');
      const other = await newCustomer('other-assign@example.com');
      const charge = await newCharge();

      const assigned = await api.post<Charge>(`/charges/${charge.id}`, { json: { customerId: customer.id } });
      expect(assigned.status, JSON.stringify(assigned.body)).to.equal(200);
      expect(assigned.body.customerId).to.equal(customer.id);
      expect(assigned.body.card.customerId).to.equal(customer.id);

      const owner = (await api.get<Customer>(`/customers/${customer.id}`)).body;
      expect(owner.defaultCardId).to.equal(charge.card.id);
      expect(owner.cards.map((card) => card.id)).to.deep.equal([charge.card.id]);
      const saved = await api.get<Card>(`/customers/${customer.id}/cards/${charge.card.id}`);
      expect(saved.status).to.equal(200);
      expect(saved.body).to.include({ last4: '4242', fingerprint: charge.card.fingerprint, customerId: customer.id });

      // The same customer again changes nothing; another customer is refused.
      expect((await api.post<Charge>(`/charges/${charge.id}`, { json: { customerId: customer.id } })).status).to.equal(
        200,
      );
      expectBadRequest(await api.post(`/charges/${charge.id}`, { json: { customerId: other.id } }), /already assigned/);
      expect((await getCharge(charge.id)).customerId).to.equal(customer.id);
      expect((await api.get<Customer>(`/customers/${other.id}`)).body.cards).to.deep.equal([]);
      expectBadRequest(
        await api.post(`/charges/${(await newCharge()).id}`, { json: { customerId: 'cust_doesnotexist' } }),
        /customerId/,
      );

      const byCustomer = await api.get<Page<Charge>>('/charges', { query: { customerId: customer.id } });
      expect(byCustomer.body.list.map((listed) => listed.id)).to.deep.equal([charge.id]);
      // The customer can now be charged with that card by default.
      const again = await api.post<Charge>('/charges', {
        json: { amount: 100, currency: 'EUR', customerId: customer.id },
      });
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(again.body.card.id).to.equal(charge.card.id);
    });

    it('assigning a failed charge to a customer saves no card', async () => {
      const customer = await newCustomer('assign-failed@example.com');
      const declined = await api.post<ApiError>('/charges', {
        json: { amount: 1000, currency: 'EUR', card: cardDetails('4000000000000002') },
      });
      const assigned = await api.post<Charge>(`/charges/${declined.body.error.chargeId}`, {
        json: { customerId: customer.id },
      });
      expect(assigned.status, JSON.stringify(assigned.body)).to.equal(200);
      expect(assigned.body.customerId).to.equal(customer.id);
      expect((await api.get<Customer>(`/customers/${customer.id}`)).body).to.include({ defaultCardId: null });
    });
  });

  describe('customers and their cards', () => {
    it('a successful charge with customerId and a new card saves the card as the default; the customer then pays with it', async () => {
      const customer = await newCustomer('new-card@example.com', { card: cardDetails('5555555555554444') });
      const firstCardId = customer.defaultCardId!;
      const charge = await newCharge({ customerId: customer.id }, '4000056655665556');
      expect(charge.customerId).to.equal(customer.id);
      expect(charge.card).to.include({ customerId: customer.id, last4: '5556' });

      const after = (await api.get<Customer>(`/customers/${customer.id}`)).body;
      expect(after.defaultCardId).to.equal(charge.card.id);
      expect(after.cards.map((card) => card.id)).to.deep.equal([charge.card.id, firstCardId]);

      const byDefault = await api.post<Charge>('/charges', {
        json: { amount: 700, currency: 'EUR', customerId: customer.id },
      });
      expect(byDefault.status, JSON.stringify(byDefault.body)).to.equal(200);
      expect(byDefault.body.card.id).to.equal(charge.card.id);
      expect(byDefault.body.card.last4).to.equal('5556');
      const byId = await api.post<Charge>('/charges', {
        json: { amount: 700, currency: 'EUR', customerId: customer.id, card: firstCardId },
      });
      expect(byId.status).to.equal(200);
      expect(byId.body.card).to.include({ id: firstCardId, last4: '4444' });
      // Charging a saved card does not add it again nor change the default.
      const unchanged = (await api.get<Customer>(`/customers/${customer.id}`)).body;
      expect(unchanged.defaultCardId).to.equal(charge.card.id);
      expect(unchanged.cards).to.have.length(2);

      const listed = await api.get<Page<Charge>>('/charges', { query: { customerId: customer.id } });
      expect(listed.body.list.map((listedCharge) => listedCharge.id)).to.deep.equal([
        byId.body.id,
        byDefault.body.id,
        charge.id,
      ]);
    });

    it('a declined charge with customerId and a new card saves nothing', async () => {
      const customer = await newCustomer('declined-card@example.com');
      const declined = await api.post<ApiError>('/charges', {
        json: { amount: 1000, currency: 'EUR', customerId: customer.id, card: cardDetails('4000000000000002') },
      });
      expect(declined.status).to.equal(402);
      expect((await getCharge(declined.body.error.chargeId!)).customerId).to.equal(customer.id);
      expect((await api.get<Customer>(`/customers/${customer.id}`)).body).to.include({ defaultCardId: null });
    });

    it("refuses another customer's card, a customer without a card and a card id without a customer", async () => {
      const owner = await newCustomer('owner@example.com', { card: cardDetails('4242424242424242') });
      const stranger = await newCustomer('stranger@example.com', { card: cardDetails('5555555555554444') });
      expectBadRequest(
        await api.post('/charges', {
          json: { amount: 100, currency: 'EUR', customerId: stranger.id, card: owner.defaultCardId },
        }),
        /card/,
      );
      expectBadRequest(
        await api.post('/charges', { json: { amount: 100, currency: 'EUR', card: owner.defaultCardId } }),
        /customerId/,
      );
      const empty = await newCustomer('empty@example.com');
      expectBadRequest(
        await api.post('/charges', { json: { amount: 100, currency: 'EUR', customerId: empty.id } }),
        /default card/,
      );
      expectBadRequest(
        await api.post('/charges', { json: { amount: 100, currency: 'EUR', customerId: 'cust_doesnotexist' } }),
        /customerId/,
      );
      expectBadRequest(
        await api.post('/charges', { json: { amount: 100, currency: 'EUR' } }),
        /^card: Must not be empty\. Give card, or customerId/,
      );
      const listed = await api.get<Page<Charge>>('/charges', { query: { customerId: stranger.id } });
      expect(listed.body.list).to.deep.equal([]);
      expectBadRequest(await api.get('/charges', { query: { customerId: 'cust_doesnotexist' } }), /customerId/);
    });
  });

  describe('validation', () => {
    it('answers bad parameters with 400 naming them, and records no charge', async () => {
      const before = (await api.get<Page<Charge>>('/charges', { query: { limit: '1' } })).body.list[0]?.id;
      const card = cardDetails('4242424242424242');
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ amount: 1000, currency: 'XYZ', card }, /currency/],
        [{ amount: 1000, currency: 'EURO', card }, /currency/],
        [{ amount: 0, currency: 'EUR', card }, /amount/],
        [{ amount: -5, currency: 'EUR', card }, /amount/],
        [{ amount: 100_000_000, currency: 'EUR', card }, /amount/],
        [{ amount: 10.5, currency: 'EUR', card }, /amount/],
        [{ amount: '10.5', currency: 'EUR', card }, /amount/],
        [{ currency: 'EUR', card }, /amount: Must not be empty\./],
        [{ amount: 1000, card }, /currency: Must not be empty\./],
        [{ amount: 1000, currency: 'EUR', card, colour: 'red' }, /Unknown parameter: colour/],
        [{ amount: 1000, currency: 'EUR', card: { ...card, colour: 'red' } }, /card/],
        [{ amount: 1000, currency: 'EUR', card, captured: 'maybe' }, /captured/],
        [{ amount: 1000, currency: 'EUR', card, type: 'whenever' }, /type/],
        [{ amount: 1000, currency: 'EUR', card, metadata: { k: 'v'.repeat(256) } }, /metadata/],
        [{ amount: 1000, currency: 'EUR', card: 'nonsense' }, /card/],
      ];
      for (const [body, message] of cases) expectBadRequest(await api.post('/charges', { json: body }), message);
      expectBadRequest(
        await api.post('/charges', {
          form: { amount: '99.99', currency: 'EUR', ...cardForm('card', '4242424242424242') },
        }),
        /amount/,
      );
      expectBadRequest(
        await api.post('/charges', {
          form: { amount: '1000', currency: 'EUR', ...cardForm('card', '4242424242424242'), 'card[colour]': 'red' },
        }),
        /card/,
      );
      expect((await api.post('/charges', { json: { amount: 99_999_999, currency: 'EUR', card } })).status).to.equal(
        200,
      );
      const after = (await api.get<Page<Charge>>('/charges', { query: { limit: '2' } })).body.list;
      expect(after[0]!.amount).to.equal(99_999_999);
      expect(after[1]?.id).to.equal(before);
    });

    it('keeps a zero-decimal currency amount in whole units', async () => {
      const yen = await newCharge({ currency: 'JPY', amount: 500 });
      expect(yen).to.include({ amount: 500, currency: 'JPY' });
    });
  });

  it("keeps accounts apart: another account's charge and refund are a 404", async () => {
    const { api: otherApi } = await createOtherAccount(api, service.dataDir, 'Other shop');
    const mine = await newCharge({ captured: false });
    expect((await otherApi.get(`/charges/${mine.id}`)).status).to.equal(404);
    expect((await otherApi.post(`/charges/${mine.id}`, { json: { description: 'x' } })).status).to.equal(404);
    expect((await otherApi.post(`/charges/${mine.id}/capture`)).status).to.equal(404);
    expect((await otherApi.post(`/charges/${mine.id}/refund`, { json: { amount: 1 } })).status).to.equal(404);
    expectBadRequest(await otherApi.post('/refunds', { json: { chargeId: mine.id, amount: 1 } }), /chargeId/);
    expect(
      (await otherApi.get<Page<Charge>>('/charges', { query: { limit: '100' } })).body.list.map((charge) => charge.id),
    ).to.not.include(mine.id);

    await api.post(`/charges/${mine.id}/capture`);
    const refund = (await api.post<Refund>('/refunds', { json: { chargeId: mine.id, amount: 1 } })).body;
    expect((await otherApi.get(`/refunds/${refund.id}`)).status).to.equal(404);
    expect((await otherApi.post(`/refunds/${refund.id}`, { json: { metadata: { a: 'b' } } })).status).to.equal(404);
    expect((await api.withKey(service.keys!.liveSecretKey).get(`/charges/${mine.id}`)).status).to.equal(404);

    const theirs = await otherApi.post<Charge>('/charges', {
      json: { amount: 100, currency: 'EUR', card: cardDetails('4242424242424242') },
    });
    expect(theirs.status).to.equal(200);
    expect((await api.get(`/charges/${theirs.body.id}`)).status).to.equal(404);
    const unchanged = await getCharge(mine.id);
    expect(unchanged).to.include({ captured: true, description: null });
    expect(unchanged.refunds.map((entry) => entry.amount)).to.deep.equal([1]);
  });

  describe('public events', () => {
    it('emits CHARGE_SUCCEEDED, CHARGE_UPDATED, CHARGE_CAPTURED and CHARGE_REFUNDED with the charge as it stood', async () => {
      const created = await newCharge({ captured: false });
      const updated = (await api.post<Charge>(`/charges/${created.id}`, { json: { metadata: { step: 'updated' } } }))
        .body;
      const captured = (await api.post<Charge>(`/charges/${created.id}/capture`)).body;
      const partly = (await api.post<Charge>(`/charges/${created.id}/refund`, { json: { amount: 400 } })).body;
      await api.post('/refunds', { json: { chargeId: created.id } });
      const refunded = await getCharge(created.id);

      const events = await eventsOf<Charge>(api, created.id);
      expect(events.map((event) => event.type)).to.deep.equal([
        'CHARGE_REFUNDED',
        'CHARGE_REFUNDED',
        'CHARGE_CAPTURED',
        'CHARGE_UPDATED',
        'CHARGE_SUCCEEDED',
      ]);
      expect(events.map((event) => event.data)).to.deep.equal([refunded, partly, captured, updated, created]);
      for (const event of events) {
        expect(event.id).to.match(/^event_/);
        expect(event.objectType).to.equal('event');
        expect((await api.get(`/events/${event.id}`)).body).to.deep.equal(event);
      }
      const onlyCaptures = await api.get<Page<{ type: string; data: Charge }>>('/events', {
        query: { type: 'CHARGE_CAPTURED' },
      });
      expect(onlyCaptures.body.list.map((event) => event.type))
        .to.include('CHARGE_CAPTURED')
        .and.not.include('CHARGE_SUCCEEDED');
    });

    it('emits CHARGE_FAILED with the failed charge', async () => {
      const declined = await api.post<ApiError>('/charges', {
        json: { amount: 1000, currency: 'EUR', card: cardDetails('4000000000009987') },
      });
      const failed = await getCharge(declined.body.error.chargeId!);
      const events = await eventsOf<Charge>(api, failed.id);
      expect(events.map((event) => event.type)).to.deep.equal(['CHARGE_FAILED']);
      expect(events[0]!.data).to.deep.equal(failed);
    });
  });
});
