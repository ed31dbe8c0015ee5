import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { startMerchantServer, type MerchantServer } from '../../examples/merchant/merchant-server.ts';
import { launchBrowser, type HeadlessBrowser } from '../support/browser.ts';
import { useService } from '../support/use-service.ts';

type ListedCharge = { id: string; status: string; clientObjectId?: string; failureCode?: string };

/**
 * `handleChargeNextAction` in headless Chromium: the demo shop creates a payment-method charge, the
 * library opens the provider's redirect page in a popup, the payer answers there, and the shop's
 * page gets the charge once it left `pending`.
 */
describe('payment-method charges in a browser (handleChargeNextAction)', function () {
  this.timeout(120_000);
  const { api, service, keys } = useService();
  let shop: MerchantServer;
  let browser: HeadlessBrowser;

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

  async function payWith(method: string, answer: 'Authorize' | 'Decline'): Promise<{ page: Page; text: string }> {
    const page = await browser.newPage();
    await page.goto(`${shop.url}/payment-method`);
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: `Pay with ${method}` }).click();
    const popup = await popupOpened;
    await popup.getByRole('button', { name: answer, exact: true }).click();
    const result = page.locator('#result');
    await result.and(page.locator('[data-status=successful], [data-status=failed], [data-status=error]')).waitFor();
    // The popup went back to the shop's returnUrl and was closed by the library.
    if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 5000 });
    expect(popup.isClosed()).to.equal(true);
    return { page, text: (await result.textContent()) ?? '' };
  }

  async function latestCharge(): Promise<ListedCharge> {
    return (await api.get<{ list: ListedCharge[] }>('/charges', { query: { limit: '1' } })).body.list[0]!;
  }

  it('authorized on the redirect page: the page gets the charge as successful', async () => {
    const { page, text } = await payWith('iDEAL', 'Authorize');
    expect(text).to.equal('Payment successful');
    const charge = await latestCharge();
    expect(charge.status).to.equal('successful');
    expect(charge.clientObjectId).to.match(/^client_char_/);
    await page.close();
  });

  it('declined on the redirect page: the page gets the charge as failed', async () => {
    const { page, text } = await payWith('PayPal', 'Decline');
    expect(text).to.match(/^Payment failed/);
    expect((await latestCharge()).status).to.equal('failed');
    await page.close();
  });
});
