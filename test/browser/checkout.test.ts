import { expect } from 'chai';
import express from 'express';
import { Jimp } from 'jimp';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { startMerchantServer } from '../../examples/merchant/merchant-server.ts';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { launchBrowser, screenshotDir, type HeadlessBrowser } from '../support/browser.ts';
import { createOtherAccount, type Charge } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { createPlan } from '../support/subscriptions.ts';
import { useService } from '../support/use-service.ts';

const FUTURE_EXPIRY = `12${String((new Date().getUTCFullYear() + 3) % 100)}`;

interface CheckoutResult {
  charge?: Charge;
  subscription?: { id: string; planId: string; customerId: string; status: string };
  customer: { id: string; email: string | null; defaultCardId?: string | null };
}

/**
 * The hosted checkout in headless Chromium: a merchant's page (its own origin) loads
 * `/js/checkout.js` and opens checkout with a signed request; the payer uses the checkout frame of
 * the service (card fields nested in it, 3-D Secure challenge inside it); the merchant's callback
 * gets the objects, and the API with the secret key shows the same ones.
 */
describe('hosted checkout in a browser (checkout.js, the checkout page)', function () {
  this.timeout(120_000);
  const { api, service, keys } = useService();
  let browser: HeadlessBrowser;
  let shop: { url: string; close(): Promise<void> };
  const shots = screenshotDir();

  before(async () => {
    shop = await startShop(
      () => service.baseUrl,
      () => keys.testPublicKey,
    );
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
  });

  const sign = (request: object) => signCheckoutRequest(request, keys.testSecretKey);

  /** The merchant's page with checkout opened for `request`; resolves once the pay button shows. */
  async function openCheckout(
    request: object | string,
    options: { name?: string; description?: string; email?: string; width?: number } = {},
  ): Promise<{ page: Page; checkout: FrameLocator }> {
    const page = await browser.newPage();
    if (options.width) await page.setViewportSize({ width: options.width, height: 760 });
    await page.goto(`${shop.url}/`);
    const signed = typeof request === 'string' ? request : sign(request);
    const { name, description, email } = options;
    await page.evaluate(`openCheckout(${JSON.stringify({ checkoutRequest: signed, name, description, email })})`);
    const checkout = page.frameLocator('[data-shift4-overlay] iframe');
    return { page, checkout };
  }

  const fieldOf = (checkout: FrameLocator, name: string) =>
    checkout.frameLocator(`[data-shift4="${name}"] iframe`).locator('input');

  async function typeCard(page: Page, checkout: FrameLocator, number: string): Promise<void> {
    await fieldOf(checkout, 'number').click();
    await page.keyboard.type(number);
    await page.keyboard.press('Tab');
    await page.keyboard.type(FUTURE_EXPIRY);
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
  }

  /** What the merchant's success callback received. */
  async function callbackResult(page: Page): Promise<CheckoutResult> {
    const result = page.locator('#result[data-status=success]');
    await result.waitFor({ state: 'attached' });
    return JSON.parse((await result.textContent()) ?? '{}') as CheckoutResult;
  }

  async function successShown(checkout: FrameLocator): Promise<void> {
    await checkout.locator('#success-step').waitFor({ state: 'visible' });
  }

  it('charge: the payer types email and card, the callback gets the charge and customer the API shows', async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 1999, currency: 'EUR' } },
      { name: 'Demo shop', description: 'Order #1001' },
    );
    await checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Checkout' }).count()).to.equal(1);
    // The payer starts in the email field.
    await checkout.locator('#email:focus').waitFor();
    expect(await checkout.locator('h1').textContent()).to.equal('Demo shop');
    expect(await checkout.locator('.description').textContent()).to.equal('Order #1001');
    expect(await checkout.locator('#total').textContent()).to.equal('19.99 EUR');

    // Paying without an email is refused next to the email, before any card is used.
    await checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).click();
    expect(await checkout.locator('#email-error').textContent()).to.equal('Enter your email address.');
    expect(await checkout.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).to.equal('true');

    await checkout.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await typeCard(page, checkout, '4242424242424242');
    await page.screenshot({ path: join(shots, 'checkout-charge.png') });
    // The number lives in the field frames only: neither the merchant's page nor the checkout page holds it.
    for (const html of [await page.content(), await checkout.locator('html').innerHTML()])
      expect(html).not.to.include('4242424242424242').and.not.to.include('4242 4242 4242 4242');
    await checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).click();
    const result = await callbackResult(page);
    await successShown(checkout);
    expect(await checkout.locator('#success-title').textContent()).to.equal('Payment successful');
    expect(await checkout.locator('#receipt').textContent())
      .to.include('19.99 EUR')
      .and.include('Visa •••• 4242')
      .and.include('ada@example.com')
      .and.include(result.charge!.id);
    await page.screenshot({ path: join(shots, 'checkout-success.png') });

    expect(result.charge).to.include({ amount: 1999, currency: 'EUR', status: 'successful' });
    expect(result.customer).to.include({ email: 'ada@example.com' });
    const charge = (await api.get<Charge>(`/charges/${result.charge!.id}`)).body;
    expect(charge).to.deep.equal(result.charge);
    expect(charge.customerId).to.equal(result.customer.id);
    expect((await api.get(`/customers/${result.customer.id}`)).body).to.deep.equal(result.customer);

    // The dialog stays until the payer is done; Done closes it and gives the focus back.
    await checkout.getByRole('button', { name: 'Done' }).click();
    await page.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    expect(await page.evaluate('document.activeElement?.id')).to.equal('open');
    await page.close();
  });

  it('subscription: the plan, its price per interval and trial; the callback gets the subscription', async () => {
    const plan = await createPlan(api, {
      name: 'Gold',
      amount: 1500,
      interval: 'month',
      intervalCount: 3,
      trialPeriodDays: 14,
    });
    const { page, checkout } = await openCheckout(
      { subscription: { planId: plan.id } },
      { email: 'grace@example.com' },
    );
    const pay = checkout.getByRole('button', { name: 'Subscribe for 15.00 EUR every 3 months' });
    await pay.waitFor();
    expect(await checkout.locator('#plan-name').textContent()).to.equal('Gold');
    expect(await checkout.locator('#trial').textContent()).to.include('14-day free trial');
    // The email the merchant passed to open() is filled in.
    expect(await checkout.getByLabel('Email', { exact: true }).inputValue()).to.equal('grace@example.com');
    await typeCard(page, checkout, '4242424242424242');
    await page.screenshot({ path: join(shots, 'checkout-subscription.png') });
    await pay.click();
    const result = await callbackResult(page);
    await successShown(checkout);
    expect(await checkout.locator('#success-title').textContent()).to.equal('Subscription started');
    expect(result.subscription).to.include({ planId: plan.id, customerId: result.customer.id });
    expect((await api.get(`/subscriptions/${result.subscription!.id}`)).body).to.deep.equal(result.subscription);
    expect(result.customer).to.include({ email: 'grace@example.com' });
    await page.close();
  });

  it('custom charge: amount buttons (aria-pressed) or a typed amount; out of bounds is refused in the page', async () => {
    const { page, checkout } = await openCheckout(
      { customCharge: { currency: 'EUR', amountOptions: [500, 1000, 2500], customAmount: { min: 300, max: 10000 } } },
      { email: 'alan@example.com', width: 375 },
    );
    const ten = checkout.getByRole('button', { name: '10.00 EUR', exact: true });
    await ten.waitFor();
    await ten.click();
    expect(await ten.getAttribute('aria-pressed')).to.equal('true');
    expect(await checkout.locator('#pay').textContent()).to.equal('Pay 10.00 EUR');

    // Typing an amount releases the buttons; outside the bounds the page refuses to pay.
    const payRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/checkout/pay')) payRequests.push(request.postData() ?? '');
    });
    await checkout.getByLabel('Other amount (EUR)').fill('150');
    expect(await ten.getAttribute('aria-pressed')).to.equal('false');
    await typeCard(page, checkout, '4242424242424242');
    await checkout.locator('#pay').click();
    expect(await checkout.locator('#amount-error').textContent()).to.equal(
      'Enter an amount from 3.00 EUR to 100.00 EUR.',
    );
    expect(await checkout.getByLabel('Other amount (EUR)').getAttribute('aria-invalid')).to.equal('true');
    await page.screenshot({ path: join(shots, 'checkout-custom-amount-phone.png'), fullPage: true });
    await checkout.getByLabel('Other amount (EUR)').fill('2');
    await checkout.locator('#pay').click();
    expect(await checkout.locator('#amount-error').textContent()).to.include('from 3.00 EUR');
    expect(payRequests).to.deep.equal([]);

    await checkout.getByLabel('Other amount (EUR)').fill('42.50');
    expect(await checkout.locator('#amount-error').textContent()).to.equal('');
    await checkout.getByRole('button', { name: 'Pay 42.50 EUR' }).click();
    const result = await callbackResult(page);
    expect(result.charge).to.include({ amount: 4250, currency: 'EUR', status: 'successful' });
    expect(JSON.parse(payRequests[0]!)).to.include({ amount: 4250 });
    expect((await api.get<Charge>(`/charges/${result.charge!.id}`)).body.amount).to.equal(4250);
    await page.close();
  });

  it('forints: the page and its script write 150000 HUF as 1,500.00 HUF, and a typed 1500 pays 150000', async () => {
    const { page, checkout } = await openCheckout(
      { customCharge: { currency: 'HUF', amountOptions: [150000], customAmount: { min: 10000, max: 1000000 } } },
      { email: 'alan@example.com' },
    );
    // Rendered by the service.
    const option = checkout.getByRole('button', { name: '1,500.00 HUF', exact: true });
    await option.waitFor();
    expect(await checkout.locator('#custom-amount-hint').textContent()).to.equal('From 100.00 HUF to 10,000.00 HUF');
    // Written by the page's script.
    await option.click();
    expect(await checkout.locator('#pay').textContent()).to.equal('Pay 1,500.00 HUF');
    await checkout.getByLabel('Other amount (HUF)').fill('1500');
    expect(await checkout.locator('#pay').textContent()).to.equal('Pay 1,500.00 HUF');
    await typeCard(page, checkout, '4242424242424242');
    await checkout.locator('#pay').click();
    const result = await callbackResult(page);
    expect(result.charge).to.include({ amount: 150000, currency: 'HUF', status: 'successful' });
    expect(await checkout.locator('#receipt').textContent()).to.include('1,500.00 HUF');
    await page.close();
  });

  it("languages: the locale option, else the browser's language, else English; amounts in the payer's language", async () => {
    // The merchant asks for German: the page, the card fields and the amounts.
    const page = await browser.newPage();
    await page.goto(`${shop.url}/`);
    await page.evaluate(
      `openCheckout(${JSON.stringify({ checkoutRequest: sign({ charge: { amount: 123456, currency: 'EUR' } }), locale: 'de' })})`,
    );
    const checkout = page.frameLocator('[data-shift4-overlay] iframe');
    await checkout.getByRole('button', { name: '1.234,56 EUR bezahlen' }).waitFor();
    expect(await checkout.locator('#total').textContent()).to.equal('1.234,56 EUR');
    expect(await checkout.locator('html').getAttribute('lang')).to.equal('de');
    expect(await checkout.getByText('Ablaufdatum', { exact: true }).count()).to.equal(1);
    expect(await checkout.frameLocator('[data-shift4="number"] iframe').locator('label').textContent()).to.equal(
      'Kartennummer',
    );
    expect(await fieldOf(checkout, 'expiry').getAttribute('placeholder')).to.equal('MM / JJ');
    await checkout.getByRole('button', { name: '1.234,56 EUR bezahlen' }).click();
    expect(await checkout.locator('#email-error').textContent()).to.equal('Geben Sie Ihre E-Mail-Adresse ein.');
    await page.screenshot({ path: join(shots, 'checkout-german.png') });
    await page.close();

    // No option: the browser's language (French here); one the service has no catalog for: English.
    for (const [browserLocale, payLabel] of [
      ['fr-FR', 'Payer 19,99 EUR'],
      ['ja-JP', 'Pay 19.99 EUR'],
    ] as const) {
      const other = await launchBrowser({ locale: browserLocale });
      try {
        const otherPage = await other.newPage();
        await otherPage.goto(`${shop.url}/`);
        await otherPage.evaluate(
          `openCheckout(${JSON.stringify({ checkoutRequest: sign({ charge: { amount: 1999, currency: 'EUR' } }) })})`,
        );
        const frame = otherPage.frameLocator('[data-shift4-overlay] iframe');
        await frame.getByRole('button', { name: payLabel }).waitFor();
      } finally {
        await other.close();
      }
    }
  });

  it("3-D Secure challenge inside checkout: the issuer's page opens in the checkout frame, the charge shifts liability", async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 2500, currency: 'EUR' }, threeDSecure: { enable: true } },
      { email: 'ada@example.com' },
    );
    await checkout.getByRole('button', { name: 'Pay 25.00 EUR' }).waitFor();
    await typeCard(page, checkout, '4000000000003220');
    await checkout.getByRole('button', { name: 'Pay 25.00 EUR' }).click();
    const challenge = checkout.frameLocator('[data-shift4-overlay] iframe');
    await challenge.getByLabel('One-time code').fill('123456');
    expect(await challenge.locator('main').textContent())
      .to.include('25.00 EUR')
      .and.include('•••• 3220');
    await page.screenshot({ path: join(shots, 'checkout-three-d-secure.png') });
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const result = await callbackResult(page);
    const charge = (await api.get<Charge>(`/charges/${result.charge!.id}`)).body;
    expect(charge.threeDSecureInfo).to.include({ liabilityShift: 'successful', authenticationFlow: 'challenge' });
    await page.close();
  });

  /** The charges of the amount made with the challenge card, as the API shows them with the secret key. */
  async function chargesOf(amount: number): Promise<Charge[]> {
    const page = await api.get<{ list: Charge[] }>('/charges', { query: { limit: '100' } });
    return page.body.list.filter((charge) => charge.amount === amount && charge.card?.last4 === '3220');
  }

  /** Types the challenge card, pays, and fails the issuer's challenge; the page says so. */
  async function failAuthentication(page: Page, checkout: FrameLocator, payLabel: string): Promise<void> {
    await checkout.getByRole('button', { name: payLabel }).waitFor();
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(message.text()));
    await typeCard(page, checkout, '4000000000003220');
    await checkout.getByRole('button', { name: payLabel }).click();
    const challenge = checkout.frameLocator('[data-shift4-overlay] iframe');
    await challenge.getByRole('button', { name: 'Fail authentication' }).click();
    await checkout.locator('#form-error:not(:empty)').waitFor();
    // On a failure, what the page's console and the service's log said explain it.
    const serviceErrors = service
      .output()
      .split('\n')
      .filter((line) => /"level":"(warn|error)"|"status":[45]\d\d/.test(line));
    expect(
      await checkout.locator('#form-error').textContent(),
      [...consoleLines, ...serviceErrors].join('\n'),
    ).to.match(/authentication failed/i);
    expect(await checkout.locator('#success-step').isVisible()).to.equal(false);
    expect(await page.locator('#result').getAttribute('data-status')).to.equal(null);
  }

  it('3-D Secure failed in checkout: "authentication failed", nothing charged; trying again pays', async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 1999, currency: 'EUR' }, threeDSecure: { enable: true } },
      { email: 'ada@example.com' },
    );
    await failAuthentication(page, checkout, 'Pay 19.99 EUR');
    await page.screenshot({ path: join(shots, 'checkout-three-d-secure-failed.png') });
    expect((await chargesOf(1999)).filter((charge) => charge.status === 'successful')).to.deep.equal([]);

    // The same card again: a new challenge, completed this time.
    await checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).click();
    const challenge = checkout.frameLocator('[data-shift4-overlay] iframe');
    await challenge.getByLabel('One-time code').fill('123456');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const result = await callbackResult(page);
    await successShown(checkout);
    expect(await checkout.locator('#success-title').textContent()).to.equal('Payment successful');
    const charge = (await api.get<Charge>(`/charges/${result.charge!.id}`)).body;
    expect(charge).to.include({ status: 'successful', amount: 1999 });
    expect(charge.threeDSecureInfo).to.include({ liabilityShift: 'successful' });
    await page.close();
  });

  it('3-D Secure failed for a custom amount: nothing charged; another card pays', async () => {
    const { page, checkout } = await openCheckout(
      { customCharge: { currency: 'EUR', amountOptions: [1111, 2222] }, threeDSecure: { enable: true } },
      { email: 'alan@example.com' },
    );
    await checkout.getByRole('button', { name: '11.11 EUR', exact: true }).click();
    await failAuthentication(page, checkout, 'Pay 11.11 EUR');
    expect((await chargesOf(1111)).filter((charge) => charge.status === 'successful')).to.deep.equal([]);
    await fieldOf(checkout, 'number').fill('');
    await fieldOf(checkout, 'number').pressSequentially('4242424242424242');
    await checkout.getByRole('button', { name: 'Pay 11.11 EUR' }).click();
    const result = await callbackResult(page);
    expect(result.charge).to.include({ amount: 1111, status: 'successful' });
    expect(result.charge!.card).to.include({ last4: '4242' });
    await page.close();
  });

  it('3-D Secure failed for a subscription: no subscription, no charge; another card subscribes', async () => {
    const plan = await createPlan(api, { name: 'Silver', amount: 1333, interval: 'month' });
    const { page, checkout } = await openCheckout(
      { subscription: { planId: plan.id }, threeDSecure: { enable: true } },
      { email: 'grace@example.com' },
    );
    await failAuthentication(page, checkout, 'Subscribe for 13.33 EUR / month');
    const subscriptions = await api.get<{ list: Array<{ planId: string }> }>('/subscriptions', {
      query: { limit: '100' },
    });
    expect(subscriptions.body.list.filter((each) => each.planId === plan.id)).to.deep.equal([]);
    expect(await chargesOf(1333)).to.deep.equal([]);
    await fieldOf(checkout, 'number').fill('');
    await fieldOf(checkout, 'number').pressSequentially('4242424242424242');
    await checkout.getByRole('button', { name: 'Subscribe for 13.33 EUR / month' }).click();
    const result = await callbackResult(page);
    expect(result.subscription).to.include({ planId: plan.id });
    await page.close();
  });

  it('3-D Secure challenge completed for a subscription: subscribed, the first payment charged with liability shifted', async () => {
    const plan = await createPlan(api, { name: 'Bronze', amount: 1444, interval: 'month' });
    const { page, checkout } = await openCheckout(
      { subscription: { planId: plan.id }, threeDSecure: { enable: true } },
      { email: 'barbara@example.com' },
    );
    const subscribe = checkout.getByRole('button', { name: 'Subscribe for 14.44 EUR / month' });
    await subscribe.waitFor();
    await typeCard(page, checkout, '4000000000003220');
    await subscribe.click();
    const challenge = checkout.frameLocator('[data-shift4-overlay] iframe');
    await challenge.getByLabel('One-time code').fill('123456');
    expect(await challenge.locator('main').textContent()).to.include('14.44 EUR');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const result = await callbackResult(page);
    await successShown(checkout);
    expect(await checkout.locator('#success-title').textContent()).to.equal('Subscription started');
    expect(result.subscription).to.include({ planId: plan.id, status: 'active' });
    const [first] = await chargesOf(1444);
    expect(first).to.include({ status: 'successful', customerId: result.customer.id });
    expect(first!.threeDSecureInfo).to.include({ liabilityShift: 'successful', authenticationFlow: 'challenge' });
    await page.close();
  });

  it('3-D Secure left in checkout (Escape, its close button): nothing charged, checkout stays, focus back in the form', async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 1234, currency: 'EUR' }, threeDSecure: { enable: true } },
      { email: 'ada@example.com' },
    );
    const pay = checkout.getByRole('button', { name: 'Pay 12.34 EUR' });
    await pay.waitFor();
    await typeCard(page, checkout, '4000000000003220');
    const challenge = checkout.frameLocator('[data-shift4-overlay] iframe');
    const checkoutClose = page.getByRole('button', { name: 'Close checkout' });
    const challengeClose = checkout.getByRole('button', { name: 'Cancel authentication' });

    // Escape typed in the issuer's page leaves the challenge, not checkout.
    await pay.click();
    await challenge.getByLabel('One-time code').click();
    await page.keyboard.press('Escape');
    await checkout.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    expect(await checkout.locator('#form-error').textContent()).to.match(/authentication was cancelled/i);
    expect(await page.getByRole('dialog', { name: 'Checkout' }).count()).to.equal(1);
    // The Pay button was disabled while paying: the focus is back on the form's first field.
    await checkout.locator('#email:focus').waitFor();
    await checkoutClose.waitFor({ state: 'visible' });

    // The challenge's own close button, above the issuer's page; checkout's is hidden meanwhile.
    await pay.click();
    await challengeClose.waitFor();
    expect(await checkoutClose.isVisible()).to.equal(false);
    await challengeClose.click();
    await checkout.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    expect(await checkout.locator('#form-error').textContent()).to.match(/authentication was cancelled/i);
    await checkout.locator('#email:focus').waitFor();
    await checkoutClose.waitFor({ state: 'visible' });
    expect(await chargesOf(1234)).to.deep.equal([]);
    await page.close();
  });

  it('Enter in a card field pays, as in any input of the form', async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 1777, currency: 'EUR' } },
      { email: 'ada@example.com' },
    );
    await checkout.getByRole('button', { name: 'Pay 17.77 EUR' }).waitFor();
    await typeCard(page, checkout, '4242424242424242');
    await page.keyboard.press('Enter');
    const result = await callbackResult(page);
    await successShown(checkout);
    expect(result.charge).to.include({ amount: 1777, status: 'successful' });
    await page.close();
  });

  it('a declined card shows the decline above the button; the payer pays again with another card', async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 1000, currency: 'EUR' } },
      { email: 'ada@example.com' },
    );
    await checkout.getByRole('button', { name: 'Pay 10.00 EUR' }).waitFor();
    await typeCard(page, checkout, '4000000000000002');
    await checkout.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
    await checkout.locator('#form-error:not(:empty)').waitFor();
    expect(await checkout.locator('#form-error').getAttribute('role')).to.equal('alert');
    expect(await checkout.locator('#form-error').textContent()).to.match(/declined/i);
    await page.screenshot({ path: join(shots, 'checkout-declined.png') });
    await fieldOf(checkout, 'number').fill('');
    await fieldOf(checkout, 'number').pressSequentially('5555555555554444');
    await checkout.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
    const result = await callbackResult(page);
    expect(result.charge).to.include({ status: 'successful' });
    await page.close();
  });

  it('a payment whose answer was lost is sent again as it was when the payer pays again: one charge', async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 1234, currency: 'EUR' } },
      { email: 'lost-answer@example.com' },
    );
    const pay = checkout.getByRole('button', { name: 'Pay 12.34 EUR' });
    await pay.waitFor();
    await typeCard(page, checkout, '4242424242424242');
    const sent: { key: string | undefined; body: string }[] = [];
    // The service makes the payment, but its answer never reaches the page (a dropped connection).
    await page.route('**/checkout/pay', async (route) => {
      sent.push({ key: route.request().headers()['idempotency-key'], body: route.request().postData() ?? '' });
      if (sent.length > 1) return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    });
    await pay.click();
    await checkout.locator('#form-error:not(:empty)').waitFor();
    expect(await checkout.locator('#form-error').textContent()).to.equal('The payment service could not be reached.');
    await pay.click();
    const result = await callbackResult(page);
    expect(result.charge).to.include({ amount: 1234, status: 'successful' });
    const charges = await api.get<{ list: Charge[] }>('/charges', { query: { limit: '100' } });
    expect(charges.body.list.filter((charge) => charge.amount === 1234).map((charge) => charge.id)).to.deep.equal([
      result.charge!.id,
    ]);
    // The second payment was the first one again: same key, same token.
    expect(sent).to.have.length(2);
    expect(sent[0]!.key).to.match(/^checkout_[0-9a-f]{32}$/);
    expect(sent[1]).to.deep.equal(sent[0]);
    await page.close();
  });

  it("payment methods: the payer chooses iDEAL, authorizes at the provider's page, the callback gets the charge", async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 1500, currency: 'EUR' }, paymentMethodTypes: ['ideal', 'paypal'] },
      { email: 'pm@example.com' },
    );
    const ideal = checkout.getByRole('button', { name: 'Pay with iDEAL' });
    await ideal.waitFor();
    expect(await checkout.getByRole('button', { name: 'Pay with PayPal' }).count()).to.equal(1);
    await page.screenshot({ path: join(shots, 'checkout-payment-methods.png') });
    // Declined at the provider: checkout says so, and the payer chooses again.
    const declinePopup = page.context().waitForEvent('page');
    await checkout.getByRole('button', { name: 'Pay with PayPal' }).click();
    await (await declinePopup).getByRole('button', { name: 'Decline', exact: true }).click();
    await checkout.locator('#form-error:not(:empty)').waitFor();
    expect(await checkout.locator('#form-error').textContent()).to.match(/^The payment with PayPal was not completed/);
    const popupOpened = page.context().waitForEvent('page');
    await ideal.click();
    const popup = await popupOpened;
    await popup.getByRole('button', { name: 'Authorize', exact: true }).click();
    const result = await callbackResult(page);
    await successShown(checkout);
    expect(await checkout.locator('#receipt').textContent())
      .to.include('15.00 EUR')
      .and.include('iDEAL');
    expect(result.charge).to.include({ status: 'successful', amount: 1500, customerId: result.customer.id });
    expect((await api.get<Charge>(`/charges/${result.charge!.id}`)).body).to.deep.equal(result.charge);
    await page.close();
  });

  it("a tampered request shows the error page, and the merchant's error handler hears it", async () => {
    const signed = sign({ charge: { amount: 100, currency: 'EUR' } });
    const [signature, json] = Buffer.from(signed, 'base64').toString('utf8').split('|');
    const tampered = Buffer.from(`${signature}|${json!.replace('100', '1')}`).toString('base64');
    const page = await browser.newPage();
    const console: string[] = [];
    page.on('console', (message) => console.push(message.text()));
    await page.goto(`${shop.url}/`);
    await page.evaluate(`openCheckout(${JSON.stringify({ checkoutRequest: tampered })})`);
    const checkout = page.frameLocator('[data-shift4-overlay] iframe');
    await checkout.locator('#checkout-error').waitFor();
    // The payer reads a plain sentence; the developer's text is for the merchant's handler and the console.
    expect(await checkout.locator('main').innerText()).to.include(
      'This payment link is not valid. Please go back to the shop.',
    );
    expect(await checkout.locator('html').innerText()).not.to.include('secret key');
    expect(await checkout.getByRole('button', { name: 'Pay' }).count()).to.equal(0);
    const error = page.locator('#result[data-status=error]');
    await error.waitFor({ state: 'attached' });
    const developerText = "checkoutRequest is not signed with this account's secret key for this mode";
    expect(await error.textContent()).to.include(developerText);
    expect(console.some((line) => line.includes(developerText))).to.equal(true);
    await page.screenshot({ path: join(shots, 'checkout-error.png') });
    // Escape closes checkout.
    await page.keyboard.press('Escape');
    await page.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    await page.close();
  });

  it("live checkout is framed by the merchant's sites only: refused without them, then a foreign site cannot frame it", async function () {
    // Two runs of the operators' CLI (an account, its sites), each a process of its own.
    this.timeout(300_000);
    const { keys: live } = await createOtherAccount(api, service.dataDir, 'Live shop');
    const foreign = await startShop(
      () => service.baseUrl,
      () => live.livePublicKey,
      '127.0.0.2',
    );
    const signed = signCheckoutRequest({ charge: { amount: 1999, currency: 'EUR' } }, live.liveSecretKey);
    const openOn = async (url: string) => {
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      await page.evaluate(
        `Shift4Checkout.key = ${JSON.stringify(live.livePublicKey)}; openCheckout({ checkoutRequest: ${JSON.stringify(signed)} })`,
      );
      return { page, checkout: page.frameLocator('[data-shift4-overlay] iframe') };
    };
    try {
      // No site named yet: the merchant's own page gets the error page, not the checkout.
      const unnamed = await openOn(shop.url);
      await unnamed.checkout.locator('#checkout-error').waitFor();
      expect(await unnamed.checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).count()).to.equal(0);
      await unnamed.page.close();

      const named = await runCli(['accounts', 'settings', live.id, '--checkout-origins', shop.url], service.dataDir);
      expect(named.code, named.stderr).to.equal(0);
      // The service sees the setting once projected.
      const mine = await openOn(shop.url);
      for (let attempt = 0; (await mine.checkout.locator('#checkout-error').count()) > 0 && attempt < 50; attempt++) {
        await mine.page.reload();
        await mine.page.evaluate(
          `Shift4Checkout.key = ${JSON.stringify(live.livePublicKey)}; openCheckout({ checkoutRequest: ${JSON.stringify(signed)} })`,
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await mine.checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).waitFor();
      await mine.page.close();

      // Another site naming itself in origin= gets a frame the browser refused to show.
      const theirs = await openOn(foreign.url);
      await theirs.page.locator('[data-shift4-overlay] iframe').waitFor();
      let refused = false;
      for (let attempt = 0; !refused && attempt < 100; attempt++) {
        refused = theirs.page.frames().some((frame) => frame.url().startsWith('chrome-error:'));
        if (!refused) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(refused, 'the checkout frame is refused on the foreign site').to.equal(true);
      expect(await theirs.checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).count()).to.equal(0);
      await theirs.page.close();
    } finally {
      await foreign.close();
    }
  });

  it("misuse is reported to the merchant's error handler and opens nothing: no key, no request", async () => {
    const page = await browser.newPage();
    await page.goto(`${shop.url}/`);
    await page.evaluate(`Shift4Checkout.key = null; openCheckout({ checkoutRequest: 'x' })`);
    expect(await page.locator('#result[data-status=error]').textContent()).to.match(/Shift4Checkout\.key/);
    await page.evaluate(`Shift4Checkout.key = 'sk_test_secret'; openCheckout({ checkoutRequest: 'x' })`);
    expect(await page.locator('#result[data-status=error]').textContent()).to.match(/public key/);
    await page.evaluate(`Shift4Checkout.key = 'pk_test_x'; openCheckout({})`);
    expect(await page.locator('#result[data-status=error]').textContent()).to.match(/checkoutRequest/);
    expect(await page.locator('[data-shift4-overlay]').count()).to.equal(0);
    // SecurionpayCheckout is the same object, for pages written for SecurionPay.
    expect(await page.evaluate('SecurionpayCheckout === Shift4Checkout')).to.equal(true);
    await page.close();
  });

  it('remember me: the second checkout pays with the saved card after the emailed code', async () => {
    const request = { charge: { amount: 1200, currency: 'EUR' }, rememberMe: true };
    const first = await openCheckout(request);
    await first.checkout.getByRole('button', { name: 'Pay 12.00 EUR' }).waitFor();
    await first.checkout.getByLabel('Email', { exact: true }).fill('remembered@example.com');
    await typeCard(first.page, first.checkout, '4242424242424242');
    await first.checkout.getByLabel('Remember me').check();
    await first.checkout.getByRole('button', { name: 'Pay 12.00 EUR' }).click();
    const paidFirst = await callbackResult(first.page);
    await first.page.close();

    const second = await openCheckout(request);
    const { page, checkout } = second;
    await checkout.getByLabel('Email', { exact: true }).fill('remembered@example.com');
    await checkout.getByRole('button', { name: 'Use my saved card' }).click();
    const testCode = checkout.locator('#test-code');
    await testCode.waitFor();
    const code = /Test mode: your code is (\d{6})/.exec((await testCode.textContent()) ?? '')?.[1];
    expect(code).to.match(/^\d{6}$/);
    await page.screenshot({ path: join(shots, 'checkout-remembered-code.png') });
    // A wrong code is refused next to the code input.
    await checkout.getByLabel('One-time code').fill(code === '000000' ? '111111' : '000000');
    await checkout.getByRole('button', { name: 'Confirm' }).click();
    await checkout.locator('#code-error:not(:empty)').waitFor();
    expect(await checkout.locator('#code-error').textContent()).to.equal('This code is not right, or it has expired.');
    await checkout.getByLabel('One-time code').fill(code!);
    await checkout.getByRole('button', { name: 'Confirm' }).click();
    await checkout.locator('#using-saved-card').waitFor({ state: 'visible' });
    expect(await checkout.locator('#saved-card-label').textContent()).to.include('Visa •••• 4242');
    expect(await checkout.locator('#card').isHidden()).to.equal(true);
    await page.screenshot({ path: join(shots, 'checkout-remembered-card.png') });
    await checkout.getByRole('button', { name: 'Pay 12.00 EUR' }).click();
    const paidSecond = await callbackResult(page);
    expect(paidSecond.charge).to.include({ status: 'successful', amount: 1200 });
    expect(paidSecond.customer.id).to.equal(paidFirst.customer.id);
    expect(paidSecond.charge!.card.id).to.equal(paidFirst.charge!.card.id);
    await page.close();
  });

  it("cross-sale offers: the merchant's own and a partner's are listed after the payment and bought with Buy", async () => {
    const image = await new Jimp({ width: 247, height: 156, color: 0x2563ebff }).getBuffer('image/png');
    const ownOffer = (
      await api.post<{ id: string }>('/cross-sale-offers', {
        json: {
          charge: { amount: 300, currency: 'EUR' },
          template: 'image_and_text',
          imageData: image.toString('base64'),
          title: 'Gift wrapping',
          description: 'Wrapped by hand, with a card',
        },
      })
    ).body;
    // A partner account offers insurance to the merchant; the merchant puts it on its partner list.
    const partner = await createOtherAccount(api, service.dataDir, 'Warranty Partner');
    const partnerOffer = await partner.api.post<{ id: string }>('/cross-sale-offers', {
      json: {
        charge: { amount: 499, currency: 'EUR' },
        template: 'text_only',
        title: 'Extended warranty',
        description: 'Two more years of cover',
        companyName: 'Warranty Partner Ltd',
        companyLocation: 'GB',
        termsAndConditionsUrl: 'https://example.com/warranty-terms',
        partnerIds: [keys.id],
      },
    });
    expect(partnerOffer.status, JSON.stringify(partnerOffer.body)).to.equal(200);
    const added = await runCli(['accounts', 'partners', 'add', keys.id, partner.keys.id], service.dataDir);
    expect(added.code, added.stderr).to.equal(0);

    const { page, checkout } = await openCheckout(
      { charge: { amount: 1000, currency: 'EUR' }, crossSaleOfferIds: [ownOffer.id, partnerOffer.body.id] },
      { email: 'ada@example.com' },
    );
    await checkout.getByRole('button', { name: 'Pay 10.00 EUR' }).waitFor();
    // Offers show only once the main payment succeeded.
    expect(await checkout.getByRole('heading', { name: 'You may also like' }).isVisible()).to.equal(false);
    await typeCard(page, checkout, '4242424242424242');
    await checkout.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
    const paid = await callbackResult(page);
    await successShown(checkout);

    const own = checkout.locator(`.offer[data-offer-id="${ownOffer.id}"]`);
    // The image is the service's (the page's policy allows no other), and it loads.
    const loaded = await own.locator('img').evaluate((element) => {
      const img = element as unknown as { decode(): Promise<void>; naturalWidth: number };
      return img.decode().then(() => img.naturalWidth);
    });
    expect(loaded).to.equal(247);
    const item = checkout.locator(`.offer[data-offer-id="${partnerOffer.body.id}"]`);
    expect(await item.textContent())
      .to.include('Extended warranty')
      .and.include('Two more years of cover')
      .and.include('4.99 EUR')
      .and.include('Warranty Partner Ltd, GB');
    expect(await item.getByRole('link', { name: 'Terms and conditions' }).getAttribute('href')).to.equal(
      'https://example.com/warranty-terms',
    );
    await page.screenshot({ path: join(shots, 'checkout-offers.png') });

    await item.getByRole('button', { name: 'Buy for 4.99 EUR' }).click();
    await item.locator('.offer-outcome[data-status=bought]').waitFor();
    expect(await item.locator('.offer-outcome').textContent()).to.equal('Bought: 4.99 EUR paid.');
    expect(await item.getByRole('button').count()).to.equal(0);
    await page.screenshot({ path: join(shots, 'checkout-offer-bought.png') });

    // An offer that cannot be bought any more says so in its own place; Buy stays for a retry.
    await api.delete(`/cross-sale-offers/${ownOffer.id}`);
    await own.getByRole('button', { name: 'Buy for 3.00 EUR' }).click();
    await own.locator('.offer-outcome[data-status=failed]').waitFor();
    expect(await own.locator('.offer-outcome').textContent()).to.equal('This offer cannot be bought now.');
    expect(await own.getByRole('button', { name: 'Buy for 3.00 EUR' }).isEnabled()).to.equal(true);

    // The offer's charge is the partner's, on the card the payer just used.
    const charges = (await partner.api.get<{ list: Charge[] }>('/charges')).body.list;
    const bought = charges.find((charge) => charge.amount === 499);
    expect(bought).to.include({ status: 'successful', currency: 'EUR' });
    expect(bought!.card.last4).to.equal(paid.charge!.card.last4);
    await page.close();
  });

  it('button integration: a pay button after the script; the form gets the ids and is submitted when checkout closes', async () => {
    const page = await browser.newPage();
    await page.goto(
      `${shop.url}/button?request=${encodeURIComponent(sign({ charge: { amount: 700, currency: 'EUR' } }))}`,
    );
    await page.getByRole('button', { name: 'Pay' }).click();
    const checkout = page.frameLocator('[data-shift4-overlay] iframe');
    await checkout.getByLabel('Email', { exact: true }).fill('button@example.com');
    await typeCard(page, checkout, '4242424242424242');
    await checkout.getByRole('button', { name: 'Pay 7.00 EUR' }).click();
    await successShown(checkout);
    await checkout.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL(`${shop.url}/order`);
    const posted = JSON.parse((await page.locator('#posted').textContent()) ?? '{}') as Record<string, string>;
    expect(posted.shift4ChargeId).to.match(/^char_/);
    expect(posted.shift4CustomerId).to.match(/^cust_/);
    expect(posted.order).to.equal('1001');
    const charge = (await api.get<Charge>(`/charges/${posted.shift4ChargeId}`)).body;
    expect(charge).to.include({ amount: 700, customerId: posted.shift4CustomerId });
    await page.close();
  });

  it('button integration: data-checkout-button labels the button, as in the public integration', async () => {
    const page = await browser.newPage();
    await page.goto(
      `${shop.url}/button?label=${encodeURIComponent('Buy now')}&request=${encodeURIComponent(sign({ charge: { amount: 700, currency: 'EUR' } }))}`,
    );
    await page.getByRole('button', { name: 'Buy now', exact: true }).click();
    await page.frameLocator('[data-shift4-overlay] iframe').getByRole('button', { name: 'Pay 7.00 EUR' }).waitFor();
    await page.close();
  });

  it("the demo shop's checkout page: its server signs the request, the page opens checkout", async () => {
    const demo = await startMerchantServer({
      serviceUrl: service.baseUrl,
      secretKey: keys.testSecretKey,
      publicKey: keys.testPublicKey,
    });
    const page = await browser.newPage();
    try {
      await page.goto(`${demo.url}/checkout`);
      await page.getByRole('button', { name: 'Pay with checkout' }).click();
      const checkout = page.frameLocator('[data-shift4-overlay] iframe');
      await checkout.getByLabel('Email', { exact: true }).fill('demo@example.com');
      await typeCard(page, checkout, '4242424242424242');
      await checkout.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
      await page.locator('#result[data-status=successful]').waitFor({ state: 'attached' });
      expect(await page.locator('#result').textContent()).to.match(/^Payment successful: char_/);
    } finally {
      await page.close();
      await demo.close();
    }
  });

  it('keyboard: the close button and Escape close checkout, focus returns to the opener; phone layout', async () => {
    const { page, checkout } = await openCheckout(
      { charge: { amount: 1000, currency: 'EUR' }, rememberMe: true },
      { name: 'Demo shop', email: 'ada@example.com', width: 375 },
    );
    await checkout.getByRole('button', { name: 'Pay 10.00 EUR' }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(shots, 'checkout-phone.png') });
    // Tab stays in the dialog: Shift+Tab from the first input reaches the close button, Tab past
    // the last element of checkout comes back to it.
    await checkout.getByLabel('Email', { exact: true }).focus();
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).to.equal('Close checkout');
    await checkout.getByRole('button', { name: 'Pay 10.00 EUR' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).to.equal('Close checkout');

    // Escape closes from the page's own inputs and from inside a card field's frame.
    await checkout.getByLabel('Email', { exact: true }).focus();
    await page.keyboard.press('Escape');
    await page.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    expect(await page.evaluate('document.activeElement?.id')).to.equal('open');
    const again = await openCheckout({ charge: { amount: 1000, currency: 'EUR' } });
    await fieldOf(again.checkout, 'number').click();
    await again.page.keyboard.press('Escape');
    await again.page.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    await again.page.close();

    await page.evaluate(`openCheckout({ checkoutRequest: 'x' })`);
    await page.getByRole('button', { name: 'Close checkout' }).click();
    await page.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    await page.close();
  });

  it("never writes a typed card number to the service's logs", () => {
    const logs = service.output();
    for (const number of ['4242424242424242', '4000000000003220', '4000000000000002', '5555555555554444'])
      expect(logs).not.to.include(number);
  });
});

/**
 * The merchant: its own origin, a page that opens checkout from a button and writes what the
 * callbacks received into `#result`, and a page with the button integration in an order form.
 */
async function startShop(
  serviceUrl: () => string,
  publicKey: () => string,
  host = '127.0.0.1',
): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.get('/', (_req, res) => {
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font:16px system-ui,sans-serif;margin:24px"><h1>Demo shop</h1><p>Order #1001</p>
<button id="open" type="button">Checkout</button><pre id="result" hidden></pre>
<script src="${serviceUrl()}/js/checkout.js"></script>
<script>
const result = document.getElementById('result');
Shift4Checkout.key = ${JSON.stringify(publicKey())};
Shift4Checkout.error = (errorMessage) => { result.dataset.status = 'error'; result.textContent = errorMessage; };
window.openCheckout = (options) => {
  document.getElementById('open').focus();
  Shift4Checkout.open(options, (paid) => { result.dataset.status = 'success'; result.textContent = JSON.stringify(paid); });
};
</script></body></html>`);
  });
  app.get('/button', (req, res) => {
    const request = String(req.query.request ?? '').replace(/"/g, '&quot;');
    const label = req.query.label ? ` data-checkout-button="${String(req.query.label).replace(/[<>&"]/g, '')}"` : '';
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Order</title></head>
<body><form action="/order" method="post"><input type="hidden" name="order" value="1001">
<script src="${serviceUrl()}/js/checkout.js" class="shift4-button" data-key="${publicKey()}"
 data-checkout-request="${request}" data-name="Demo shop" data-description="Order #1001"${label}></script>
</form></body></html>`);
  });
  app.post('/order', express.urlencoded({ extended: false }), (req, res) => {
    res.type('html').send(`<!doctype html><pre id="posted">${JSON.stringify(req.body).replace(/</g, '&lt;')}</pre>`);
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
