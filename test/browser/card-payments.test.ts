import { expect } from 'chai';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startMerchantServer, type MerchantServer } from '../../examples/merchant/merchant-server.ts';
import { launchBrowser, screenshotDir, type HeadlessBrowser } from '../support/browser.ts';
import type { Charge } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';
import { overlayFrame } from '../support/hosted-checkout.ts';

const FUTURE_EXPIRY = `12${String((new Date().getUTCFullYear() + 3) % 100)}`;

/**
 * The demo shop in headless Chromium: a customer types a card into the service's card fields,
 * 3-D Secure runs (with the issuer's challenge page where the card has one), the shop's server
 * charges the token. Card numbers must never show up in the shop's page, its requests to its own
 * server, or the service's logs.
 */
describe('card payments in a browser (Shift4.js, card fields, 3-D Secure)', function () {
  this.timeout(120_000);
  const { api, service, keys } = useService();
  let shop: MerchantServer;
  let browser: HeadlessBrowser;
  const shots = screenshotDir();
  const numbersTyped = new Set<string>();
  /** Everything the shop's pages sent to the shop's own server: URLs and bodies. */
  const sentToShop: string[] = [];
  /** The shop page's DOM after each payment (the field frames are the service's, not part of it). */
  const shopDoms: string[] = [];

  before(async () => {
    shop = await startMerchantServer({
      serviceUrl: service.baseUrl,
      secretKey: keys.testSecretKey,
      publicKey: keys.testPublicKey,
    });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
  });

  async function openShop(): Promise<Page> {
    const page = await browser.newPage();
    page.on('request', (request) => {
      if (request.url().startsWith(shop.url)) sentToShop.push(`${request.url()} ${request.postData() ?? ''}`);
    });
    await page.goto(`${shop.url}/`);
    await field(page, 'number').waitFor();
    return page;
  }

  const frame = (page: Page, name: string) => page.frameLocator(`[data-shift4="${name}"] iframe`);
  const field = (page: Page, name: string) => frame(page, name).locator('input');
  const message = (page: Page, name: string) => frame(page, name).locator('#message');

  /** Types the card like a customer: click into the number, then Tab from field to field. */
  async function typeCard(page: Page, number: string, name = 'Ada Lovelace'): Promise<void> {
    numbersTyped.add(number);
    await field(page, 'number').click();
    await page.keyboard.type(number);
    await page.keyboard.press('Tab');
    await page.keyboard.type(FUTURE_EXPIRY);
    await page.keyboard.press('Tab');
    await page.keyboard.type(/^3[47]/.test(number) ? '1234' : '123');
    await page.keyboard.press('Tab');
    await page.keyboard.type(name);
  }

  async function pay(page: Page): Promise<{ status: string; text: string; chargeId: string }> {
    await page.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
    const result = page.locator('#result');
    await result.and(page.locator('[data-status=successful], [data-status=failed], [data-status=error]')).waitFor();
    shopDoms.push(await page.content());
    return {
      status: (await result.getAttribute('data-status')) ?? '',
      text: (await result.textContent()) ?? '',
      chargeId: (await result.getAttribute('data-charge-id')) ?? '',
    };
  }

  async function chargeOf(chargeId: string): Promise<Charge> {
    return (await api.get<Charge>(`/charges/${chargeId}`)).body;
  }

  it('validates as the customer types: brand, Luhn, expiry and CVC length, with messages the field is described by', async () => {
    const page = await openShop();
    await field(page, 'number').pressSequentially('4242 4242 4242 4241');
    numbersTyped.add('4242424242424241');
    await expect(await message(page, 'number').textContent()).to.equal('Your card number is invalid.');
    expect(await field(page, 'number').getAttribute('aria-invalid')).to.equal('true');
    expect(await field(page, 'number').getAttribute('aria-describedby')).to.equal('message');
    expect(await frame(page, 'number').locator('#brand').textContent()).to.equal('VISA');
    // The frame grows for the message, and shrinks back once it is gone.
    const frameHeight = (name: string) =>
      page.locator(`[data-shift4="${name}"] iframe`).evaluate((element) => element.getBoundingClientRect().height);
    const heightWithoutMessage = await frameHeight('cardholderName');
    expect(heightWithoutMessage).to.equal(40);
    expect(await frameHeight('number')).to.be.greaterThan(heightWithoutMessage);

    await field(page, 'expiry').pressSequentially('0120');
    expect(await field(page, 'expiry').inputValue()).to.equal('01 / 20');
    expect(await message(page, 'expiry').textContent()).to.equal("Your card's expiration year is in the past.");

    // Leaving an incomplete field tells what is missing.
    await field(page, 'cvc').pressSequentially('12');
    await field(page, 'cardholderName').click();
    expect(await message(page, 'cvc').textContent()).to.equal("Your card's security code is incomplete.");
    await page.screenshot({ path: join(shots, 'card-fields-errors.png') });

    // American Express: spaced 4-6-5, and a 4-digit security code.
    await field(page, 'number').fill('');
    await field(page, 'number').pressSequentially('378282246310005');
    numbersTyped.add('378282246310005');
    expect(await field(page, 'number').inputValue()).to.equal('3782 822463 10005');
    expect(await message(page, 'number').textContent()).to.equal('');
    await page.waitForFunction(
      `document.querySelector('[data-shift4="number"] iframe').getBoundingClientRect().height === ${heightWithoutMessage}`,
    );
    expect(await frame(page, 'number').locator('#brand').textContent()).to.equal('AMEX');
    expect(await field(page, 'cvc').getAttribute('maxlength')).to.equal('4');
    await field(page, 'cvc').pressSequentially('34');
    expect(await message(page, 'cvc').textContent()).to.equal('');
    await page.waitForFunction(
      `document.querySelector('[data-shift4="cvc"] iframe').getBoundingClientRect().height === ${heightWithoutMessage}`,
    );
    await page.screenshot({ path: join(shots, 'card-fields-errors-corrected.png') });

    // Submitting with errors creates no token: the shop hears the first error.
    const { status, text } = await pay(page);
    expect(status).to.equal('error');
    expect(text).to.equal("Your card's expiration year is in the past.");
    await page.close();
  });

  it("creates a token from the typed card; the payer's browser data becomes the card's fraudCheckData", async () => {
    const page = await openShop();
    await typeCard(page, '4242424242424242');
    await page.screenshot({ path: join(shots, 'card-fields.png') });
    const { status, chargeId } = await pay(page);
    expect(status).to.equal('successful');
    const charge = await chargeOf(chargeId);
    expect(charge).to.include({ status: 'successful', amount: 1000, currency: 'EUR' });
    expect(charge.card).to.include({ last4: '4242', cardholderName: 'Ada Lovelace' });
    expect(charge.card.fraudCheckData).to.include({ ipAddress: '127.0.0.1' });
    expect(charge.card.fraudCheckData?.userAgent).to.match(/Chrome/);
    expect(charge.card.fraudCheckData?.acceptLanguage).to.be.a('string').and.not.equal('');
    await page.setViewportSize({ width: 375, height: 720 });
    await page.screenshot({ path: join(shots, 'card-fields-phone.png'), fullPage: true });
    await page.close();
  });

  it('frictionless 3-D Secure: no challenge, the charge succeeds with liability shifted', async () => {
    const page = await openShop();
    await typeCard(page, '4000000000003063');
    const { status, chargeId } = await pay(page);
    expect(status).to.equal('successful');
    expect(await page.locator('[data-shift4-overlay]').count()).to.equal(0);
    expect((await chargeOf(chargeId)).threeDSecureInfo).to.include({
      liabilityShift: 'successful',
      authenticationFlow: 'frictionless',
    });
    await page.close();
  });

  it('challenge completed on the issuer page: the charge succeeds', async () => {
    const page = await openShop();
    await typeCard(page, '4000000000003220');
    await page.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
    const challenge = overlayFrame(page);
    await challenge.getByRole('button', { name: 'Complete authentication' }).waitFor();
    expect(await page.getByRole('dialog', { name: '3-D Secure authentication' }).count()).to.equal(1);
    expect(await challenge.locator('main').textContent())
      .to.include('10.00 EUR')
      .and.include('•••• 3220');
    // The code is required to complete.
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    expect(await challenge.locator('#code-error').textContent()).to.equal('Enter the 6-digit code.');
    await challenge.getByLabel('One-time code').fill('123456');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const { status, chargeId } = await pay2(page);
    expect(status).to.equal('successful');
    expect(await page.locator('[data-shift4-overlay]').count()).to.equal(0);
    expect((await chargeOf(chargeId)).threeDSecureInfo).to.include({
      liabilityShift: 'successful',
      authenticationFlow: 'challenge',
    });
    await page.close();
  });

  it("challenge answered as soon as the issuer's page shows, before its script ran: the answer is not lost", async () => {
    const page = await openShop();
    // A slow network: the challenge page's script arrives a while after the page.
    await page.route('**/js/three-d-secure/challenge.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await typeCard(page, '4000000000003220');
    await page.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
    const challenge = overlayFrame(page);
    await challenge.getByLabel('One-time code').fill('123456');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const { status, chargeId } = await pay2(page);
    expect(status).to.equal('successful');
    expect((await chargeOf(chargeId)).threeDSecureInfo).to.include({ liabilityShift: 'successful' });
    await page.close();
  });

  it('challenge failed on the issuer page: the charge fails authentication_required', async () => {
    const page = await openShop();
    await page.setViewportSize({ width: 375, height: 720 });
    await typeCard(page, '4000000000003220');
    await page.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
    const challenge = overlayFrame(page);
    await challenge.getByRole('button', { name: 'Fail authentication' }).waitFor();
    // At phone width too, the close button sits above the issuer's page, not on it.
    const closeBox = (await page.getByRole('button', { name: 'Cancel authentication' }).boundingBox())!;
    const issuerBox = (await page.locator('[data-shift4-overlay] iframe').boundingBox())!;
    expect(closeBox.y + closeBox.height).to.be.at.most(issuerBox.y);
    await page.screenshot({ path: join(shots, 'three-d-secure-challenge-phone.png') });
    await challenge.getByRole('button', { name: 'Fail authentication' }).click();
    const { status, text, chargeId } = await pay2(page);
    expect(status).to.equal('failed');
    expect(text).to.include('authentication_required');
    expect((await chargeOf(chargeId)).threeDSecureInfo).to.include({ liabilityShift: 'failed' });
    await page.close();
  });

  it('challenge left with Escape or its close button: the promise rejects authentication_cancelled, nothing is charged, focus returns', async () => {
    const page = await openShop();
    const chargeCount = async () =>
      (await api.get<{ list: Charge[] }>('/charges', { query: { limit: '100' } })).body.list.length;
    const chargesBefore = await chargeCount();
    const chargeCalls = () => sentToShop.filter((sent) => sent.includes('/api/card-charges')).length;
    const callsBefore = chargeCalls();
    await typeCard(page, '4000000000003220');
    const challenge = overlayFrame(page);
    const numberFieldFocused = () =>
      page.evaluate("document.activeElement?.closest('[data-shift4]')?.getAttribute('data-shift4') ?? null");

    // Escape typed in the issuer's page: the shop's page hears the rejection and says it.
    await page.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
    await challenge.getByLabel('One-time code').click();
    await page.keyboard.press('Escape');
    await page.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    const result = page.locator('#result[data-status=error]');
    await result.waitFor();
    expect(await result.textContent()).to.equal('3-D Secure authentication was cancelled.');
    // The Pay button was disabled while paying: the focus is on the form's first field.
    expect(await numberFieldFocused()).to.equal('number');

    // The close button above the issuer's page, as the shop's own code sees the rejection, opened
    // while the (enabled) Pay button has the focus. Not awaited here: it settles once the payer
    // leaves the challenge.
    await page.getByRole('button', { name: 'Pay 10.00 EUR' }).focus();
    await page.evaluate(`void (window.outcome = shift4.createToken(components)
      .then((token) => shift4.verifyThreeDSecure({ amount: 1000, currency: 'EUR', card: (window.tokenId = token.id) }))
      .then(() => 'resolved', (error) => ({ type: error.type, code: error.code, message: error.message })))`);
    const close = page.getByRole('button', { name: 'Cancel authentication' });
    await close.waitFor();
    await page.screenshot({ path: join(shots, 'three-d-secure-challenge.png') });
    await close.click();
    expect(await page.evaluate('window.outcome')).to.deep.equal({
      type: 'card_error',
      code: 'authentication_cancelled',
      message: '3-D Secure authentication was cancelled.',
    });
    expect(await page.locator('[data-shift4-overlay]').count()).to.equal(0);
    // The focus is back where it was.
    expect(await page.evaluate('document.activeElement?.id')).to.equal('pay');
    expect(chargeCalls()).to.equal(callsBefore);
    expect(await chargeCount()).to.equal(chargesBefore);
    // A shop that charged the token anyway would be refused: its challenge was never answered.
    const tokenId = (await page.evaluate('window.tokenId')) as string;
    const charged = await api.post<{ error: { code: string } }>('/charges', {
      json: { amount: 1000, currency: 'EUR', card: tokenId },
    });
    expect(charged.status).to.equal(402);
    expect(charged.body.error.code).to.equal('authentication_required');
    await page.close();
  });

  it('Enter in a card field submits the form: the payment is made as with the Pay button', async () => {
    const page = await openShop();
    await typeCard(page, '4242424242424242');
    await field(page, 'cvc').click();
    await page.keyboard.press('Enter');
    const result = page.locator('#result[data-status=successful]');
    await result.waitFor();
    const chargeId = (await result.getAttribute('data-charge-id')) ?? '';
    expect((await chargeOf(chargeId)).status).to.equal('successful');
    await page.close();
  });

  it('card not enrolled in 3-D Secure: not_possible, the charge succeeds', async () => {
    const page = await openShop();
    await typeCard(page, '4000000000003089');
    const { status, chargeId } = await pay(page);
    expect(status).to.equal('successful');
    expect((await chargeOf(chargeId)).threeDSecureInfo).to.include({ enrolled: false, liabilityShift: 'not_possible' });
    await page.close();
  });

  it("never lets a card number into the shop's page, its requests to its server, or the service's logs", () => {
    expect(numbersTyped.size).to.be.greaterThan(4);
    expect(shopDoms.length).to.be.greaterThan(4);
    expect(sentToShop.some((request) => request.includes('/api/card-charges'))).to.equal(true);
    const logs = service.output();
    for (const number of numbersTyped) {
      const spaced = number.replace(/(\d{4})(?=\d)/g, '$1 ');
      for (const dom of shopDoms) expect(dom).not.to.include(number).and.not.to.include(spaced);
      for (const request of sentToShop) expect(request).not.to.include(number);
      expect(logs).not.to.include(number);
    }
  });

  /** The result of a payment whose submit was already clicked (a challenge came in between). */
  async function pay2(page: Page): Promise<{ status: string; text: string; chargeId: string }> {
    const result = page.locator('#result');
    await result.and(page.locator('[data-status=successful], [data-status=failed], [data-status=error]')).waitFor();
    shopDoms.push(await page.content());
    return {
      status: (await result.getAttribute('data-status')) ?? '',
      text: (await result.textContent()) ?? '',
      chargeId: (await result.getAttribute('data-charge-id')) ?? '',
    };
  }
});
