import { expect } from 'chai';
import { join } from 'node:path';
import type { Response } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { overlayFrame, tick, TYPED_CARD_NUMBERS, useHostedCheckout } from '../support/hosted-checkout.ts';
import { type Charge } from '../support/payments.ts';
import { createPlan } from '../support/subscriptions.ts';

/**
 * Paying in the hosted checkout, in headless Chromium: a merchant's page (its own origin) loads
 * `/js/checkout.js` and opens checkout with a signed request; the payer uses the checkout frame of
 * the service (card fields nested in it); the merchant's callback gets the objects, and the API with
 * the secret key shows the same ones.
 */
describe('hosted checkout in a browser: paying (charge, subscription, custom amount, languages, declines, payment methods, remember me)', function () {
  this.timeout(120_000);
  const hosted = useHostedCheckout();
  const { api, service, shots, sign, openCheckout, fieldOf, typeCard, callbackResult, successShown } = hosted;

  it('charge: the payer types email and card, the callback gets the charge and customer the API shows', async () => {
    // What Chromium receives of the service's scripts and pages, in which encoding.
    const encodings = new Map<string, string>();
    const recordEncoding = async (response: Response) => {
      const url = new URL(response.url());
      if (url.origin !== service.baseUrl) return;
      encodings.set(url.pathname, (await response.allHeaders())['content-encoding'] ?? 'identity');
    };
    hosted.browser.context.on('response', recordEncoding);
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
    hosted.browser.context.off('response', recordEncoding);
    // The scripts and pages came compressed with brotli, which Chromium accepts.
    for (const path of [
      '/js/checkout.js',
      '/checkout',
      '/js/checkout/checkout-page.js',
      '/js/fields/field.html',
      '/js/fields/fields.js',
    ])
      expect(encodings.get(path), path).to.equal('br');
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

    // A comma marks the decimals as well as a point, whatever the browser's language.
    await checkout.getByLabel('Other amount (EUR)').fill('42,5');
    expect(await checkout.locator('#pay').textContent()).to.equal('Pay 42.50 EUR');
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

  it('yen and dinars: no decimals for JPY, three for KWD, in the page, its script and the typed amount', async () => {
    for (const { currency, option, label, hint, typed, paid, notAnAmount } of [
      {
        currency: 'JPY',
        option: 1500,
        label: '1,500 JPY',
        hint: 'From 100 JPY to 10,000 JPY',
        typed: '2,500',
        paid: 2500,
        notAnAmount: '25.5',
      },
      {
        currency: 'KWD',
        option: 1500,
        label: '1.500 KWD',
        hint: 'From 0.100 KWD to 10.000 KWD',
        typed: '2.345',
        paid: 2345,
        notAnAmount: '2.3456',
      },
    ]) {
      const { page, checkout } = await openCheckout(
        { customCharge: { currency, amountOptions: [option], customAmount: { min: 100, max: 10000 } } },
        { email: 'alan@example.com' },
      );
      // Rendered by the service.
      const optionButton = checkout.getByRole('button', { name: label, exact: true });
      await optionButton.waitFor();
      expect(await checkout.locator('#custom-amount-hint').textContent(), currency).to.equal(hint);
      // Written by the page's script.
      await optionButton.click();
      expect(await checkout.locator('#pay').textContent(), currency).to.equal(`Pay ${label}`);
      const other = checkout.getByLabel(`Other amount (${currency})`);
      await other.fill(notAnAmount);
      await checkout.locator('#pay').click();
      expect(await checkout.locator('#amount-error').textContent(), currency).to.equal(
        `Enter an amount ${hint.replace('From', 'from')}.`,
      );
      await other.fill(typed);
      await typeCard(page, checkout, '4242424242424242');
      await checkout.locator('#pay').click();
      const result = await callbackResult(page);
      expect(result.charge, currency).to.include({ amount: paid, currency, status: 'successful' });
      await page.close();
    }
  });

  it("languages: the locale option, else the browser's language, else English; amounts in the payer's language", async () => {
    // The merchant asks for German: the page, the card fields and the amounts.
    const page = await hosted.browser.newPage();
    await page.goto(`${hosted.shop.url}/`);
    await page.evaluate(
      `openCheckout(${JSON.stringify({ checkoutRequest: sign({ charge: { amount: 123456, currency: 'EUR' } }), locale: 'de' })})`,
    );
    const checkout = overlayFrame(page);
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
        await otherPage.goto(`${hosted.shop.url}/`);
        await otherPage.evaluate(
          `openCheckout(${JSON.stringify({ checkoutRequest: sign({ charge: { amount: 1999, currency: 'EUR' } }) })})`,
        );
        const frame = overlayFrame(otherPage);
        await frame.getByRole('button', { name: payLabel }).waitFor();
      } finally {
        await other.close();
      }
    }
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
    const answers: string[] = [];
    // The service makes the payment, but its answer never reaches the page (a dropped connection).
    await page.route('**/checkout/pay', async (route) => {
      sent.push({ key: route.request().headers()['idempotency-key'], body: route.request().postData() ?? '' });
      const response = await route.fetch();
      answers.push(`${response.status()} ${await response.text()}`);
      if (sent.length > 1) return route.fulfill({ response });
      await route.abort('connectionreset');
    });
    await pay.click();
    await checkout.locator('#form-error:not(:empty)').waitFor();
    expect(await checkout.locator('#form-error').textContent()).to.equal('The payment service could not be reached.');
    await pay.click();
    const result = await callbackResult(page).catch(async (error: Error) => {
      // What the payer saw and what the service answered, should the payment again not complete.
      const shown = await checkout
        .locator('#form-error')
        .textContent({ timeout: 1000 })
        .catch(() => '?');
      throw new Error(`${error.message}\npage shows: ${shown}\nanswers: ${answers.join('\n')}`);
    });
    expect(result.charge).to.include({ amount: 1234, status: 'successful' });
    const charges = await api.get<{ list: Charge[] }>('/charges', { query: { limit: '100' } });
    expect(charges.body.list.filter((charge) => charge.amount === 1234).map((charge) => charge.id)).to.deep.equal([
      result.charge!.id,
    ]);
    // The second payment was the first one again: same key, same token.
    expect(sent).to.have.length(2);
    expect(sent[0]!.key).to.match(/^checkout_[a-p]{32}$/);
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

  it('remember me: the second checkout pays with the saved card after the emailed code', async () => {
    const request = { charge: { amount: 1200, currency: 'EUR' }, rememberMe: true };
    const first = await openCheckout(request);
    await first.checkout.getByRole('button', { name: 'Pay 12.00 EUR' }).waitFor();
    await first.checkout.getByLabel('Email', { exact: true }).fill('remembered@example.com');
    await typeCard(first.page, first.checkout, '4242424242424242');
    await tick(first.checkout.getByLabel('Remember me'));
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

  it("never writes a typed card number to the service's logs", () => {
    const logs = service.output();
    for (const number of TYPED_CARD_NUMBERS) expect(logs).not.to.include(number);
  });
});
