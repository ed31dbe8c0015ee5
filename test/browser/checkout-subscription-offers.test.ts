import { expect } from 'chai';
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { launchBrowser, screenshotDir, type HeadlessBrowser } from '../support/browser.ts';
import { eventually } from '../support/eventually.ts';
import { createOtherAccount, type Customer, type Page as ListPage } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { createPlan, type Subscription } from '../support/subscriptions.ts';
import { useService } from '../support/use-service.ts';
import { overlayFrame } from '../support/hosted-checkout.ts';

const FUTURE_EXPIRY = `12${String((new Date().getUTCFullYear() + 3) % 100)}`;

/**
 * Subscription offers in the hosted checkout, in headless Chromium: after paying, the payer
 * subscribes to the merchant's own offer and to a partner's with the card just used, reads the
 * subscriptions in the receipt, and the API shows them on each offer's account.
 */
describe('hosted checkout in a browser: cross-sale offers that define a subscription', function () {
  this.timeout(120_000);
  const { api, service, keys } = useService();
  let browser: HeadlessBrowser;
  let shop: { url: string; close(): Promise<void> };
  const shots = screenshotDir();

  before(async () => {
    shop = await startShop(service.baseUrl, keys.testPublicKey);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
  });

  async function openCheckout(request: object, email: string): Promise<{ page: Page; checkout: FrameLocator }> {
    const page = await browser.newPage();
    await page.goto(`${shop.url}/`);
    const checkoutRequest = signCheckoutRequest(request, keys.testSecretKey);
    await page.evaluate(`openCheckout(${JSON.stringify({ checkoutRequest, email })})`);
    return { page, checkout: overlayFrame(page) };
  }

  it('the payer subscribes to the merchant’s and a partner’s offer after paying, reads them in the receipt; the API has them', async () => {
    const plan = await createPlan(api, { amount: 999, name: 'Premium support' });
    const own = await api.post<{ id: string }>('/cross-sale-offers', {
      json: {
        subscription: { planId: plan.id },
        template: 'text_only',
        title: 'Premium support',
        description: 'Answers within the hour, every day',
      },
    });
    expect(own.status, JSON.stringify(own.body)).to.equal(200);
    const partner = await createOtherAccount(api, service.dataDir, 'Magazine Partner');
    const magazine = await createPlan(partner.api, { amount: 1_500, name: 'Magazine', trialPeriodDays: 14 });
    const partners = await partner.api.post<{ id: string }>('/cross-sale-offers', {
      json: {
        subscription: { planId: magazine.id },
        template: 'text_only',
        title: 'Travel magazine',
        companyName: 'Magazine Partner Ltd',
        companyLocation: 'GB',
        partnerIds: [keys.id],
      },
    });
    expect(partners.status, JSON.stringify(partners.body)).to.equal(200);
    const added = await runCli(['accounts', 'partners', 'add', keys.id, partner.keys.id], service.dataDir);
    expect(added.code, added.stderr).to.equal(0);

    const { page, checkout } = await openCheckout(
      { charge: { amount: 1000, currency: 'EUR' }, crossSaleOfferIds: [own.body.id, partners.body.id] },
      'ada@example.com',
    );
    await checkout.getByRole('button', { name: 'Pay 10.00 EUR' }).waitFor();
    await checkout.frameLocator('[data-shift4="number"] iframe').locator('input').click();
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    await page.keyboard.type(FUTURE_EXPIRY);
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await checkout.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
    const result = page.locator('#result[data-status=success]');
    await result.waitFor({ state: 'attached' });
    const paid = JSON.parse((await result.textContent()) ?? '{}') as { customer: Customer };
    await checkout.locator('#success-step').waitFor({ state: 'visible' });

    // Each offer says what it is: a price per interval, the trial, "Subscribe for …".
    const ownItem = checkout.locator(`.offer[data-offer-id="${own.body.id}"]`);
    const partnerItem = checkout.locator(`.offer[data-offer-id="${partners.body.id}"]`);
    expect(await ownItem.locator('.offer-price').textContent()).to.equal('9.99 EUR / month');
    expect(await partnerItem.textContent())
      .to.include('15.00 EUR / month')
      .and.include('14-day free trial: the first payment is after it ends.')
      .and.include('Magazine Partner Ltd, GB');

    await ownItem.getByRole('button', { name: 'Subscribe for 9.99 EUR / month' }).click();
    await ownItem.locator('.offer-outcome[data-status=bought]').waitFor();
    expect(await ownItem.locator('.offer-outcome').textContent()).to.equal('Subscribed: 9.99 EUR / month.');
    await partnerItem.getByRole('button', { name: 'Subscribe for 15.00 EUR / month' }).click();
    await partnerItem.locator('.offer-outcome[data-status=bought]').waitFor();
    expect(await partnerItem.locator('.offer-outcome').textContent()).to.equal(
      'Subscribed: 14-day free trial, then 15.00 EUR / month.',
    );
    expect(await checkout.locator('.offer .buy').count()).to.equal(0);

    // The receipt lists both subscriptions after the payment.
    const receipt = await checkout
      .locator('#receipt')
      .evaluate((list) =>
        [...list.querySelectorAll('dt')].map((term) => [term.textContent, term.nextElementSibling?.textContent]),
      );
    expect(receipt).to.deep.include.members([
      ['Paid', '10.00 EUR'],
      ['Subscribed to', 'Premium support, 9.99 EUR / month'],
      ['Subscribed to', 'Travel magazine, 15.00 EUR / month'],
    ]);
    await page.screenshot({ path: join(shots, 'checkout-offer-subscribed.png') });

    // The merchant's own offer: its checkout customer is subscribed, with the card just used.
    const ownSubscriptions = await eventually(
      async () =>
        (await api.get<ListPage<Subscription>>('/subscriptions', { query: { customerId: paid.customer.id } })).body
          .list,
      (list) => list.length === 1 && list[0]!.status === 'active',
    );
    expect(ownSubscriptions[0]).to.include({ planId: plan.id, customerId: paid.customer.id });
    // The partner's offer: a customer of the partner with the payer's email and card, in its trial.
    const partnerSubscriptions = (await partner.api.get<ListPage<Subscription>>('/subscriptions')).body.list;
    expect(partnerSubscriptions.map((listed) => [listed.planId, listed.status])).to.deep.equal([
      [magazine.id, 'trialing'],
    ]);
    const subscriber = (await partner.api.get<Customer>(`/customers/${partnerSubscriptions[0]!.customerId}`)).body;
    expect(subscriber.email).to.equal('ada@example.com');
    expect(subscriber.cards.map((card) => card.last4)).to.deep.equal(['4242']);
    await page.close();
  });
});

/** The merchant's page, on its own origin: opens checkout and writes what the callback received. */
async function startShop(serviceUrl: string, publicKey: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.get('/', (_req, res) => {
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><h1>Demo shop</h1><button id="open" type="button">Checkout</button><pre id="result" hidden></pre>
<script src="${serviceUrl}/js/checkout.js"></script>
<script>
const result = document.getElementById('result');
Shift4Checkout.key = ${JSON.stringify(publicKey)};
window.openCheckout = (options) => {
  Shift4Checkout.open(options, (paid) => { result.dataset.status = 'success'; result.textContent = JSON.stringify(paid); });
};
</script></body></html>`);
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
