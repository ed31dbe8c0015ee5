import { expect } from 'chai';
import { createOtherAccount } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

type Card = {
  id: string;
  objectType: string;
  first6: string;
  last4: string;
  customerId: string | null;
  expMonth: string;
  expYear: string;
};
type Credit = {
  id: string;
  created: number;
  objectType: string;
  amount: number;
  currency: string;
  description: string | null;
  card: Card;
  customerId: string | null;
  status: 'successful' | 'failed';
  metadata: Record<string, string>;
  failureCode?: string;
  failureMessage?: string;
  failureIssuerDeclineCode?: string | null;
  threeDSecureInfo: unknown;
};
type Customer = { id: string; defaultCardId: string | null; cards: Card[] };
type Token = { id: string; used: boolean };
type Page<T> = { list: T[]; hasMore: boolean };
type ErrorBody = {
  error: { type: string; code?: string; message: string; creditId?: string; issuerDeclineCode?: string };
};

const VISA = '4242424242424242';
const DECLINED = '4000000000000002';
const details = (number = VISA) => ({ number, expMonth: '12', expYear: '2040', cvc: '123' });

describe('credits over HTTP', function () {
  this.timeout(60_000);
  const { api, service, keys } = useService();

  before('allow credits: the business model of this account does', async () => {
    const allowed = await runCli(['accounts', 'settings', keys.id, '--credits', 'allowed'], service.dataDir);
    expect(allowed.code, allowed.stderr).to.equal(0);
  });

  it('sends a credit to card details given as JSON or as a form, readable at once', async () => {
    const fromJson = await api.post<Credit>('/credits', {
      json: { amount: 1500, currency: 'EUR', card: details(), description: 'Payout', metadata: { batch: '7' } },
    });
    const fromForm = await api.post<Credit>('/credits', {
      form: {
        amount: '1500',
        currency: 'EUR',
        'card[number]': VISA,
        'card[expMonth]': '12',
        'card[expYear]': '2040',
        'card[cvc]': '123',
        description: 'Payout',
        'metadata[batch]': '7',
      },
    });
    for (const response of [fromJson, fromForm]) {
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const credit = response.body;
      expect(credit.id).to.match(/^cr_[A-Za-z0-9]{24}$/);
      expect(credit).to.include({
        objectType: 'credit',
        amount: 1500,
        currency: 'EUR',
        description: 'Payout',
        customerId: null,
        status: 'successful',
        threeDSecureInfo: null,
      });
      expect(credit.metadata).to.deep.equal({ batch: '7' });
      expect(credit.card.id).to.match(/^card_/);
      expect(credit.card).to.include({
        objectType: 'card',
        first6: '424242',
        last4: '4242',
        expMonth: '12',
        expYear: '2040',
        customerId: null,
      });
      expect(credit).to.not.have.property('failureCode');
      expect(credit.created).to.be.within(Math.floor(Date.now() / 1000) - 60, Math.floor(Date.now() / 1000) + 1);
      const read = await api.get<Credit>(`/credits/${credit.id}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(credit);
    }
    expect(fromJson.body.card.id).to.not.equal(fromForm.body.card.id);
  });

  it('uses a token once: the token then shows used, and a second credit with it is a 400', async () => {
    const token = (await api.post<Token>('/tokens', { json: details() })).body;
    const credit = await api.post<Credit>('/credits', { json: { amount: 200, currency: 'USD', card: token.id } });
    expect(credit.status, JSON.stringify(credit.body)).to.equal(200);
    expect(credit.body.card).to.include({ last4: '4242', customerId: null });
    expect(credit.body.card.id).to.match(/^card_/);
    expect((await api.get<Token>(`/tokens/${token.id}`)).body.used).to.equal(true);

    const again = await api.post<ErrorBody>('/credits', { json: { amount: 200, currency: 'USD', card: token.id } });
    expect(again.status).to.equal(400);
    expect(again.body.error.type).to.equal('invalid_request');
    expect(again.body.error.message).to.match(/already been used/);
  });

  it("credits a customer's default card, or a saved card named by id", async () => {
    const customer = (await api.post<Customer>('/customers', { json: { email: 'payee@example.com', card: details() } }))
      .body;
    const second = (await api.post<Card>(`/customers/${customer.id}/cards`, { json: details('5555555555554444') }))
      .body;
    const defaultCardId = (await api.get<Customer>(`/customers/${customer.id}`)).body.defaultCardId!;

    const toDefault = await api.post<Credit>('/credits', {
      json: { amount: 300, currency: 'EUR', customerId: customer.id },
    });
    expect(toDefault.status, JSON.stringify(toDefault.body)).to.equal(200);
    expect(toDefault.body.customerId).to.equal(customer.id);
    expect(toDefault.body.card).to.include({ id: defaultCardId, customerId: customer.id });

    const toSaved = await api.post<Credit>('/credits', {
      form: { amount: '400', currency: 'EUR', customerId: customer.id, card: customer.cards[0]!.id },
    });
    expect(toSaved.status, JSON.stringify(toSaved.body)).to.equal(200);
    expect(toSaved.body.card).to.include({ id: customer.cards[0]!.id, last4: '4242', customerId: customer.id });
    expect(defaultCardId).to.equal(second.id);

    const withoutCustomer = await api.post<ErrorBody>('/credits', {
      json: { amount: 400, currency: 'EUR', card: second.id },
    });
    expect(withoutCustomer.status).to.equal(400);
    expect(withoutCustomer.body.error.message).to.match(/customerId/);
    const nothing = await api.post<ErrorBody>('/credits', { json: { amount: 400, currency: 'EUR' } });
    expect(nothing.status).to.equal(400);
    expect(nothing.body.error.message).to.match(/^card: Must not be empty\. Give card, or customerId/);
  });

  it("leaves a customer's cards alone when crediting new card details for them", async () => {
    const customer = (await api.post<Customer>('/customers', { json: { email: 'newcard@example.com' } })).body;
    const credit = await api.post<Credit>('/credits', {
      json: { amount: 100, currency: 'EUR', customerId: customer.id, card: details() },
    });
    expect(credit.status).to.equal(200);
    expect(credit.body.customerId).to.equal(customer.id);
    // The card was not saved, so it belongs to no customer.
    expect(credit.body.card.customerId).to.equal(null);
    const after = (await api.get<Customer>(`/customers/${customer.id}`)).body;
    expect(after.cards).to.deep.equal([]);
    expect(after.defaultCardId).to.equal(null);
  });

  it('records a declined credit: 402 card_error with creditId, and the credit shows the failure', async () => {
    const declined = await api.post<ErrorBody>('/credits', {
      json: { amount: 700, currency: 'EUR', card: details(DECLINED), description: 'Declined payout' },
    });
    expect(declined.status).to.equal(402);
    expect(declined.body.error).to.include({ type: 'card_error', code: 'card_declined', issuerDeclineCode: '05' });
    const creditId = declined.body.error.creditId!;
    expect(creditId).to.match(/^cr_/);

    const read = await api.get<Credit>(`/credits/${creditId}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.include({
      id: creditId,
      status: 'failed',
      amount: 700,
      description: 'Declined payout',
      failureCode: 'card_declined',
      failureMessage: declined.body.error.message,
      failureIssuerDeclineCode: '05',
    });
    expect(read.body.card.last4).to.equal('0002');
  });

  it('answers an invalid card number with 402 invalid_number and records no credit', async () => {
    const before = (await api.get<Page<Credit>>('/credits', { query: { limit: '1' } })).body.list[0]?.id;
    const invalid = await api.post<ErrorBody>('/credits', {
      json: { amount: 700, currency: 'EUR', card: details('4242424242424241') },
    });
    expect(invalid.status).to.equal(402);
    expect(invalid.body.error).to.include({ type: 'card_error', code: 'invalid_number' });
    expect(invalid.body.error).to.not.have.property('creditId');
    expect(JSON.stringify(invalid.body)).to.not.include('4242424242424241');
    const after = (await api.get<Page<Credit>>('/credits', { query: { limit: '1' } })).body.list[0]?.id;
    expect(after).to.equal(before);
  });

  it('updates description and metadata only', async () => {
    const credit = (
      await api.post<Credit>('/credits', {
        json: { amount: 900, currency: 'EUR', card: details(), description: 'Before', metadata: { a: '1' } },
      })
    ).body;
    const updated = await api.post<Credit>(`/credits/${credit.id}`, {
      form: { description: 'After', 'metadata[b]': '2' },
    });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.deep.equal({ ...credit, description: 'After', metadata: { b: '2' } });
    expect((await api.get<Credit>(`/credits/${credit.id}`)).body).to.deep.equal(updated.body);

    const cleared = await api.post<Credit>(`/credits/${credit.id}`, { json: { description: null, metadata: {} } });
    expect(cleared.body).to.include({ description: null, amount: 900 });
    expect(cleared.body.metadata).to.deep.equal({});

    const amountChange = await api.post<ErrorBody>(`/credits/${credit.id}`, { json: { amount: 1 } });
    expect(amountChange.status).to.equal(400);
    expect(amountChange.body.error.message).to.match(/amount/);
    const missing = await api.post<ErrorBody>('/credits/cr_doesnotexist', { json: { description: 'x' } });
    expect(missing.status).to.equal(404);
  });

  it('lists credits newest first, filtered by customerId', async () => {
    const customer = (
      await api.post<Customer>('/customers', { json: { email: 'listed@example.com', card: details() } })
    ).body;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await api.post<Credit>('/credits', { json: { amount: 100 + i, currency: 'EUR', customerId: customer.id } }))
          .body.id,
      );
    await api.post<Credit>('/credits', { json: { amount: 100, currency: 'EUR', card: details() } });

    const listed = await api.get<Page<Credit>>('/credits', { query: { customerId: customer.id } });
    expect(listed.status).to.equal(200);
    expect(listed.body.list.map((credit) => credit.id)).to.deep.equal([...ids].reverse());
    expect(listed.body.hasMore).to.equal(false);
    const paged = await api.get<Page<Credit>>('/credits', { query: { customerId: customer.id, limit: '2' } });
    expect(paged.body.list.map((credit) => credit.id)).to.deep.equal([ids[2], ids[1]]);
    expect(paged.body.hasMore).to.equal(true);
    const all = await api.get<Page<Credit>>('/credits', { query: { limit: '100' } });
    expect(all.body.list.length).to.be.greaterThan(ids.length);
  });

  it("refuses credits (400, nothing recorded) while the account's business model does not allow them", async () => {
    const { api: otherApi, keys: otherKeys } = await createOtherAccount(api, service.dataDir, 'No payouts');
    const refused = await otherApi.post<ErrorBody>('/credits', {
      json: { amount: 100, currency: 'EUR', card: details() },
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.deep.equal({
      type: 'invalid_request',
      message: "Credits are not available for this account's business model: an operator must allow them first",
    });
    expect((await otherApi.get<Page<Credit>>('/credits')).body.list).to.deep.equal([]);
    const allowed = await runCli(['accounts', 'settings', otherKeys.id, '--credits', 'allowed'], service.dataDir);
    expect(allowed.code, allowed.stderr).to.equal(0);
    expect(
      (await otherApi.post('/credits', { json: { amount: 100, currency: 'EUR', card: details() } })).status,
    ).to.equal(200);
  });

  it('screens credits against the blacklist like charges: a blocked credit is recorded failed', async () => {
    const rule = await api.post<{ id: string }>('/blacklist', {
      json: { ruleType: 'fingerprint', cardNumber: '5555555555554444' },
    });
    const blockedCredit = () =>
      api.post<ErrorBody & { error: { blacklistRuleId?: string } }>('/credits', {
        json: { amount: 100, currency: 'EUR', card: details('5555555555554444') },
        headers: { 'idempotency-key': 'blocked-credit' },
      });
    const blocked = await blockedCredit();
    expect(blocked.status).to.equal(402);
    expect(blocked.body.error).to.include({ type: 'card_error', code: 'blacklisted', blacklistRuleId: rule.body.id });
    const recorded = await api.get<Credit>(`/credits/${blocked.body.error.creditId}`);
    expect(recorded.body).to.include({ status: 'failed', failureCode: 'blacklisted' });
    // The log names the rule: an auditor replaying the credit's stream sees what blocked it,
    // and a retry answered from the recorded credit names it too.
    const stream = await runCli(['streams', 'show', blocked.body.error.creditId!, '--json'], service.dataDir);
    expect(stream.code, stream.stderr).to.equal(0);
    const [failed] = stream.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: { blacklistRuleId?: string } });
    expect(failed).to.deep.include({ type: 'CreditFailed' });
    expect(failed!.data.blacklistRuleId).to.equal(rule.body.id);
    const retried = await blockedCredit();
    expect(retried.status).to.equal(402);
    expect(retried.body.error).to.include({ creditId: blocked.body.error.creditId, blacklistRuleId: rule.body.id });
    await api.delete(`/blacklist/${rule.body.id}`);
  });

  it('fails live-mode credits with a gateway_error: live processing is not configured', async () => {
    const live = await api
      .withKey(keys.liveSecretKey)
      .post<ErrorBody>('/credits', { json: { amount: 100, currency: 'EUR', card: details() } });
    expect(live.status).to.equal(502);
    expect(live.body.error.type).to.equal('gateway_error');
    expect(live.body.error.message).to.match(/^Live processing is not configured/);
    expect((await api.withKey(keys.liveSecretKey).get<Page<Credit>>('/credits')).body.list).to.deep.equal([]);
  });

  it("answers a list filtered by an unknown customer, or another account's, with 400 naming customerId", async () => {
    const unknown = await api.get<ErrorBody>('/credits', { query: { customerId: 'cust_doesnotexist' } });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.type).to.equal('invalid_request');
    expect(unknown.body.error.message).to.match(/customerId/);

    const { api: otherApi } = await createOtherAccount(api, service.dataDir, 'Filtering shop');
    const theirs = (await otherApi.post<Customer>('/customers', { json: { email: 'theirs@example.com' } })).body;
    const crossed = await api.get<ErrorBody>('/credits', { query: { customerId: theirs.id } });
    expect(crossed.status).to.equal(400);
    expect(crossed.body.error.message).to.match(/customerId/);
    // The customer's own account lists their (no) credits.
    expect(
      (await otherApi.get<Page<Credit>>('/credits', { query: { customerId: theirs.id } })).body.list,
    ).to.deep.equal([]);
  });

  it("keeps tenants apart: another account's or mode's credit is a 404", async () => {
    const { api: otherApi } = await createOtherAccount(api, service.dataDir, 'X');

    const mine = (await api.post<Credit>('/credits', { json: { amount: 100, currency: 'EUR', card: details() } })).body;
    expect((await otherApi.get(`/credits/${mine.id}`)).status).to.equal(404);
    expect((await otherApi.post(`/credits/${mine.id}`, { json: { description: 'x' } })).status).to.equal(404);
    expect((await otherApi.get<Page<Credit>>('/credits')).body.list.map((credit) => credit.id)).to.not.include(mine.id);
    const inLive = await api.withKey(keys.liveSecretKey).get<ErrorBody>(`/credits/${mine.id}`);
    expect(inLive.status).to.equal(404);
    expect(inLive.body.error.type).to.equal('invalid_request');
    expect((await api.get(`/credits/${mine.id}`)).status).to.equal(200);
  });

  it('answers a bad amount or currency with 400 invalid_request naming the parameter', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ currency: 'EUR', card: details() }, /amount/],
      [{ amount: 0, currency: 'EUR', card: details() }, /amount/],
      [{ amount: -5, currency: 'EUR', card: details() }, /amount/],
      [{ amount: 12.5, currency: 'EUR', card: details() }, /amount/],
      [{ amount: 'ten', currency: 'EUR', card: details() }, /amount/],
      [{ amount: 100, card: details() }, /currency/],
      [{ amount: 100, currency: 'EURO', card: details() }, /currency/],
      [{ amount: 100, currency: 'XYZ', card: details() }, /currency/],
      [{ amount: 100, currency: 'EUR', card: 42 }, /card/],
    ];
    for (const [body, message] of cases) {
      const response = await api.post<ErrorBody>('/credits', { json: body });
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect(response.body.error.type).to.equal('invalid_request');
      expect(response.body.error.message).to.match(message);
    }
  });

  it('produces no public events: the spec has no credit event types', async () => {
    const credit = (await api.post<Credit>('/credits', { json: { amount: 100, currency: 'EUR', card: details() } }))
      .body;
    await api.post(`/credits/${credit.id}`, { json: { description: 'changed' } });
    const events = (await api.get<Page<{ data: { id: string } }>>('/events', { query: { limit: '100' } })).body.list;
    expect(events.map((event) => event.data.id)).to.not.include(credit.id);
  });

  it('never shows the card number or CVC: not in responses, events, or the log', async () => {
    const number = '4000056655665556';
    const credit = await api.post<Credit>('/credits', {
      json: { amount: 100, currency: 'EUR', card: { ...details(number), cvc: '987' } },
    });
    expect(credit.status).to.equal(200);
    const declined = await api.post<ErrorBody>('/credits', {
      json: { amount: 100, currency: 'EUR', card: details(DECLINED) },
    });
    const texts = [
      JSON.stringify(credit.body),
      JSON.stringify(declined.body),
      JSON.stringify((await api.get(`/credits/${credit.body.id}`)).body),
      JSON.stringify((await api.get('/credits', { query: { limit: '100' } })).body),
    ];
    // No `cvc` field anywhere (its digits alone could occur by chance in ids or fingerprints).
    for (const text of texts) expect(text).to.not.include(number).and.not.include(DECLINED).and.not.include('"cvc"');
    expect(credit.body.card).to.include({ first6: '400005', last4: '5556' });

    const shown = await runCli(['streams', 'show', credit.body.id, '--json'], service.dataDir);
    expect(shown.code, shown.stderr).to.equal(0);
    const rows = shown.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    // The credit's events follow those of its transfer intent, recorded before the network was asked.
    expect(rows.map((row) => row.type)).to.deep.equal(['CreditTransferStarted', 'CreditSucceeded']);
    expect(shown.stdout).to.not.include(number);
    expect(shown.stdout).to.not.include('"cvc"');
    expect(service.output()).to.not.include(number).and.not.include(DECLINED);
  });
});
