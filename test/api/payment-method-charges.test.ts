import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { eventually } from '../support/eventually.ts';
import {
  completeRedirect,
  createPaymentMethodCharge,
  RETURN_URL,
  type PaymentMethod,
  type PaymentMethodCharge,
} from '../support/payment-methods.ts';
import { cardDetails, createOtherAccount, eventsOf, type ApiError, type Page } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { createEndpoint } from '../support/webhooks.ts';

const typesOf = async (api: ApiClient, id: string): Promise<string[]> =>
  (await eventsOf(api, id)).map((event) => event.type).reverse();

describe('payment-method charges over HTTP', function () {
  this.timeout(90_000);
  const { api, service, keys } = useService({ env: { PAYMENT_METHOD_PROCESSING_DELAY_MS: '1000' } });
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await startWebhookReceiver();
    await createEndpoint(api, receiver);
  });

  after(async () => {
    await receiver.close();
  });

  const getCharge = async (id: string) => (await api.get<PaymentMethodCharge>(`/charges/${id}`)).body;

  it('answers pending with a client object id and a redirect to the provider page, and creates the payment method', async () => {
    const charge = await createPaymentMethodCharge(api, {
      paymentMethod: { type: 'ideal', billing: { name: 'Ada Lovelace' } },
      description: 'Order 42',
    });
    expect(charge.clientObjectId).to.match(/^client_char_[A-Za-z0-9]{24}$/);
    expect(charge).to.include({ status: 'pending', captured: false, refunded: false, amountRefunded: 0 });
    expect(charge).not.to.have.property('card');
    expect(charge.flow).to.deep.equal({
      nextAction: 'redirect',
      returnUrl: RETURN_URL,
      redirect: { redirectUrl: `${service.baseUrl}/payment-redirects/${charge.clientObjectId}` },
    });
    expect(charge.paymentMethod).to.include({ type: 'ideal', status: 'chargeable' });
    const method = await api.get<PaymentMethod>(`/payment-methods/${charge.paymentMethod.id}`);
    expect(method.status).to.equal(200);
    expect(method.body.billing).to.deep.equal({ name: 'Ada Lovelace' });
    // The spec has no event type for a pending charge: nothing is published until the provider answers.
    expect(await typesOf(api, charge.id)).to.deep.equal([]);
    // The payer's page follows the charge with the public key.
    const client = await api.get(`/client-objects/${charge.clientObjectId}`, { key: keys.testPublicKey });
    expect(client.status).to.equal(200);
    expect(client.body).to.deep.equal({
      clientObjectId: charge.clientObjectId,
      objectType: 'charge',
      amount: 1250,
      currency: 'EUR',
      status: 'pending',
      flow: charge.flow,
    });
  });

  it('serves a self-contained, accessible provider page showing the amount, the merchant and the method', async () => {
    const charge = await createPaymentMethodCharge(api, { paymentMethod: { type: 'sofort' }, amount: 1999 });
    const page = await fetch(charge.flow.redirect!.redirectUrl);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).to.contain('<html lang="en">');
    // The amount as checkout writes it, and who is paid.
    expect(html).to.contain('Pay <strong>19.99 EUR</strong> to <strong>Default account</strong> with');
    // In the browser's language.
    const german = await (
      await fetch(charge.flow.redirect!.redirectUrl, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } })
    ).text();
    expect(german).to.contain('<html lang="de">');
    expect(german).to.contain(
      '<strong>19,99 EUR</strong> an <strong>Default account</strong> mit <strong>Sofort</strong> bezahlen',
    );
    expect(german).to.contain('>Autorisieren</button>');
    expect(html).to.contain('Sofort');
    expect(html).to.match(/<legend>[^<]+<\/legend>/);
    expect(html).to.contain('<button type="submit" name="outcome" value="authorize"');
    expect(html).to.contain('<button type="submit" name="outcome" value="decline"');
    // Sofort confirms payments later: its page also offers the processing outcome.
    expect(html).to.contain('value="processing"');
    // Nothing from elsewhere: no scripts, no outside styles, fonts or images.
    expect(html).not.to.match(/<script|<link|<img|src=|url\(/i);
    const ideal = await createPaymentMethodCharge(api);
    expect(await (await fetch(ideal.flow.redirect!.redirectUrl)).text()).not.to.contain('value="processing"');
    const unknown = await fetch(`${service.baseUrl}/payment-redirects/client_char_nothinghere`);
    expect(unknown.status).to.equal(404);
  });

  it('Authorize sends the payer back with clientObjectId; the charge succeeds and the webhook tells', async () => {
    const charge = await createPaymentMethodCharge(api);
    const answer = await completeRedirect(charge, 'authorize');
    expect(answer.status).to.equal(303);
    const back = new URL(answer.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).to.equal('https://shop.example/orders/42/return');
    expect(back.searchParams.get('step')).to.equal('pay');
    expect(back.searchParams.get('clientObjectId')).to.equal(charge.clientObjectId);
    const paid = await getCharge(charge.id);
    expect(paid).to.include({ status: 'successful', captured: true });
    expect(paid.flow).to.deep.equal({ nextAction: 'none', returnUrl: RETURN_URL });
    expect(await typesOf(api, charge.id)).to.deep.equal(['CHARGE_SUCCEEDED']);
    await receiver.waitFor(
      (received) =>
        received.some((webhook) => webhook.body.includes(charge.id) && webhook.body.includes('CHARGE_SUCCEEDED')),
      15_000,
      'the CHARGE_SUCCEEDED webhook',
    );
  });

  it('Decline fails the charge with failure fields; a second choice changes nothing', async () => {
    const charge = await createPaymentMethodCharge(api, { paymentMethod: { type: 'paypal' } });
    expect((await completeRedirect(charge, 'decline')).status).to.equal(303);
    const failed = await getCharge(charge.id);
    expect(failed).to.include({
      status: 'failed',
      captured: false,
      failureCode: 'card_declined',
      failureMessage: 'The payment was declined at the payment method provider.',
    });
    expect(failed.flow.nextAction).to.equal('none');
    const again = await completeRedirect(charge, 'authorize');
    expect(again.status).to.equal(303);
    expect((await getCharge(charge.id)).status).to.equal('failed');
    expect(await typesOf(api, charge.id)).to.deep.equal(['CHARGE_FAILED']);
  });

  it('Processing moves nextAction to wait, then the provider confirms the payment', async () => {
    const charge = await createPaymentMethodCharge(api, { paymentMethod: { type: 'trustly' } });
    expect((await completeRedirect(charge, 'processing')).status).to.equal(303);
    const waiting = await getCharge(charge.id);
    expect(waiting.status).to.equal('pending');
    expect(waiting.flow).to.deep.equal({ nextAction: 'wait', returnUrl: RETURN_URL });
    const paid = await eventually(
      () => getCharge(charge.id),
      (current) => current.status !== 'pending',
    );
    expect(paid).to.include({ status: 'successful', captured: true });
    expect(await typesOf(api, charge.id)).to.deep.equal(['CHARGE_UPDATED', 'CHARGE_SUCCEEDED']);
  });

  it('records exactly one outcome when the payer chooses many times at once', async () => {
    const charge = await createPaymentMethodCharge(api, { paymentMethod: { type: 'blik' } });
    const outcomes = ['authorize', 'decline', 'processing'];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => completeRedirect(charge, outcomes[index % 3]!)),
    );
    expect(answers.map((answer) => answer.status)).to.deep.equal(answers.map(() => 303));
    const decided = await getCharge(charge.id);
    const types = await typesOf(api, charge.id);
    if (decided.status === 'pending') {
      expect(decided.flow.nextAction).to.equal('wait');
      expect(types).to.deep.equal(['CHARGE_UPDATED']);
    } else {
      expect(types).to.deep.equal([decided.status === 'successful' ? 'CHARGE_SUCCEEDED' : 'CHARGE_FAILED']);
    }
  });

  it('replays a payment-method charge under the same Idempotency-Key', async () => {
    const json = { amount: 700, currency: 'EUR', paymentMethod: { type: 'eps' }, flow: { returnUrl: RETURN_URL } };
    const headers = { 'Idempotency-Key': `pm-charge-${Date.now()}` };
    const first = await api.post<PaymentMethodCharge>('/charges', { json, headers });
    const again = await api.post<PaymentMethodCharge>('/charges', { json, headers });
    expect(again.body.id).to.equal(first.body.id);
    expect(again.body.paymentMethod.id).to.equal(first.body.paymentMethod.id);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('refuses processing for a method that confirms at once, and an outcome that does not exist', async () => {
    const charge = await createPaymentMethodCharge(api, { paymentMethod: { type: 'apple_pay' } });
    expect((await completeRedirect(charge, 'processing')).status).to.equal(400);
    expect((await completeRedirect(charge, 'steal')).status).to.equal(400);
    expect((await getCharge(charge.id)).status).to.equal('pending');
  });

  it('charges an existing payment method only for its own customer', async () => {
    const customerId = (await api.post<{ id: string }>('/customers', { form: { email: 'pm@example.com' } })).body.id;
    const otherCustomer = (await api.post<{ id: string }>('/customers', { form: { email: 'x@example.com' } })).body.id;
    const method = (await api.post<PaymentMethod>('/payment-methods', { form: { type: 'blik', customerId } })).body;
    const charge = await createPaymentMethodCharge(api, { paymentMethod: method.id, customerId });
    expect(charge.paymentMethod).to.deep.equal(method);
    expect(charge.customerId).to.equal(customerId);
    const listed = (await api.get<Page<PaymentMethodCharge>>('/charges', { query: { customerId } })).body.list;
    expect(listed.map((candidate) => candidate.id)).to.deep.equal([charge.id]);

    const refused = async (json: Record<string, unknown>, message: string) => {
      const response = await api.post<ApiError>('/charges', {
        json: { amount: 100, currency: 'EUR', flow: { returnUrl: RETURN_URL }, ...json },
      });
      expect(response.status, JSON.stringify(response.body)).to.equal(400);
      expect(response.body.error.message).to.equal(message);
    };
    await refused(
      { paymentMethod: method.id, customerId: otherCustomer },
      `Invalid parameter: paymentMethod '${method.id}' is not a payment method of customer '${otherCustomer}'`,
    );
    await refused(
      { paymentMethod: method.id },
      'customerId: Must not be empty. A payment method id names a payment method of that customer.',
    );
    await api.delete(`/payment-methods/${method.id}`);
    await refused(
      { paymentMethod: method.id, customerId },
      `Invalid parameter: paymentMethod '${method.id}' has been deleted`,
    );
  });

  it('refuses billing, a card or 3-D Secure with paymentMethod, and a missing or bad returnUrl, recording nothing', async () => {
    const before = (await api.get<Page<PaymentMethodCharge>>('/charges', { query: { limit: '100' } })).body.list;
    const base = { amount: 100, currency: 'EUR', paymentMethod: { type: 'ideal' } };
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...base, flow: { returnUrl: RETURN_URL }, billing: { name: 'A' } },
        'Invalid parameter: billing cannot be combined with paymentMethod',
      ],
      [
        { ...base, flow: { returnUrl: RETURN_URL }, card: cardDetails('4242424242424242') },
        'Invalid parameter: card cannot be combined with paymentMethod',
      ],
      [
        { ...base, flow: { returnUrl: RETURN_URL }, threeDSecure: { requireAttempt: true } },
        'Invalid parameter: threeDSecure applies to card charges only',
      ],
      [base, 'flow[returnUrl]: Must not be empty.'],
      [
        { ...base, flow: { returnUrl: 'javascript:alert(1)' } },
        'Invalid parameter: flow[returnUrl] must be an absolute http or https URL',
      ],
      [
        { ...base, paymentMethod: { type: 'cash' }, flow: { returnUrl: RETURN_URL } },
        'Invalid parameter: paymentMethod[type] must be one of: alipay, apple_pay',
      ],
      [
        { ...base, paymentMethod: { billing: { name: 'A' } }, flow: { returnUrl: RETURN_URL } },
        'paymentMethod[type]: Must not be empty.',
      ],
      [
        { ...base, paymentMethod: 'card_123', flow: { returnUrl: RETURN_URL } },
        'Invalid parameter: paymentMethod must be an id starting with pm_',
      ],
    ];
    for (const [json, message] of cases) {
      const response = await api.post<ApiError>('/charges', { json });
      expect(response.status, JSON.stringify(response.body)).to.equal(400);
      expect(response.body.error.message).to.contain(message);
    }
    const flowOnCard = await api.post<ApiError>('/charges', {
      json: { amount: 100, currency: 'EUR', card: cardDetails('4242424242424242'), flow: { returnUrl: RETURN_URL } },
    });
    expect(flowOnCard.status).to.equal(400);
    const after = (await api.get<Page<PaymentMethodCharge>>('/charges', { query: { limit: '100' } })).body.list;
    expect(after.map((charge) => charge.id)).to.deep.equal(before.map((charge) => charge.id));
  });

  it('captures and refunds a successful payment-method charge as a card charge; a pending one cannot be', async () => {
    const charge = await createPaymentMethodCharge(api, { captured: false, amount: 1000 });
    const early = await api.post<ApiError>(`/charges/${charge.id}/capture`);
    expect(early.status).to.equal(400);
    expect(early.body.error.message).to.equal(`Charge '${charge.id}' is pending and cannot be captured yet`);
    expect((await api.post<ApiError>(`/charges/${charge.id}/refund`)).status).to.equal(400);
    await completeRedirect(charge, 'authorize');
    expect(await getCharge(charge.id)).to.include({ status: 'successful', captured: false });
    expect((await api.post<PaymentMethodCharge>(`/charges/${charge.id}/capture`)).body.captured).to.equal(true);
    const partly = (await api.post<PaymentMethodCharge>(`/charges/${charge.id}/refund`, { form: { amount: '300' } }))
      .body;
    expect(partly).to.include({ refunded: false, amountRefunded: 300 });
    const fully = (await api.post<PaymentMethodCharge>(`/charges/${charge.id}/refund`)).body;
    expect(fully).to.include({ refunded: true, amountRefunded: 1000 });
    expect(await typesOf(api, charge.id)).to.deep.equal([
      'CHARGE_SUCCEEDED',
      'CHARGE_CAPTURED',
      'CHARGE_REFUNDED',
      'CHARGE_REFUNDED',
    ]);
  });

  it("keeps a charge's client object to its own account", async () => {
    const charge = await createPaymentMethodCharge(api);
    const other = await createOtherAccount(api, service.dataDir, 'Other shop');
    expect(
      (await other.api.get(`/client-objects/${charge.clientObjectId}`, { key: other.keys.testPublicKey })).status,
    ).to.equal(404);
    expect((await other.api.get(`/charges/${charge.id}`)).status).to.equal(404);
  });
});

describe('pending payment-method charges nobody completes', function () {
  this.timeout(60_000);
  const { api } = useService({ env: { PAYMENT_METHOD_CHARGE_EXPIRY_SECONDS: '2', SCHEDULER_INTERVAL_MS: '200' } });

  it('expire: the worker fails them with failure fields and CHARGE_FAILED; the page then only links back', async () => {
    const charge = await createPaymentMethodCharge(api);
    const expired = await eventually(
      async () => (await api.get<PaymentMethodCharge>(`/charges/${charge.id}`)).body,
      (current) => current.status !== 'pending',
      15_000,
    );
    expect(expired).to.include({
      status: 'failed',
      failureCode: 'processing_error',
      failureMessage: 'The payment was not completed at the payment method provider in time.',
    });
    expect(expired.flow.nextAction).to.equal('none');
    expect((await eventsOf(api, charge.id)).map((event) => event.type)).to.deep.equal(['CHARGE_FAILED']);
    const page = await (await fetch(charge.flow.redirect!.redirectUrl)).text();
    expect(page).not.to.contain('<form');
    expect(page).to.contain(`clientObjectId=${charge.clientObjectId}`);
    const late = await completeRedirect(charge, 'authorize');
    expect(late.status).to.equal(303);
    expect((await api.get<PaymentMethodCharge>(`/charges/${charge.id}`)).body.status).to.equal('failed');
  });
});
