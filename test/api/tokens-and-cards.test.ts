import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import {
  cardDetails,
  cardForm,
  createOtherAccount,
  eventsOf,
  FUTURE_YEAR,
  type ApiError,
  type Card,
  type Charge,
  type Customer,
  type Page,
  type Token,
} from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

describe('tokens and saved cards over HTTP', function () {
  this.timeout(60_000);
  const { api, service } = useService();
  let publicApi: ApiClient;

  before(async () => {
    publicApi = api.withKey(service.keys!.testPublicKey);
  });

  const newToken = async (number = '4242424242424242', extra: Record<string, string> = {}): Promise<Token> => {
    const response = await publicApi.post<Token>('/tokens', { json: cardDetails(number, extra) });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  const newCustomer = async (email: string, extra: Record<string, unknown> = {}): Promise<Customer> => {
    const response = await api.post<Customer>('/customers', { json: { email, ...extra } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  const addCard = async (customerId: string, body: Record<string, unknown>): Promise<Card> => {
    const response = await api.post<Card>(`/customers/${customerId}/cards`, { json: body });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  const getCustomer = async (id: string): Promise<Customer> => (await api.get<Customer>(`/customers/${id}`)).body;
  const expectBadRequest = (response: { status: number; body: unknown }, message: RegExp) => {
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body).to.have.nested.property('error.type', 'invalid_request');
    expect((response.body as ApiError).error.message).to.match(message);
  };

  describe('tokens', () => {
    it('creates a token with the public key (JSON or form) or the secret key, readable with the secret key', async () => {
      const fromJson = await publicApi.post<Token>('/tokens', {
        json: cardDetails('4000056655665556', { cardholderName: 'Jane Doe' }),
      });
      const fromForm = await publicApi.post<Token>('/tokens', {
        form: cardForm('', '4000056655665556', { cardholderName: 'Jane Doe' }),
      });
      const withSecret = await api.post<Token>('/tokens', {
        json: cardDetails('4000056655665556', { cardholderName: 'Jane Doe' }),
      });
      for (const response of [fromJson, fromForm, withSecret]) {
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        expect(response.body).to.include({
          objectType: 'token',
          first6: '400005',
          last4: '5556',
          expMonth: '12',
          expYear: FUTURE_YEAR,
          cardholderName: 'Jane Doe',
          brand: 'Visa',
          type: 'Debit Card',
          country: 'GB',
          used: false,
        });
        expect(response.body.id).to.match(/^tok_[A-Za-z0-9]{24}$/);
        expect(response.body).to.not.have.property('card');
        expect(response.body).to.not.have.any.keys('number', 'cvc');
        const read = await api.get<Token>(`/tokens/${response.body.id}`);
        expect(read.status).to.equal(200);
        expect(read.body).to.deep.equal(response.body);
      }
      expect(fromJson.body.fingerprint).to.equal(fromForm.body.fingerprint).and.equal(withSecret.body.fingerprint);
      expect((await publicApi.get(`/tokens/${fromJson.body.id}`)).status).to.equal(401);
      expect((await api.post('/tokens', { json: cardDetails('4242424242424242'), key: null })).status).to.equal(401);
      expect((await api.get('/tokens/tok_doesnotexist')).status).to.equal(404);
    });

    it('validates the card data of a token like a charge does (402) and takes a two-digit year as 20YY', async () => {
      const invalid = await publicApi.post<ApiError>('/tokens', { json: cardDetails('4242424242424241') });
      expect(invalid.status).to.equal(402);
      expect(invalid.body.error).to.include({ type: 'card_error', code: 'invalid_number' });
      const badCvc = await publicApi.post<ApiError>('/tokens', {
        json: cardDetails('378282246310005', { cvc: '123' }),
      });
      expect(badCvc.body.error).to.include({ code: 'invalid_cvc' });
      expect((await newToken('4242424242424242', { expYear: '30' })).expYear).to.equal('2030');
      expectBadRequest(
        await publicApi.post('/tokens', { json: { ...cardDetails('4242424242424242'), colour: 'red' } }),
        /Unknown parameter: colour/,
      );
      expectBadRequest(
        await publicApi.post('/tokens', { json: { expMonth: '12', expYear: FUTURE_YEAR } }),
        /number: Must not be empty\./,
      );
      const { cvc: _cvc, ...withoutCvc } = cardDetails('4242424242424242');
      expectBadRequest(await publicApi.post('/tokens', { json: withoutCvc }), /^cvc: Must not be empty\.$/);
      expectBadRequest(
        await api.post('/charges', { json: { amount: 100, currency: 'EUR', card: withoutCvc } }),
        /^card\[cvc\]: Must not be empty\.$/,
      );
    });

    it('is used once: a customer gets the card, a second use is a 400 naming the token, and the token shows used and card', async () => {
      const token = await newToken('5555555555554444');
      const customer = await newCustomer('token-user@example.com', { card: token.id });
      expect(customer.defaultCardId).to.match(/^card_/);
      expect(customer.cards).to.have.length(1);
      expect(customer.cards[0]).to.include({
        id: customer.defaultCardId,
        last4: '4444',
        fingerprint: token.fingerprint,
        customerId: customer.id,
      });

      const used = (await api.get<Token>(`/tokens/${token.id}`)).body;
      expect(used.used).to.equal(true);
      expect(used.card).to.include({
        id: customer.defaultCardId,
        customerId: customer.id,
        last4: '4444',
        fingerprint: token.fingerprint,
        objectType: 'card',
      });

      for (const second of [
        await api.post('/customers', { json: { email: 'again@example.com', card: token.id } }),
        await api.post(`/customers/${customer.id}/cards`, { json: { id: token.id } }),
        await api.post('/charges', { json: { amount: 100, currency: 'EUR', card: token.id } }),
        await api.post(`/customers/${customer.id}`, { json: { card: token.id } }),
      ]) {
        expectBadRequest(second, new RegExp(`${token.id}.*already been used`));
      }
      expect((await getCustomer(customer.id)).cards).to.have.length(1);
      expectBadRequest(
        await api.post('/charges', { json: { amount: 100, currency: 'EUR', card: 'tok_doesnotexist' } }),
        /tok_doesnotexist/,
      );
    });

    it('a token used by a charge without a customer is used and makes no card', async () => {
      const token = await newToken();
      const charge = await api.post<Charge>('/charges', { form: { amount: '100', currency: 'EUR', card: token.id } });
      expect(charge.status, JSON.stringify(charge.body)).to.equal(200);
      expect(charge.body.card).to.include({ fingerprint: token.fingerprint, last4: '4242' });
      const used = (await api.get<Token>(`/tokens/${token.id}`)).body;
      expect(used.used).to.equal(true);
      expect(used).to.not.have.property('card');
      expectBadRequest(
        await api.post('/charges', { json: { amount: 100, currency: 'EUR', card: token.id } }),
        /already been used/,
      );
    });

    it('a token charged for a customer is saved as their default card and shows it', async () => {
      const customer = await newCustomer('token-charge@example.com', { card: cardDetails('4242424242424242') });
      const token = await newToken('6011111111111117');
      const charge = await api.post<Charge>('/charges', {
        json: { amount: 100, currency: 'EUR', customerId: customer.id, card: token.id },
      });
      expect(charge.status, JSON.stringify(charge.body)).to.equal(200);
      const after = await getCustomer(customer.id);
      expect(after.defaultCardId).to.equal(charge.body.card.id);
      expect(after.cards).to.have.length(2);
      expect((await api.get<Token>(`/tokens/${token.id}`)).body.card).to.include({
        id: charge.body.card.id,
        customerId: customer.id,
      });
    });

    it('a declined charge uses the token up without saving a card', async () => {
      const customer = await newCustomer('token-declined@example.com');
      const token = await newToken('4000000000000002');
      const declined = await api.post<ApiError>('/charges', {
        json: { amount: 100, currency: 'EUR', customerId: customer.id, card: token.id },
      });
      expect(declined.status).to.equal(402);
      expect(declined.body.error).to.include({ code: 'card_declined' });
      expect((await getCustomer(customer.id)).defaultCardId).to.equal(null);
      const read = (await api.get<Token>(`/tokens/${token.id}`)).body;
      expect(read.used).to.equal(true);
      expect(read).to.not.have.property('card');
    });

    it("keeps accounts apart: another account's token can be neither read nor used", async () => {
      const { api: otherApi, keys } = await createOtherAccount(api, service.dataDir, 'Token shop');
      const mine = await newToken();
      expect((await otherApi.get(`/tokens/${mine.id}`)).status).to.equal(404);
      expectBadRequest(
        await otherApi.post('/charges', { json: { amount: 100, currency: 'EUR', card: mine.id } }),
        new RegExp(mine.id),
      );
      expect((await api.get<Token>(`/tokens/${mine.id}`)).body.used).to.equal(false);
      const theirs = await otherApi.post<Token>('/tokens', {
        json: cardDetails('4242424242424242'),
        key: keys.testPublicKey,
      });
      expect(theirs.status).to.equal(200);
      expect((await api.get(`/tokens/${theirs.body.id}`)).status).to.equal(404);
    });

    describe('with a one-second token lifetime', () => {
      const { api: client, keys: shortLivedKeys } = useService({ env: { TOKEN_TTL_SECONDS: '1' } });

      it('expires after TOKEN_TTL_SECONDS: using it then is a 402 expired_token', async () => {
        const tokens = await Promise.all(
          [1, 2, 3].map(
            async () =>
              (
                await client.post<Token>('/tokens', {
                  json: cardDetails('4242424242424242'),
                  key: shortLivedKeys.testPublicKey,
                })
              ).body,
          ),
        );
        const fresh = (await client.post<Token>('/tokens', { json: cardDetails('4242424242424242') })).body;
        expect(
          (await client.post('/charges', { json: { amount: 100, currency: 'EUR', card: fresh.id } })).status,
        ).to.equal(200);

        await new Promise((resolve) => setTimeout(resolve, 2100));
        const customer = (await client.post<Customer>('/customers', { json: { email: 'late@example.com' } })).body;
        const attempts = [
          await client.post<ApiError>('/charges', { json: { amount: 100, currency: 'EUR', card: tokens[0]!.id } }),
          await client.post<ApiError>('/customers', { json: { email: 'late@example.com', card: tokens[1]!.id } }),
          await client.post<ApiError>(`/customers/${customer.id}/cards`, { json: { id: tokens[2]!.id } }),
        ];
        for (const attempt of attempts) {
          expect(attempt.status, JSON.stringify(attempt.body)).to.equal(402);
          expect(attempt.body.error).to.include({ type: 'card_error', code: 'expired_token' });
        }
        expect(
          (await client.get<Page<Customer>>('/customers', { query: { email: 'late@example.com' } })).body.list,
        ).to.have.length(1);
        expect((await client.get<Token>(`/tokens/${tokens[0]!.id}`)).body.used).to.equal(false);
      });
    });
  });

  describe('saved cards', () => {
    it('saves a card from a token, a successful charge or details; each new card becomes the default', async () => {
      const customer = await newCustomer('three-cards@example.com');
      const token = await newToken('5555555555554444');

      const fromToken = await addCard(customer.id, { id: token.id });
      expect(fromToken).to.include({
        objectType: 'card',
        customerId: customer.id,
        first6: '555555',
        last4: '4444',
        fingerprint: token.fingerprint,
        expMonth: '12',
        expYear: FUTURE_YEAR,
        brand: 'MasterCard',
      });
      expect((await getCustomer(customer.id)).defaultCardId).to.equal(fromToken.id);

      const charge = (
        await api.post<Charge>('/charges', {
          json: { amount: 100, currency: 'EUR', card: cardDetails('378282246310005') },
        })
      ).body;
      const fromCharge = await api.post<Card>(`/customers/${customer.id}/cards`, { form: { id: charge.id } });
      expect(fromCharge.status, JSON.stringify(fromCharge.body)).to.equal(200);
      expect(fromCharge.body).to.include({
        id: charge.card.id,
        customerId: customer.id,
        last4: '0005',
        fingerprint: charge.card.fingerprint,
        brand: 'American Express',
      });
      expect((await getCustomer(customer.id)).defaultCardId).to.equal(fromCharge.body.id);
      expect((await api.get<Charge>(`/charges/${charge.id}`)).body.customerId).to.equal(customer.id);

      const fromDetails = await api.post<Card>(`/customers/${customer.id}/cards`, {
        form: cardForm('', '4000056655665556', { cardholderName: 'Jane', addressZip: '00-001', addressCountry: 'pol' }),
      });
      expect(fromDetails.status, JSON.stringify(fromDetails.body)).to.equal(200);
      expect(fromDetails.body).to.include({
        first6: '400005',
        last4: '5556',
        cardholderName: 'Jane',
        addressZip: '00-001',
        addressCountry: 'pol',
        type: 'Debit Card',
      });
      expect(fromDetails.body).to.not.have.any.keys('number', 'cvc');

      const after = await getCustomer(customer.id);
      expect(after.defaultCardId).to.equal(fromDetails.body.id);
      expect(after.cards.map((card) => card.id)).to.deep.equal([fromDetails.body.id, fromCharge.body.id, fromToken.id]);
      for (const card of after.cards) {
        for (const field of ['first6', 'last4', 'expMonth', 'expYear'] as const)
          expect(card[field], field).to.be.a('string');
        expect(card).to.deep.equal((await api.get<Card>(`/customers/${customer.id}/cards/${card.id}`)).body);
      }
      expect(after.cards[2]).to.deep.equal(fromToken);
    });

    it('refuses a failed charge, a charge of another customer, the same charge twice and bad card details', async () => {
      const customer = await newCustomer('refusals@example.com');
      const other = await newCustomer('refusals-other@example.com');
      const declined = await api.post<ApiError>('/charges', {
        json: { amount: 100, currency: 'EUR', card: cardDetails('4000000000000002') },
      });
      expectBadRequest(
        await api.post(`/customers/${customer.id}/cards`, { json: { id: declined.body.error.chargeId } }),
        /did not succeed/,
      );

      const charge = (
        await api.post<Charge>('/charges', {
          json: { amount: 100, currency: 'EUR', card: cardDetails('4242424242424242') },
        })
      ).body;
      await addCard(other.id, { id: charge.id });
      expectBadRequest(
        await api.post(`/customers/${customer.id}/cards`, { json: { id: charge.id } }),
        /another customer/,
      );
      expectBadRequest(await api.post(`/customers/${other.id}/cards`, { json: { id: charge.id } }), /already saved/);
      expectBadRequest(
        await api.post(`/customers/${customer.id}/cards`, { json: { id: 'char_doesnotexist' } }),
        /char_doesnotexist/,
      );
      expectBadRequest(
        await api.post(`/customers/${customer.id}/cards`, { json: { id: 'card_whatever' } }),
        /Invalid parameter: id must be a token .* or a charge/,
      );
      expectBadRequest(
        await api.post('/customers', { json: { email: 'x@example.com', card: 'nonsense' } }),
        /Invalid parameter: card must be a token .*, a charge .* or card details/,
      );

      const invalid = await api.post<ApiError>(`/customers/${customer.id}/cards`, {
        json: cardDetails('4242424242424242', { expMonth: '13' }),
      });
      expect(invalid.status).to.equal(402);
      expect(invalid.body.error).to.include({ type: 'card_error', code: 'invalid_expiry_month' });
      expect((await getCustomer(customer.id)).cards).to.deep.equal([]);
      expect(
        (await api.post(`/customers/cust_doesnotexist/cards`, { json: cardDetails('4242424242424242') })).status,
      ).to.equal(404);
    });

    it('deleting the default card makes the most recently added remaining card the default; the last one leaves null', async () => {
      const customer = await newCustomer('deletes@example.com');
      const first = await addCard(customer.id, cardDetails('4242424242424242'));
      const second = await addCard(customer.id, cardDetails('5555555555554444'));
      const third = await addCard(customer.id, cardDetails('6011111111111117'));
      // Make the oldest the default, then delete a non-default card: the default stays.
      await api.post(`/customers/${customer.id}`, { json: { defaultCardId: first.id } });
      const deleted = await api.delete(`/customers/${customer.id}/cards/${second.id}`);
      expect(deleted.status).to.equal(200);
      expect(deleted.body).to.deep.equal({ id: second.id });
      expect((await getCustomer(customer.id)).defaultCardId).to.equal(first.id);

      await api.delete(`/customers/${customer.id}/cards/${first.id}`);
      let after = await getCustomer(customer.id);
      expect(after.defaultCardId).to.equal(third.id);
      expect(after.cards.map((card) => card.id)).to.deep.equal([third.id]);

      const fourth = await addCard(customer.id, cardDetails('3566002020360505'));
      await api.post(`/customers/${customer.id}`, { json: { defaultCardId: third.id } });
      await api.delete(`/customers/${customer.id}/cards/${third.id}`);
      expect((await getCustomer(customer.id)).defaultCardId).to.equal(fourth.id);

      await api.delete(`/customers/${customer.id}/cards/${fourth.id}`);
      after = await getCustomer(customer.id);
      expect(after.defaultCardId).to.equal(null);
      expect(after.cards).to.deep.equal([]);
      expectBadRequest(
        await api.post('/charges', { json: { amount: 100, currency: 'EUR', customerId: customer.id } }),
        /default card/,
      );

      const gone = await api.get<Card>(`/customers/${customer.id}/cards/${first.id}`);
      expect(gone.status).to.equal(200);
      expect(gone.body).to.include({ id: first.id, deleted: true });
      // Readable, but it cannot be changed or deleted again (as with deleted customers).
      expectBadRequest(await api.delete(`/customers/${customer.id}/cards/${first.id}`), /has been deleted/);
      expectBadRequest(
        await api.post(`/customers/${customer.id}/cards/${first.id}`, { json: { cardholderName: 'Late' } }),
        /has been deleted/,
      );
      expect((await api.get<Card>(`/customers/${customer.id}/cards/${first.id}`)).body).to.deep.equal(gone.body);
      expectBadRequest(
        await api.post('/charges', { json: { amount: 100, currency: 'EUR', customerId: customer.id, card: first.id } }),
        /card/,
      );
      expectBadRequest(
        await api.post(`/customers/${customer.id}`, { json: { defaultCardId: first.id } }),
        /defaultCardId/,
      );
    });

    it('embeds only the 10 most recent cards in the customer; the card list pages through all, deleted ones apart', async () => {
      const customer = await newCustomer('eleven@example.com');
      const ids: string[] = [];
      for (let i = 0; i < 11; i++)
        ids.push((await addCard(customer.id, cardDetails('4242424242424242', { cardholderName: `Holder ${i}` }))).id);
      const newestFirst = [...ids].reverse();

      const embedded = await getCustomer(customer.id);
      expect(embedded.defaultCardId).to.equal(ids[10]);
      expect(embedded.cards.map((card) => card.id)).to.deep.equal(newestFirst.slice(0, 10));

      const all = await api.get<Page<Card>>(`/customers/${customer.id}/cards`, { query: { limit: '100' } });
      expect(all.status).to.equal(200);
      expect(all.body.list.map((card) => card.id)).to.deep.equal(newestFirst);
      const firstPage = await api.get<Page<Card>>(`/customers/${customer.id}/cards`);
      expect(firstPage.body.list).to.have.length(10);
      expect(firstPage.body.hasMore).to.equal(true);
      const secondPage = await api.get<Page<Card>>(`/customers/${customer.id}/cards`, {
        query: { startingAfterId: newestFirst[9]! },
      });
      expect(secondPage.body).to.deep.equal({ list: [all.body.list[10]], hasMore: false });

      // Deleting one brings the oldest back into the embedded ten.
      await api.delete(`/customers/${customer.id}/cards/${ids[5]}`);
      const afterDelete = await getCustomer(customer.id);
      expect(afterDelete.cards.map((card) => card.id)).to.deep.equal(newestFirst.filter((id) => id !== ids[5]));
      const live = await api.get<Page<Card>>(`/customers/${customer.id}/cards`, { query: { limit: '100' } });
      expect(live.body.list.map((card) => card.id)).to.deep.equal(newestFirst.filter((id) => id !== ids[5]));
      const deleted = await api.get<Page<Card>>(`/customers/${customer.id}/cards`, { query: { deleted: 'true' } });
      expect(deleted.body.list.map((card) => card.id)).to.deep.equal([ids[5]]);
      expect(deleted.body.list[0]!.deleted).to.equal(true);
      expect((await api.get(`/customers/cust_doesnotexist/cards`)).status).to.equal(404);
    });

    it('updates a card: two-digit year, holder, address; checkFastCredit fills fastCredit', async () => {
      const customer = await newCustomer('update-card@example.com');
      const debit = await addCard(customer.id, cardDetails('4000056655665556'));
      const credit = await addCard(customer.id, cardDetails('4242424242424242'));

      const updated = await api.post<Card>(`/customers/${customer.id}/cards/${debit.id}`, {
        form: { expMonth: '3', expYear: '31', cardholderName: 'New Name', addressCity: 'Berlin' },
      });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
      expect(updated.body).to.deep.equal({
        ...debit,
        expMonth: '3',
        expYear: '2031',
        cardholderName: 'New Name',
        addressCity: 'Berlin',
      });
      expect((await api.get<Card>(`/customers/${customer.id}/cards/${debit.id}`)).body).to.deep.equal(updated.body);
      expect((await getCustomer(customer.id)).cards.find((card) => card.id === debit.id)).to.deep.equal(updated.body);

      const checked = await api.post<Card>(`/customers/${customer.id}/cards/${debit.id}`, {
        form: { checkFastCredit: 'true' },
      });
      expect(checked.status, JSON.stringify(checked.body)).to.equal(200);
      expect(checked.body.fastCredit?.supported).to.equal(true);
      expect(checked.body.fastCredit?.updated).to.be.within(
        Math.floor(Date.now() / 1000) - 60,
        Math.floor(Date.now() / 1000) + 1,
      );
      const notSupported = await api.post<Card>(`/customers/${customer.id}/cards/${credit.id}`, {
        json: { checkFastCredit: true },
      });
      expect(notSupported.body.fastCredit?.supported).to.equal(false);
      expect((await api.get<Card>(`/customers/${customer.id}/cards/${credit.id}`)).body.fastCredit?.supported).to.equal(
        false,
      );

      for (const [body, code] of [
        [{ expMonth: '13' }, 'invalid_expiry_month'],
        [{ expYear: 'abc' }, 'invalid_expiry_year'],
        [{ expYear: String(new Date().getUTCFullYear() - 1) }, 'expired_card'],
      ] as const) {
        const response = await api.post<ApiError>(`/customers/${customer.id}/cards/${debit.id}`, { json: body });
        expect(response.status, JSON.stringify(body)).to.equal(402);
        expect(response.body.error).to.include({ type: 'card_error', code });
      }
      expectBadRequest(
        await api.post(`/customers/${customer.id}/cards/${debit.id}`, { json: { number: '4242424242424242' } }),
        /Unknown parameter: number/,
      );
      expect((await api.get<Card>(`/customers/${customer.id}/cards/${debit.id}`)).body).to.include({
        expMonth: '3',
        expYear: '2031',
      });
    });

    it("updates the customer's default only to a live card of theirs", async () => {
      const customer = await newCustomer('default@example.com');
      const other = await newCustomer('default-other@example.com');
      const mine = await addCard(customer.id, cardDetails('4242424242424242'));
      const latest = await addCard(customer.id, cardDetails('5555555555554444'));
      const theirs = await addCard(other.id, cardDetails('4242424242424242'));

      expectBadRequest(
        await api.post(`/customers/${customer.id}`, { json: { defaultCardId: theirs.id } }),
        /defaultCardId/,
      );
      expectBadRequest(
        await api.post(`/customers/${customer.id}`, { json: { defaultCardId: 'card_doesnotexist' } }),
        /defaultCardId/,
      );
      expect((await getCustomer(customer.id)).defaultCardId).to.equal(latest.id);

      const changed = await api.post<Customer>(`/customers/${customer.id}`, { form: { defaultCardId: mine.id } });
      expect(changed.status).to.equal(200);
      expect(changed.body.defaultCardId).to.equal(mine.id);
      const charge = await api.post<Charge>('/charges', {
        json: { amount: 100, currency: 'EUR', customerId: customer.id },
      });
      expect(charge.body.card.id).to.equal(mine.id);
    });

    it("addresses a card only under its own customer's path: otherwise 404", async () => {
      const a = await newCustomer('path-a@example.com');
      const b = await newCustomer('path-b@example.com');
      const card = await addCard(a.id, cardDetails('4242424242424242'));
      expect((await api.get(`/customers/${b.id}/cards/${card.id}`)).status).to.equal(404);
      expect(
        (await api.post(`/customers/${b.id}/cards/${card.id}`, { json: { cardholderName: 'Thief' } })).status,
      ).to.equal(404);
      expect((await api.delete(`/customers/${b.id}/cards/${card.id}`)).status).to.equal(404);
      expect((await api.get(`/customers/${a.id}/cards/card_doesnotexist`)).status).to.equal(404);
      const intact = await api.get<Card>(`/customers/${a.id}/cards/${card.id}`);
      expect(intact.body).to.deep.equal(card);
      expect((await getCustomer(a.id)).defaultCardId).to.equal(card.id);
    });

    it('records CUSTOMER_CARD_CREATED, _UPDATED, _DELETED with the card and CUSTOMER_UPDATED when the default changes', async () => {
      const customer = await newCustomer('card-events@example.com');
      const first = await addCard(customer.id, cardDetails('4242424242424242'));
      const afterFirst = await getCustomer(customer.id);
      const second = await addCard(customer.id, cardDetails('5555555555554444'));
      const afterSecond = await getCustomer(customer.id);
      const updated = (
        await api.post<Card>(`/customers/${customer.id}/cards/${first.id}`, { json: { cardholderName: 'Evented' } })
      ).body;
      const backToFirst = (await api.post<Customer>(`/customers/${customer.id}`, { json: { defaultCardId: first.id } }))
        .body;
      await api.delete(`/customers/${customer.id}/cards/${first.id}`);
      const deletedFirst = (await api.get<Card>(`/customers/${customer.id}/cards/${first.id}`)).body;
      const afterDelete = await getCustomer(customer.id);

      expect((await eventsOf(api, first.id)).map((event) => [event.type, event.data])).to.deep.equal([
        ['CUSTOMER_CARD_DELETED', deletedFirst],
        ['CUSTOMER_CARD_UPDATED', updated],
        ['CUSTOMER_CARD_CREATED', first],
      ]);
      expect((await eventsOf(api, second.id)).map((event) => [event.type, event.data])).to.deep.equal([
        ['CUSTOMER_CARD_CREATED', second],
      ]);
      const customerEvents = await eventsOf<Customer>(api, customer.id);
      expect(customerEvents.map((event) => event.type)).to.deep.equal([
        'CUSTOMER_UPDATED',
        'CUSTOMER_UPDATED',
        'CUSTOMER_UPDATED',
        'CUSTOMER_UPDATED',
        'CUSTOMER_CREATED',
      ]);
      expect(customerEvents.map((event) => event.data.defaultCardId)).to.deep.equal([
        second.id,
        first.id,
        second.id,
        first.id,
        null,
      ]);
      expect(customerEvents[0]!.data).to.deep.equal(afterDelete);
      expect(customerEvents[1]!.data).to.deep.equal(backToFirst);
      expect(customerEvents[2]!.data).to.deep.equal(afterSecond);
      expect(customerEvents[3]!.data).to.deep.equal(afterFirst);
    });
  });
});
