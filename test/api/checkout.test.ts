import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import {
  cardDetails,
  createOtherAccount,
  eventsOf,
  type ApiError,
  type Charge,
  type Customer,
  type Page,
  type Token,
} from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

interface Paid {
  charge?: Charge;
  subscription?: { id: string; status: string; planId: string; customerId: string };
  customer: Customer & { defaultCardId: string | null };
  session: string;
}

const MERCHANT_ORIGIN = 'http://shop.localhost:4100';

describe('hosted checkout: verification and the JSON calls of the page', function () {
  this.timeout(60_000);
  const { api, service, keys } = useService();
  const sign = (request: object) => signCheckoutRequest(request, keys.testSecretKey);
  const page = (checkoutRequest: string, key = keys.testPublicKey) =>
    fetch(
      `${service.baseUrl}/checkout?${new URLSearchParams({ key, checkoutRequest, origin: MERCHANT_ORIGIN, name: 'Shop' })}`,
    );
  const call = <T>(path: string, json: Record<string, unknown>, key: string | null = keys.testPublicKey) =>
    api.post<T>(`/checkout/${path}`, { json, key });

  /** The grant a payer gets for a card remembered under the email, by the code sent, in this checkout request. */
  async function rememberedCardGrant(request: object, email: string): Promise<string> {
    const checkoutRequest = sign(request);
    const code = await call<{ testCode: string }>('remembered-cards/code', { checkoutRequest, email });
    const confirmed = await call<{ rememberedCard: string }>('remembered-cards/confirm', {
      checkoutRequest,
      email,
      code: code.body.testCode,
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    return confirmed.body.rememberedCard;
  }

  async function tokenOf(number = '4242424242424242'): Promise<string> {
    const token = await api.post<{ id: string }>('/tokens', { json: cardDetails(number), key: keys.testPublicKey });
    expect(token.status, JSON.stringify(token.body)).to.equal(200);
    return token.body.id;
  }

  async function pay(request: object, body: Record<string, unknown>) {
    return call<Paid>('pay', { checkoutRequest: sign(request), ...body });
  }

  describe('the page', () => {
    it('answers 200 HTML for a valid request, framed only by the opening page', async () => {
      const response = await page(sign({ charge: { amount: 1999, currency: 'EUR' } }));
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/html/);
      expect(response.headers.get('content-security-policy')).to.include(`frame-ancestors ${MERCHANT_ORIGIN}`);
    });

    it('serves the signing module for Node merchants, whose signed requests open checkout', async () => {
      const download = await fetch(`${service.baseUrl}/js/sign-checkout-request.mjs`);
      expect(download.status).to.equal(200);
      const dir = mkdtempSync(join(tmpdir(), 'merchant-'));
      try {
        const file = join(dir, 'sign-checkout-request.mjs');
        writeFileSync(file, await download.text());
        const merchantModule = (await import(pathToFileURL(file).href)) as {
          signCheckoutRequest: typeof signCheckoutRequest;
        };
        const request = { charge: { amount: 1234, currency: 'EUR' } };
        const signed = merchantModule.signCheckoutRequest(request, keys.testSecretKey);
        expect(signed).to.equal(sign(request));
        expect((await page(signed)).status).to.equal(200);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses a tampered request, one signed for another account, a secret key and unknown plans with an error page', async () => {
      const valid = Buffer.from(sign({ charge: { amount: 1000, currency: 'EUR' } }), 'base64').toString();
      const tampered = Buffer.from(valid.replace('"amount":1000', '"amount":1')).toString('base64');
      const other = await createOtherAccount(api, service.dataDir, 'Other shop');
      const cases: [string, string, number, RegExp][] = [
        [tampered, keys.testPublicKey, 400, /not signed with this account/],
        [
          signCheckoutRequest({ charge: { amount: 1000, currency: 'EUR' } }, other.keys.testSecretKey),
          keys.testPublicKey,
          400,
          /not signed with this account/,
        ],
        [sign({ charge: { amount: 1000, currency: 'EUR' } }), keys.testSecretKey, 401, /public key/],
        [
          sign({ subscription: { planId: 'plan_doesnotexist' } }),
          keys.testPublicKey,
          400,
          /subscription\[planId\] does not name an existing plan/,
        ],
        [sign({ charge: { amount: 0, currency: 'EUR' } }), keys.testPublicKey, 400, /charge\[amount\]/],
        [
          sign({ customCharge: { currency: 'EUR', customAmount: { min: 500, max: 100 } } }),
          keys.testPublicKey,
          400,
          /min must not be greater than max/,
        ],
        ['not-a-request', keys.testPublicKey, 400, /signed checkout request/],
      ];
      for (const [request, key, status, message] of cases) {
        const response = await page(request, key);
        expect(response.status, String(message)).to.equal(status);
        expect(response.headers.get('content-type')).to.match(/^text\/html/);
        expect(await response.text()).to.match(message);
      }
    });
  });

  describe('paying', () => {
    it('pays a fixed charge with a token, creating the customer from the email; the API shows the same objects and events', async () => {
      const paid = await pay(
        { charge: { amount: 2500, currency: 'EUR' } },
        { email: 'payer@example.com', token: await tokenOf() },
      );
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      const { charge, customer } = paid.body;
      expect(charge).to.include({ amount: 2500, currency: 'EUR', status: 'successful', customerId: customer.id });
      expect(customer.email).to.equal('payer@example.com');
      expect(customer.defaultCardId).to.equal(charge!.card!.id);
      expect((await api.get<Charge>(`/charges/${charge!.id}`)).body).to.deep.equal(charge);
      expect((await api.get(`/customers/${customer.id}`)).body).to.deep.equal(customer);
      const types = (await eventsOf(api, charge!.id)).map((event) => event.type);
      expect(types).to.include.members(['CHARGE_SUCCEEDED', 'CHARGE_UPDATED']);
      expect((await eventsOf(api, customer.defaultCardId!)).map((event) => event.type)).to.include(
        'CUSTOMER_CARD_CREATED',
      );
      expect((await eventsOf(api, customer.id)).map((event) => event.type)).to.include('CUSTOMER_CREATED');
    });

    it('declines a card without creating a customer', async () => {
      const before = (await api.get<Page<Customer>>('/customers', { query: { limit: '100' } })).body.list.length;
      const paid = await pay(
        { charge: { amount: 700, currency: 'EUR' } },
        { email: 'declined@example.com', token: await tokenOf('4000000000000002') },
      );
      expect(paid.status).to.equal(402);
      expect((paid.body as unknown as ApiError).error).to.include({ type: 'card_error', code: 'card_declined' });
      const after = (await api.get<Page<Customer>>('/customers', { query: { limit: '100' } })).body.list.length;
      expect(after).to.equal(before);
    });

    it('charges a custom amount only when offered or within bounds, and refuses others without charging', async () => {
      const request = {
        customCharge: { currency: 'USD', amountOptions: [500, 1000], customAmount: { min: 200, max: 5000 } },
      };
      const outside = await pay(request, { email: 'c@example.com', token: await tokenOf(), amount: 9000 });
      expect(outside.status).to.equal(400);
      expect((outside.body as unknown as ApiError).error.message).to.match(
        /amount must be one of 500, 1000 or between 200 and 5000/,
      );
      const missing = await pay(request, { email: 'c@example.com', token: await tokenOf() });
      expect(missing.status).to.equal(400);
      const typed = await pay(request, { email: 'c@example.com', token: await tokenOf(), amount: 4321 });
      expect(typed.status, JSON.stringify(typed.body)).to.equal(200);
      expect(typed.body.charge).to.include({ amount: 4321, currency: 'USD' });
    });

    it('subscribes to a plan, the card becoming the new customer’s default card', async () => {
      const plan = await api.post<{ id: string }>('/plans', {
        json: { amount: 1200, currency: 'EUR', interval: 'month', name: 'Monthly box' },
      });
      const paid = await pay(
        { subscription: { planId: plan.body.id } },
        { email: 'sub@example.com', token: await tokenOf() },
      );
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect(paid.body.subscription).to.include({
        planId: plan.body.id,
        status: 'active',
        customerId: paid.body.customer.id,
      });
      expect(paid.body.customer.defaultCardId).to.match(/^card_/);
    });

    it("subscription without a trial: the answer's charge is the first charge the API shows", async () => {
      const plan = await api.post<{ id: string }>('/plans', {
        json: { amount: 1300, currency: 'EUR', interval: 'month', name: 'Monthly' },
      });
      const paid = await pay(
        { subscription: { planId: plan.body.id } },
        { email: 'first@example.com', token: await tokenOf() },
      );
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect(paid.body.charge).to.include({
        amount: 1300,
        status: 'successful',
        subscriptionId: paid.body.subscription!.id,
      });
      expect((await api.get(`/charges/${paid.body.charge!.id}`)).body).to.deep.equal(paid.body.charge);

      const trial = await api.post<{ id: string }>('/plans', {
        json: { amount: 1300, currency: 'EUR', interval: 'month', name: 'Trial', trialPeriodDays: 7 },
      });
      const trialing = await pay(
        { subscription: { planId: trial.body.id } },
        { email: 'trial@example.com', token: await tokenOf() },
      );
      expect(trialing.body.subscription).to.include({ status: 'trialing' });
      expect(trialing.body).not.to.have.property('charge');
    });

    it('subscription whose first charge is declined: the decline is answered, as for a charge', async () => {
      const plan = await api.post<{ id: string }>('/plans', {
        json: { amount: 1400, currency: 'EUR', interval: 'month', name: 'Declined box' },
      });
      const request = { subscription: { planId: plan.body.id } };
      const declined = await pay(request, {
        email: 'sub-declined@example.com',
        token: await tokenOf('4000000000000341'),
      });
      expect(declined.status, JSON.stringify(declined.body)).to.equal(402);
      const error = (declined.body as unknown as ApiError).error;
      expect(error).to.include({ type: 'card_error', code: 'card_declined' });
      // The API's record: the declined first charge, and the subscription it left incomplete.
      const charge = (await api.get<Charge & { subscriptionId: string }>(`/charges/${error.chargeId}`)).body;
      expect(charge).to.include({ status: 'failed', amount: 1400 });
      const subscription = (await api.get<{ status: string }>(`/subscriptions/${charge.subscriptionId}`)).body;
      expect(subscription.status).to.equal('incomplete');
      // Another card pays.
      const paid = await pay(request, { email: 'sub-declined@example.com', token: await tokenOf() });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect(paid.body.subscription).to.include({ status: 'active' });
      expect(paid.body.charge).to.include({ status: 'successful' });
    });

    it("uses the request's charge fields public integrations send (description, metadata, capture), and refuses an unknown one by name", async () => {
      const charge = {
        amount: 800,
        currency: 'EUR',
        description: 'Banquet',
        metadata: { eventId: '42' },
        capture: false,
      };
      const paid = await pay({ charge }, { email: 'fields@example.com', token: await tokenOf() });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect(paid.body.charge).to.include({ description: 'Banquet', captured: false });
      expect(paid.body.charge!.metadata).to.deep.equal({ eventId: '42' });
      const custom = await pay(
        { customCharge: { currency: 'EUR', amountOptions: [500], description: 'Donation' } },
        { email: 'fields@example.com', token: await tokenOf(), amount: 500 },
      );
      expect(custom.body.charge).to.include({ description: 'Donation' });
      // SecurionPay's .NET library signs a charge's capture as `captured`.
      const dotNet = await pay(
        { charge: { amount: 800, currency: 'EUR', captured: false } },
        { email: 'fields@example.com', token: await tokenOf() },
      );
      expect(dotNet.status, JSON.stringify(dotNet.body)).to.equal(200);
      expect(dotNet.body.charge).to.include({ captured: false });

      for (const [request, named] of [
        [{ charge: { amount: 800, currency: 'EUR', colour: 'red' } }, 'charge[colour]'],
        [
          { charge: { amount: 800, currency: 'EUR', capture: true, captured: false } },
          'capture and captured must agree',
        ],
        [{ charge: { amount: 800, currency: 'EUR' }, redirectUrl: 'https://shop.example/' }, 'redirectUrl'],
      ] as const) {
        const response = await page(sign(request));
        expect(response.status).to.equal(400);
        expect(await response.text()).to.include(named);
      }
    });

    it('takes a threeDSecure without enable, as SecurionPay’s .NET library signs enable: false: no verification', async () => {
      const request = { charge: { amount: 700, currency: 'EUR' }, threeDSecure: { requireEnrolledCard: true } };
      expect((await page(sign(request))).status).to.equal(200);
      const paid = await pay(request, { email: 'dotnet@example.com', token: await tokenOf() });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect(paid.body.charge).to.include({ amount: 700, status: 'successful' });
    });

    it('records the shipping address the payer gave on the charge and the subscription', async () => {
      const shipping = {
        name: 'Ada Lovelace',
        address: { line1: '1 Main St', zip: '00-001', city: 'Warsaw', country: 'PL' },
      };
      const paid = await pay(
        { charge: { amount: 900, currency: 'EUR' } },
        { email: 's@example.com', token: await tokenOf(), shipping },
      );
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect((paid.body.charge as Charge & { shipping: unknown }).shipping).to.deep.equal(shipping);
      const plan = await api.post<{ id: string }>('/plans', {
        json: { amount: 1000, currency: 'EUR', interval: 'month', name: 'Shipped box' },
      });
      const subscribed = await pay(
        { subscription: { planId: plan.body.id } },
        { email: 's@example.com', token: await tokenOf(), shipping },
      );
      expect((subscribed.body.subscription as unknown as { shipping: unknown }).shipping).to.deep.equal(shipping);
      const wrongCountry = await pay(
        { charge: { amount: 900, currency: 'EUR' } },
        { email: 's@example.com', token: await tokenOf(), shipping: { address: { country: 'Poland' } } },
      );
      expect(wrongCountry.status).to.equal(400);
      expect((wrongCountry.body as unknown as ApiError).error.message).to.include('shipping[address][country]');
    });

    it('assigns the charge to the customer the request names', async () => {
      const customer = await api.post<Customer>('/customers', { json: { email: 'known@example.com' } });
      const paid = await pay(
        { charge: { amount: 300, currency: 'EUR' }, customerId: customer.body.id },
        { token: await tokenOf() },
      );
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect(paid.body.charge!.customerId).to.equal(customer.body.id);
      expect(paid.body.customer.id).to.equal(customer.body.id);
    });

    it('pays with a payment method the request offers: pending, then decided at the provider, then its status', async () => {
      const request = { charge: { amount: 1500, currency: 'EUR' }, paymentMethodTypes: ['ideal', 'paypal'] };
      const notOffered = await pay(request, { email: 'pm@example.com', paymentMethod: 'blik' });
      expect(notOffered.status).to.equal(400);
      // The page's language, for the return page, is one the service speaks.
      const unknownLocale = await call<ApiError>('pay', {
        checkoutRequest: sign(request),
        email: 'pm@example.com',
        paymentMethod: 'ideal',
        locale: 'xx',
      });
      expect(unknownLocale.status).to.equal(400);
      expect(unknownLocale.body.error.type, JSON.stringify(unknownLocale.body)).to.equal('invalid_request');
      expect(unknownLocale.body.error.message).to.include('locale');
      const refusedForPlans = await page(sign({ subscription: { planId: 'plan_x' }, paymentMethodTypes: ['ideal'] }));
      expect(refusedForPlans.status).to.equal(400);
      const paid = await pay(request, { email: 'pm@example.com', paymentMethod: 'ideal' });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      const charge = paid.body.charge as Charge & {
        clientObjectId: string;
        flow: { nextAction: string; returnUrl: string; redirect: { redirectUrl: string } };
      };
      expect(charge).to.include({ status: 'pending', customerId: paid.body.customer.id });
      expect(charge.flow.nextAction).to.equal('redirect');
      expect(charge.flow.returnUrl).to.equal(`${service.baseUrl}/checkout/returned`);
      // The payer authorizes at the provider's page, which sends them back to the return page.
      const decided = await fetch(charge.flow.redirect.redirectUrl, {
        method: 'POST',
        body: new URLSearchParams({ outcome: 'authorize' }),
        redirect: 'manual',
      });
      expect(decided.status).to.equal(303);
      const returned = await fetch(decided.headers.get('location')!);
      expect(returned.status).to.equal(200);
      expect(await returned.text()).to.include('Payment completed');
      const status = await call<Paid>('payment-status', { checkoutRequest: sign(request), session: paid.body.session });
      expect(status.status, JSON.stringify(status.body)).to.equal(200);
      expect(status.body.charge).to.include({ id: charge.id, status: 'successful' });
      expect(status.body.customer.id).to.equal(paid.body.customer.id);
    });

    it('answers errors in the API envelope: a missing key, a secret key, a missing email', async () => {
      const request = sign({ charge: { amount: 300, currency: 'EUR' } });
      const noKey = await call<ApiError>('pay', { checkoutRequest: request, token: 'tok_x' }, null);
      expect(noKey.status).to.equal(401);
      const secret = await call<ApiError>('pay', { checkoutRequest: request, token: 'tok_x' }, keys.testSecretKey);
      expect(secret.status).to.equal(401);
      const noEmail = await call<ApiError>('pay', { checkoutRequest: request, token: await tokenOf() });
      expect(noEmail.status).to.equal(400);
      expect(noEmail.body.error).to.deep.equal({ type: 'invalid_request', message: 'email: Must not be empty.' });
    });
  });

  describe('3-D Secure: a failed authentication is never charged', () => {
    const CHALLENGE = '4000000000003220';

    /** A token whose challenge for the amount the cardholder completed or failed, as the page does it. */
    async function authenticatedToken(
      outcome: 'complete' | 'fail',
      amount: number,
      currency = 'EUR',
      number = CHALLENGE,
    ): Promise<string> {
      const token = await tokenOf(number);
      const verified = await api.post<Token>(`/tokens/${token}/three-d-secure`, {
        json: { amount, currency },
        key: keys.testPublicKey,
      });
      expect(verified.body.threeDSecureInfo?.liabilityShift).to.equal('pending');
      const answered = await api.post<Token>('/three-d-secure/challenge', {
        key: null,
        json: { token, key: keys.testPublicKey, outcome, ...(outcome === 'complete' ? { code: '123456' } : {}) },
      });
      expect(answered.status, JSON.stringify(answered.body)).to.equal(200);
      return token;
    }

    const customerCount = async () =>
      (await api.get<Page<Customer>>('/customers', { query: { limit: '100' } })).body.list.length;
    const successfulCharges = async () =>
      (await api.get<Page<Charge>>('/charges', { query: { limit: '100' } })).body.list.filter(
        (charge) => charge.status === 'successful',
      ).length;

    /** Refused with 402 authentication_required; the failed charge, when one was tried, records why. */
    async function expectRefused(paid: { status: number; body: unknown }): Promise<void> {
      expect(paid.status, JSON.stringify(paid.body)).to.equal(402);
      const { error } = paid.body as ApiError;
      expect(error).to.include({ type: 'card_error', code: 'authentication_required' });
      expect(paid.body).not.to.have.property('session');
      const chargeId = (error as { chargeId?: string }).chargeId;
      if (chargeId) {
        const failed = (await api.get<Charge>(`/charges/${chargeId}`)).body;
        expect(failed.status).to.equal('failed');
        expect(failed.threeDSecureInfo).to.include({ liabilityShift: 'failed' });
      }
    }

    it('fixed charge: refused after a failed challenge, nothing made; paid after a completed one', async () => {
      const request = { charge: { amount: 1999, currency: 'EUR' }, threeDSecure: { enable: true } };
      const [customers, charged] = [await customerCount(), await successfulCharges()];
      await expectRefused(
        await pay(request, { email: 'failed.3ds@example.com', token: await authenticatedToken('fail', 1999) }),
      );
      expect(await customerCount()).to.equal(customers);
      expect(await successfulCharges()).to.equal(charged);

      const retried = await pay(request, {
        email: 'failed.3ds@example.com',
        token: await authenticatedToken('complete', 1999),
      });
      expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
      expect(retried.body.charge).to.include({ status: 'successful' });
      expect(retried.body.charge!.threeDSecureInfo).to.include({ liabilityShift: 'successful' });
    });

    it('charges a failed authentication only when the request says so (requireSuccessfulLiabilityShiftForEnrolledCard: false)', async () => {
      const paid = await pay(
        {
          charge: { amount: 1999, currency: 'EUR' },
          threeDSecure: { enable: true, requireSuccessfulLiabilityShiftForEnrolledCard: false },
        },
        { email: 'lenient@example.com', token: await authenticatedToken('fail', 1999) },
      );
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect(paid.body.charge).to.include({ status: 'successful' });
      expect(paid.body.charge!.threeDSecureInfo).to.include({ liabilityShift: 'failed' });
    });

    it('custom amount: refused after a failed challenge for the chosen amount', async () => {
      const request = {
        customCharge: { currency: 'EUR', customAmount: { min: 100, max: 10000 } },
        threeDSecure: { enable: true },
      };
      const charged = await successfulCharges();
      await expectRefused(
        await pay(request, {
          email: 'custom.3ds@example.com',
          amount: 4250,
          token: await authenticatedToken('fail', 4250),
        }),
      );
      expect(await successfulCharges()).to.equal(charged);
    });

    it("subscription: refused after a failed challenge for the plan's amount, with or without a trial; no customer, no subscription", async () => {
      for (const trialPeriodDays of [undefined, 14]) {
        const plan = await api.post<{ id: string }>('/plans', {
          json: {
            amount: 1500,
            currency: 'EUR',
            interval: 'month',
            name: 'Box',
            ...(trialPeriodDays ? { trialPeriodDays } : {}),
          },
        });
        const request = { subscription: { planId: plan.body.id }, threeDSecure: { enable: true } };
        const [customers, charged] = [await customerCount(), await successfulCharges()];
        await expectRefused(
          await pay(request, { email: 'sub.3ds@example.com', token: await authenticatedToken('fail', 1500) }),
        );
        expect(await customerCount()).to.equal(customers);
        expect(await successfulCharges()).to.equal(charged);
        const subscriptions = await api.get<Page<{ planId: string }>>('/subscriptions', { query: { limit: '100' } });
        expect(subscriptions.body.list.filter((each) => each.planId === plan.body.id)).to.deep.equal([]);
      }
    });

    it("subscription: paid after a completed challenge for the plan's amount; the first charge shifts liability", async () => {
      const plan = await api.post<{ id: string }>('/plans', {
        json: { amount: 1700, currency: 'EUR', interval: 'month', name: 'Authenticated box' },
      });
      const request = { subscription: { planId: plan.body.id }, threeDSecure: { enable: true } };
      const paid = await pay(request, {
        email: 'sub.completed.3ds@example.com',
        token: await authenticatedToken('complete', 1700),
      });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect(paid.body.subscription).to.include({ status: 'active', planId: plan.body.id });
      const charges = await api.get<Page<Charge>>('/charges', { query: { customerId: paid.body.customer.id } });
      expect(charges.body.list).to.have.length(1);
      expect(charges.body.list[0]).to.include({ status: 'successful', amount: 1700, currency: 'EUR' });
      expect(charges.body.list[0]!.threeDSecureInfo).to.include({
        amount: 1700,
        liabilityShift: 'successful',
        authenticationFlow: 'challenge',
      });
    });

    it("offers after a completed challenge: the main payment's verification does not count for the offer's amount", async () => {
      const offer = await api.post<{ id: string }>('/cross-sale-offers', {
        json: { charge: { amount: 450, currency: 'EUR' }, template: 'text_only', title: 'Extended warranty' },
      });
      const plan = await api.post<{ id: string }>('/plans', {
        json: { amount: 1200, currency: 'EUR', interval: 'month', name: 'Box with offers' },
      });
      for (const [main, amount] of [
        [{ charge: { amount: 2100, currency: 'EUR' } }, 2100],
        [{ subscription: { planId: plan.body.id } }, 1200],
      ] as const) {
        const request = { ...main, threeDSecure: { enable: true }, crossSaleOfferIds: [offer.body.id] };
        const paid = await pay(request, {
          email: 'offer.after.challenge@example.com',
          token: await authenticatedToken('complete', amount),
        });
        expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
        const charged = await successfulCharges();
        const bought = await call<ApiError>('cross-sale-purchases', {
          checkoutRequest: sign(request),
          session: paid.body.session,
          offerId: offer.body.id,
        });
        expect(bought.status, JSON.stringify(bought.body)).to.equal(402);
        expect(bought.body.error).to.include({ type: 'card_error', code: 'authentication_required' });
        expect(await successfulCharges()).to.equal(charged);
      }
    });

    it('remembered card: a card whose authentication failed is not remembered', async () => {
      const request = { charge: { amount: 900, currency: 'EUR' }, rememberMe: true, threeDSecure: { enable: true } };
      const email = 'remember.failed@example.com';
      await expectRefused(
        await pay(request, { email, rememberMe: true, token: await authenticatedToken('fail', 900) }),
      );
      const code = await call<{ sent: boolean; testCode?: string }>('remembered-cards/code', {
        checkoutRequest: sign(request),
        email,
      });
      expect(code.body).to.deep.equal({ sent: true });
    });

    it("remembered card: held to the request's requirements as a saved card's charge is; an issuer refusing authentication is refused", async () => {
      for (const [number, outcome] of [
        ['4000000000003238', 'refused'],
        ['4000000000003063', 'successful'],
        ['4242424242424242', 'not_possible'],
      ] as const) {
        const email = `remembered.${number.slice(-4)}@example.com`;
        // Remembered from a checkout that did not ask for 3-D Secure.
        const remembered = await pay(
          { charge: { amount: 700, currency: 'EUR' }, rememberMe: true },
          { email, rememberMe: true, token: await tokenOf(number) },
        );
        expect(remembered.status, JSON.stringify(remembered.body)).to.equal(200);
        const request = { charge: { amount: 701, currency: 'EUR' }, rememberMe: true, threeDSecure: { enable: true } };
        const rememberedCard = await rememberedCardGrant(request, email);
        const charged = await successfulCharges();
        const paid = await pay(request, { email, rememberedCard });
        if (outcome === 'refused') {
          await expectRefused(paid);
          expect(await successfulCharges(), number).to.equal(charged);
        } else {
          expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
          expect(paid.body.charge!.threeDSecureInfo, number).to.include({ liabilityShift: outcome });
        }
      }
    });

    it('remembered card: starts no subscription in a checkout that asks for 3-D Secure, as it was verified for no payment of it', async () => {
      const email = 'remembered.subscriber@example.com';
      const remembered = await pay(
        { charge: { amount: 700, currency: 'EUR' }, rememberMe: true },
        { email, rememberMe: true, token: await tokenOf() },
      );
      expect(remembered.status, JSON.stringify(remembered.body)).to.equal(200);
      const plan = await api.post<{ id: string }>('/plans', {
        json: { amount: 1900, currency: 'EUR', interval: 'month', name: 'Remembered box' },
      });
      const grant = (request: object) => rememberedCardGrant(request, email);
      const strict = { subscription: { planId: plan.body.id }, rememberMe: true, threeDSecure: { enable: true } };
      await expectRefused(await pay(strict, { email, rememberedCard: await grant(strict) }));
      const subscriptions = await api.get<Page<{ planId: string }>>('/subscriptions', { query: { limit: '100' } });
      expect(subscriptions.body.list.filter((each) => each.planId === plan.body.id)).to.deep.equal([]);

      // A request that requires nothing of the authentication subscribes with it.
      const lenient = {
        ...strict,
        threeDSecure: { enable: true, requireSuccessfulLiabilityShiftForEnrolledCard: false },
      };
      const paid = await pay(lenient, { email, rememberedCard: await grant(lenient) });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect(paid.body.subscription).to.include({ planId: plan.body.id, status: 'active' });
    });

    it('offers and payment methods: offers follow only an authenticated payment; a payment method still pays', async () => {
      const offer = await api.post<{ id: string }>('/cross-sale-offers', {
        json: { charge: { amount: 300, currency: 'EUR' }, template: 'text_only', title: 'Gift wrap' },
      });
      const request = {
        charge: { amount: 1999, currency: 'EUR' },
        threeDSecure: { enable: true },
        crossSaleOfferIds: [offer.body.id],
        paymentMethodTypes: ['ideal'],
      };
      const email = 'offers.3ds@example.com';
      const charged = await successfulCharges();
      // Refused: no session, so nothing to buy offers with.
      await expectRefused(await pay(request, { email, token: await authenticatedToken('fail', 1999) }));
      expect(await successfulCharges()).to.equal(charged);

      // Another card, authenticated without a challenge (the issuer then does not demand it for the offer).
      const frictionless = await tokenOf('4000000000003063');
      await api.post(`/tokens/${frictionless}/three-d-secure`, {
        json: { amount: 1999, currency: 'EUR' },
        key: keys.testPublicKey,
      });
      const paid = await pay(request, { email, token: frictionless });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      expect(paid.body.charge!.threeDSecureInfo).to.include({ liabilityShift: 'successful' });
      const bought = await call<{ charge: Charge }>('cross-sale-purchases', {
        checkoutRequest: sign(request),
        session: paid.body.session,
        offerId: offer.body.id,
      });
      expect(bought.status, JSON.stringify(bought.body)).to.equal(200);
      expect(bought.body.charge).to.include({ status: 'successful', amount: 300 });
      expect(bought.body.charge.card!.last4).to.equal('3063');

      const byMethod = await pay(request, { email, paymentMethod: 'ideal' });
      expect(byMethod.status, JSON.stringify(byMethod.body)).to.equal(200);
      expect(byMethod.body.charge).to.include({ status: 'pending' });
    });
  });

  describe('remembered cards', () => {
    it('offers a remembered card after the emailed code, pays with it once, and refuses a wrong code', async () => {
      const request = { charge: { amount: 800, currency: 'EUR' }, rememberMe: true };
      const email = 'remember.me@example.com';
      const first = await pay(request, { email, token: await tokenOf('5555555555554444'), rememberMe: true });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);

      const checkoutRequest = sign(request);
      const unknown = await call<{ sent: boolean; testCode?: string }>('remembered-cards/code', {
        checkoutRequest,
        email: 'nobody@example.com',
      });
      expect(unknown.body).to.deep.equal({ sent: true });
      const code = await call<{ sent: boolean; testCode: string }>('remembered-cards/code', { checkoutRequest, email });
      expect(code.body.testCode).to.match(/^\d{6}$/);
      const wrong = String((Number(code.body.testCode) + 1) % 1_000_000).padStart(6, '0');
      expect((await call('remembered-cards/confirm', { checkoutRequest, email, code: wrong })).status).to.equal(400);
      const confirmed = await call<{ rememberedCard: string; card: { last4: string; brand: string } }>(
        'remembered-cards/confirm',
        {
          checkoutRequest,
          email,
          code: code.body.testCode,
        },
      );
      expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
      expect(confirmed.body.card).to.include({ last4: '4444', brand: 'MasterCard' });

      const second = await call<Paid>('pay', { checkoutRequest, email, rememberedCard: confirmed.body.rememberedCard });
      expect(second.status, JSON.stringify(second.body)).to.equal(200);
      expect(second.body.customer.id).to.equal(first.body.customer.id);
      expect(second.body.charge!.card!.id).to.equal(first.body.charge!.card!.id);
      const again = await call<ApiError>('pay', {
        checkoutRequest,
        email,
        rememberedCard: confirmed.body.rememberedCard,
      });
      expect(again.status).to.equal(400);
    });

    it('gives a code five tries at most', async () => {
      const request = { charge: { amount: 800, currency: 'EUR' }, rememberMe: true };
      const email = 'five.tries@example.com';
      await pay(request, { email, token: await tokenOf(), rememberMe: true });
      const checkoutRequest = sign(request);
      const code = (await call<{ testCode: string }>('remembered-cards/code', { checkoutRequest, email })).body
        .testCode;
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const tries = await Promise.all(
        Array.from({ length: 6 }, () => call('remembered-cards/confirm', { checkoutRequest, email, code: wrong })),
      );
      expect(tries.every((attempt) => attempt.status === 400)).to.equal(true);
      expect((await call('remembered-cards/confirm', { checkoutRequest, email, code })).status).to.equal(400);
    });
  });

  describe('cross-sale offers', () => {
    it("shows a partner's visible offer, buys it with the same card on the partner's account, once", async () => {
      const partner = await createOtherAccount(api, service.dataDir, 'Insurer');
      const offer = await partner.api.post<{ id: string }>('/cross-sale-offers', {
        json: {
          charge: { amount: 990, currency: 'EUR' },
          template: 'text_only',
          title: 'Travel insurance',
          visibleForAllPartners: true,
        },
      });
      const hidden = await partner.api.post<{ id: string }>('/cross-sale-offers', {
        json: { charge: { amount: 100, currency: 'EUR' }, template: 'text_only', title: 'Not for you' },
      });
      const withOffer = { charge: { amount: 5000, currency: 'EUR' }, crossSaleOfferIds: [offer.body.id] };
      // Not on the merchant's partner list yet: the request is refused.
      expect((await page(sign(withOffer))).status).to.equal(400);
      const added = await runCli(['accounts', 'partners', 'add', keys.id, partner.keys.id], service.dataDir);
      expect(added.code, added.stderr).to.equal(0);
      let shown = await page(sign(withOffer));
      for (let i = 0; i < 50 && shown.status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        shown = await page(sign(withOffer));
      }
      expect(shown.status).to.equal(200);
      expect(await shown.text()).to.include('Travel insurance');
      const notVisible = await page(sign({ ...withOffer, crossSaleOfferIds: [hidden.body.id] }));
      expect(notVisible.status).to.equal(400);

      const paid = await pay(withOffer, { email: 'traveller@example.com', token: await tokenOf() });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      const buy = () =>
        call<{
          charge: Charge & { crossSale: { offerId: string; merchantAccountId: string; merchantChargeId: string } };
        }>('cross-sale-purchases', {
          checkoutRequest: sign(withOffer),
          session: paid.body.session,
          offerId: offer.body.id,
        });
      const bought = await buy();
      expect(bought.status, JSON.stringify(bought.body)).to.equal(200);
      const { charge } = bought.body;
      expect(charge).to.include({ amount: 990, currency: 'EUR', status: 'successful' });
      expect(charge.card!.last4).to.equal(paid.body.charge!.card!.last4);
      expect(charge.crossSale).to.include({
        offerId: offer.body.id,
        merchantAccountId: keys.id,
        merchantChargeId: paid.body.charge!.id,
      });
      // The charge is the partner's: readable with its key, not with the merchant's.
      expect((await partner.api.get(`/charges/${charge.id}`)).status).to.equal(200);
      expect((await api.get(`/charges/${charge.id}`)).status).to.equal(404);
      expect((await eventsOf(partner.api, charge.id)).map((event) => event.type)).to.include('CHARGE_SUCCEEDED');
      expect((await eventsOf(api, paid.body.charge!.id)).map((event) => event.type)).to.include('CHARGE_UPDATED');
      // Bought again in the same checkout: the same charge, not a second one.
      expect((await buy()).body.charge.id).to.equal(charge.id);
      const wrongSession = await call<ApiError>('cross-sale-purchases', {
        checkoutRequest: sign(withOffer),
        session: 'not-a-session',
        offerId: offer.body.id,
      });
      expect(wrongSession.status).to.equal(400);
    });
  });
});
