import { expect } from 'chai';
import express from 'express';
import { Jimp } from 'jimp';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { FUTURE_EXPIRY, overlayFrame, serveShop, useHostedCheckout, type Shop } from '../support/hosted-checkout.ts';
import type { Charge } from '../support/payments.ts';
import { createPlan } from '../support/subscriptions.ts';

const EXPIRY_YEAR = String(new Date().getUTCFullYear() + 3);

interface CheckoutResult {
  charge?: Charge & { subscriptionId?: string | null; shipping?: unknown };
  subscription?: { id: string; status: string };
  customer: { id: string };
}

/**
 * Merchants' pages written for the public Shift4 and SecurionPay libraries, as public integrations
 * write them, with only the host of the script URLs changed to the service's: SecurionPay's older
 * library (`/js/securionpay.js`: `setPublicKey`, `createCardToken` with `data-securionpay` inputs,
 * `verifyThreeDSecure` with a callback), its newer one (`/v2/securionpay.js`, `SecurionPay(pk)`),
 * the `securionpay-button` script, and Shift4 Checkout's `open` options and error handler. A person
 * types and clicks in headless Chromium; the API (the merchant's server, with the secret key)
 * shows what was made.
 */
describe('public integrations in a browser, only the host swapped', function () {
  this.timeout(120_000);
  const site = useHostedCheckout({ shop: startShop });
  const { api, service, sign, shots, fieldOf, typeCard } = site;

  /** What the merchant's server does with a token from the page: charges it with the secret key. */
  const chargeToken = async (token: string) =>
    (await api.post<Charge>('/charges', { json: { amount: 1000, currency: 'EUR', card: token } })).body;

  async function shopPage(path: string, query: Record<string, string> = {}): Promise<Page> {
    const page = await site.browser.newPage();
    await page.goto(`${site.shop.url}${path}?${new URLSearchParams(query)}`);
    return page;
  }

  const checkoutFrame = (page: Page) => overlayFrame(page);

  it('serves the public script paths: /js/securionpay.js, /v2/securionpay.js, /v1/shift4.js besides /shift4.js and /checkout.js', async () => {
    for (const path of ['/js/securionpay.js', '/v2/securionpay.js', '/v1/shift4.js', '/shift4.js', '/checkout.js']) {
      const response = await fetch(`${service.baseUrl}${path}`);
      expect(response.status, path).to.equal(200);
      expect(response.headers.get('content-type'), path).to.match(/^application\/javascript/);
    }
  });

  it("SecurionPay's older library: the card typed into the page's data-securionpay inputs becomes a token, errors come to the callback, 3-D Secure runs with a callback", async () => {
    const page = await shopPage('/securionpay');
    // A mistyped number: the callback gets the API's error, which the page shows.
    await page.getByLabel('Card number').fill('4242 4242 4242 4241');
    await page.getByLabel('Expiration month').fill('12');
    await page.getByLabel('Expiration year').fill(EXPIRY_YEAR);
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.locator('.payment-errors:not(:empty)').waitFor();
    expect(await page.locator('.payment-errors').textContent()).to.match(/card number/i);
    expect(await page.getByRole('button', { name: 'Pay' }).isEnabled()).to.equal(true);

    // A card with a 3-D Secure challenge: the issuer's page opens over the shop's page.
    await page.getByLabel('Card number').fill('4000 0000 0000 3220');
    await page.getByRole('button', { name: 'Pay' }).click();
    const challenge = overlayFrame(page);
    await challenge.getByLabel('One-time code').fill('123456');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const tokenId = await page.locator('#token[data-status=verified]').textContent();
    expect(tokenId).to.match(/^tok_/);
    const charge = await chargeToken(tokenId!);
    expect(charge).to.include({ status: 'successful' });
    expect((charge as unknown as { threeDSecureInfo: { liabilityShift: string } }).threeDSecureInfo).to.include({
      liabilityShift: 'successful',
    });

    // An object of the same names (as plugins build it from their own fields) serves as well.
    const fromObject = await page.evaluate(
      `new Promise((resolve) => Securionpay.createCardToken({ number: '4242424242424242', expMonth: '12', expYear: '${EXPIRY_YEAR}', cvc: '123', addressCountry: 'PL' }, resolve))`,
    );
    expect(fromObject).to.include({ last4: '4242', objectType: 'token' });
    await page.close();
  });

  it("SecurionPay's newer library (/v2/securionpay.js): SecurionPay(pk) mounts the card fields into data-securionpay placeholders", async () => {
    const page = await shopPage('/securionpay-v2');
    const frame = (name: string) => page.frameLocator(`[data-securionpay="${name}"] iframe`).locator('input');
    await frame('number').click();
    await page.keyboard.type('4242424242424242');
    await frame('expiry').click();
    await page.keyboard.type(FUTURE_EXPIRY);
    await frame('cvc').click();
    await page.keyboard.type('123');
    await page.getByRole('button', { name: 'Save card' }).click();
    const tokenId = await page.locator('#token[data-status=created]').textContent();
    expect(tokenId).to.match(/^tok_/);
    expect(await chargeToken(tokenId!)).to.include({ status: 'successful' });
    await page.close();
  });

  it("Shift4.js's wallet payment sheet (createPaymentRequest, which shops call for Apple Pay) says in the console and in show()'s rejection that it is not available", async () => {
    const page = await shopPage('/securionpay-v2');
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.addScriptTag({ url: `${service.baseUrl}/shift4.js` });
    const answered = await page.evaluate(`(async () => {
      const request = Shift4('${site.keys.testPublicKey}').createPaymentRequest(
        [{ supportedMethods: 'https://apple.com/apple-pay', data: { countryCode: 'GB', supportedNetworks: ['visa'] } }],
        { total: { label: 'Shop', amount: { currency: 'EUR', value: '10.00' } } },
      );
      const canPay = await request.canMakePayment();
      const shown = await request.show().then(() => 'shown', (error) => ({ type: error.type, message: error.message }));
      return { canPay, shown };
    })()`);
    expect(answered).to.deep.equal({
      canPay: false,
      shown: {
        type: 'invalid_request',
        message: 'Apple Pay and Google Pay are not available with this payment service; pay with a card.',
      },
    });
    expect(warnings.join('\n')).to.include('Shift4: createPaymentRequest is not supported here');
    await page.close();
  });

  it('the securionpay-button script renders its labelled button; paying posts the form with the ids', async () => {
    const request = sign({ charge: { amount: 499, currency: 'EUR' } });
    const page = await shopPage('/securionpay-button', { request });
    const button = page.getByRole('button', { name: 'Open Securion Popup' });
    await button.waitFor();
    expect(await button.getAttribute('class')).to.equal('securionpay-button primary_button');
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await button.click();
    const checkout = checkoutFrame(page);
    // data-image and data-email are the image and email options; data-amount and the redirects are
    // not taken (the signed request says 4.99 EUR; checkout stays in its dialog), as the console says.
    expect(await checkout.locator('#merchant-image').getAttribute('src')).to.equal(`${site.shop.url}/logo.png`);
    expect(await checkout.getByLabel('Email', { exact: true }).inputValue()).to.equal('button@example.com');
    expect(warnings.join('\n'))
      .to.include('the option amount is not supported')
      .and.include('the option redirect is not supported')
      .and.include('the option redirectUrl is not supported');
    await typeCard(page, checkout, '4242424242424242');
    await checkout.getByRole('button', { name: 'Pay 4.99 EUR' }).click();
    await checkout.locator('#success-step').waitFor({ state: 'visible' });
    await checkout.getByRole('button', { name: 'Done' }).click();
    const posted = JSON.parse((await page.locator('#posted').textContent()) ?? '{}') as Record<string, string>;
    expect(posted.securionpayChargeId).to.match(/^char_/);
    expect(posted.shift4ChargeId).to.equal(posted.securionpayChargeId);
    expect(posted.securionpayCustomerId).to.match(/^cust_/);
    const charge = (await api.get<Charge>(`/charges/${posted.securionpayChargeId}`)).body;
    expect(charge).to.include({ amount: 499, status: 'successful' });
    await page.close();
  });

  it('Shift4Checkout.error gets the message as a string, which the page shows with textContent', async () => {
    const valid = Buffer.from(sign({ charge: { amount: 1000, currency: 'EUR' } }), 'base64').toString();
    const tampered = Buffer.from(valid.replace('"amount":1000', '"amount":1')).toString('base64');
    const page = await shopPage('/checkout', { request: tampered });
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.locator('#error:not(:empty)').waitFor();
    expect(await page.locator('#error').textContent()).to.match(
      /^Invalid parameter: checkoutRequest is not signed with this account/,
    );
    expect(await page.evaluate('typeof window.lastErrorMessage')).to.equal('string');
    await page.close();
  });

  it('open options: the image is shown, billing and shipping addresses are asked for and recorded; options checkout does not take are said in the console', async () => {
    const request = sign({ charge: { amount: 2500, currency: 'EUR', description: 'Order #7' } });
    const page = await shopPage('/checkout', { request, options: 'addresses' });
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.getByRole('button', { name: 'Pay now' }).click();
    const checkout = checkoutFrame(page);
    const logo = checkout.locator('#merchant-image');
    await logo.waitFor();
    expect(await logo.getAttribute('src')).to.equal(`${site.shop.url}/logo.png`);
    // Loaded, as the page's policy lets that one image of the shop through.
    await logo.evaluate((element) => (element as unknown as { decode(): Promise<void> }).decode());
    expect(await logo.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).to.equal(8);
    expect(warnings.join('\n')).to.include('amount is not supported').and.include('currency is not supported');

    await checkout.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await typeCard(page, checkout, '4242424242424242');
    // Paying with the addresses empty says what is missing, next to each field.
    await checkout.getByRole('button', { name: 'Pay 25.00 EUR' }).click();
    expect(await checkout.locator('#shipping-line1-error').textContent()).to.equal('Fill in this field.');
    expect(await checkout.locator('#billing-country-error').textContent()).to.equal('Fill in this field.');
    expect(await page.locator('#result').textContent()).to.equal('');

    const shipping = checkout.locator('#shipping-address');
    await shipping.getByLabel('Full name').fill('Ada Lovelace');
    await shipping.getByLabel('Address', { exact: true }).fill('12 Ship Street');
    await shipping.getByLabel('Postal code').fill('00-950');
    await shipping.getByLabel('City').fill('Warsaw');
    await shipping.getByLabel('Country').selectOption('PL');
    const billing = checkout.locator('#billing-address');
    await billing.getByLabel('Full name').fill('Ada King');
    await billing.getByLabel('Address', { exact: true }).fill('1 Bill Road');
    await billing.getByLabel('Postal code').fill('10115');
    await billing.getByLabel('City').fill('Berlin');
    await billing.getByLabel('Country').selectOption('DE');
    await page.screenshot({ path: join(shots, 'checkout-addresses.png'), fullPage: true });
    await checkout.getByRole('button', { name: 'Pay 25.00 EUR' }).click();
    await page.locator('#result[data-status=success]').waitFor({ state: 'attached' });
    const result = JSON.parse((await page.locator('#result').textContent()) ?? '{}') as CheckoutResult;
    const charge = (await api.get<Charge & { shipping: unknown; description: string }>(`/charges/${result.charge!.id}`))
      .body;
    expect(charge.description).to.equal('Order #7');
    expect(charge.shipping).to.deep.equal({
      name: 'Ada Lovelace',
      address: { line1: '12 Ship Street', zip: '00-950', city: 'Warsaw', country: 'PL' },
    });
    expect(charge.card).to.include({
      cardholderName: 'Ada King',
      addressLine1: '1 Bill Road',
      addressZip: '10115',
      addressCity: 'Berlin',
      addressCountry: 'DE',
    });
    await page.close();
  });

  it('subscription: a declined first charge is said and another card pays; result.charge is the first charge', async () => {
    const plan = await createPlan(api, { amount: 1500, name: 'Coffee box' });
    const request = sign({ subscription: { planId: plan.id } });
    const page = await shopPage('/checkout', { request });
    await page.getByRole('button', { name: 'Pay now' }).click();
    const checkout = checkoutFrame(page);
    await checkout.getByLabel('Email', { exact: true }).fill('coffee@example.com');
    // A card that can be saved but whose every charge is declined.
    await typeCard(page, checkout, '4000000000000341');
    const subscribe = checkout.getByRole('button', { name: /^Subscribe for/ });
    await subscribe.click();
    await checkout.locator('#form-error:not(:empty)').waitFor();
    expect(await checkout.locator('#form-error').textContent()).to.equal('Your card was declined. Try another card.');
    expect(await checkout.locator('#success-step').isVisible()).to.equal(false);
    expect(await page.locator('#result').textContent()).to.equal('');
    await page.screenshot({ path: join(shots, 'checkout-subscription-declined.png') });

    // Another card.
    await fieldOf(checkout, 'number').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('4242424242424242');
    await subscribe.click();
    await checkout.locator('#success-step').waitFor({ state: 'visible' });
    expect(await checkout.locator('#success-title').textContent()).to.equal('Subscription started');
    const result = JSON.parse((await page.locator('#result').textContent()) ?? '{}') as CheckoutResult;
    expect(result.subscription).to.include({ status: 'active' });
    expect(result.charge).to.include({ amount: 1500, status: 'successful', subscriptionId: result.subscription!.id });
    expect((await api.get(`/charges/${result.charge!.id}`)).body).to.deep.equal(result.charge);
    expect(await checkout.locator('#receipt').textContent()).to.include('15.00 EUR');
    await page.close();
  });
});

/**
 * The merchant's pages, as public integrations write them (jQuery left out: plain DOM calls do
 * the same), with the service's address where the public libraries' host was.
 */
async function startShop(serviceUrl: () => string, publicKey: () => string): Promise<Shop> {
  const app = express();
  const html = (body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>${body}</body></html>`;
  const attribute = (value: unknown) => String(value ?? '').replace(/[<>&"]/g, '');
  let shopUrl = '';

  app.get('/securionpay', (_req, res) => {
    res.type('html').send(
      html(`<form id="payment-form">
<span class="payment-errors"></span>
<label>Card number <input type="text" size="20" data-securionpay="number"></label>
<label>Expiration month <input type="text" size="2" data-securionpay="expMonth"></label>
<label>Expiration year <input type="text" size="4" data-securionpay="expYear"></label>
<label>CVC <input type="text" size="4" data-securionpay="cvc"></label>
<button>Pay</button>
</form>
<pre id="token"></pre>
<script type="text/javascript" src="${serviceUrl()}/js/securionpay.js"></script>
<script type="text/javascript">
  Securionpay.setPublicKey('${publicKey()}');
  var form = document.getElementById('payment-form');
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    form.querySelector('button').disabled = true;
    Securionpay.createCardToken(form, createCardTokenCallback);
  });
  function createCardTokenCallback(token) {
    if (token.error) {
      form.querySelector('.payment-errors').textContent = token.error.message;
      form.querySelector('button').disabled = false;
    } else {
      SecurionPay.verifyThreeDSecure({ amount: 1000, currency: 'EUR', card: token.id }, verifyThreeDSecureCallback);
    }
  }
  function verifyThreeDSecureCallback(token) {
    if (token.error) {
      form.querySelector('.payment-errors').textContent = token.error.message;
      form.querySelector('button').disabled = false;
    } else {
      var shown = document.getElementById('token');
      shown.dataset.status = 'verified';
      shown.textContent = token.id;
    }
  }
</script>`),
    );
  });

  app.get('/securionpay-v2', (_req, res) => {
    res.type('html').send(
      html(`<form id="payment-form">
<div data-securionpay="number"></div>
<div data-securionpay="expiry"></div>
<div data-securionpay="cvc"></div>
<button type="submit">Save card</button>
</form>
<pre id="token"></pre>
<script type="text/javascript" src="${serviceUrl()}/v2/securionpay.js"></script>
<script type="text/javascript">
  var securionPay = SecurionPay('${publicKey()}');
  var components = securionPay.createComponentGroup().automount('#payment-form');
  document.getElementById('payment-form').addEventListener('submit', function (e) {
    e.preventDefault();
    securionPay.createToken(components).then(function (token) {
      var shown = document.getElementById('token');
      shown.dataset.status = 'created';
      shown.textContent = token.id;
    });
  });
</script>`),
    );
  });

  app.get('/securionpay-button', (req, res) => {
    res.type('html').send(
      html(`<form action="/order" method="post">
<script src="${serviceUrl()}/checkout.js"
  class="securionpay-button"
  data-key="${publicKey()}"
  data-checkout-request="${attribute(req.query.request)}"
  data-name="SecurionPay"
  data-description="Checkout example"
  data-class="primary_button"
  data-image="${shopUrl}/logo.png"
  data-amount="499"
  data-email="button@example.com"
  data-redirect="true"
  data-redirect-url="${shopUrl}/success"
  data-checkout-button="Open Securion Popup">
</script>
</form>`),
    );
  });

  app.get('/checkout', (req, res) => {
    const extra =
      req.query.options === 'addresses'
        ? `image: '${shopUrl}/logo.png', email: 'ada@example.com', billingAddress: true, shippingAddress: true, amount: 2500, currency: 'EUR',`
        : '';
    res.type('html').send(
      html(`<button id="payment-button" type="button">Pay now</button>
<p id="error"></p><pre id="result"></pre>
<script src="${serviceUrl()}/checkout.js"></script>
<script type="text/javascript">
  Shift4Checkout.key = '${publicKey()}';
  Shift4Checkout.success = function (result) {
    var shown = document.getElementById('result');
    shown.dataset.status = 'success';
    shown.textContent = JSON.stringify(result);
  };
  Shift4Checkout.error = function (errorMessage) {
    window.lastErrorMessage = errorMessage;
    document.getElementById('error').textContent = errorMessage;
  };
  document.getElementById('payment-button').addEventListener('click', function () {
    Shift4Checkout.open({
      checkoutRequest: '${attribute(req.query.request)}',
      name: 'Demo shop',
      description: 'Checkout example',
      ${extra}
    });
  });
</script>`),
    );
  });

  // An 8×8 PNG logo on the shop's own origin.
  const logo = await new Jimp({ width: 8, height: 8, color: 0x1d4ed8ff }).getBuffer('image/png');
  app.get('/logo.png', (_req, res) => {
    res.type('png').send(logo);
  });

  app.post('/order', express.urlencoded({ extended: false }), (req, res) => {
    res.type('html').send(`<!doctype html><pre id="posted">${JSON.stringify(req.body).replace(/</g, '&lt;')}</pre>`);
  });

  const shop = await serveShop(app);
  shopUrl = shop.url;
  return shop;
}
