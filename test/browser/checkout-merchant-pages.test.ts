import { expect } from 'chai';
import { Jimp } from 'jimp';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startMerchantServer } from '../../examples/merchant/merchant-server.ts';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { overlayFrame, startShop, TYPED_CARD_NUMBERS, useHostedCheckout } from '../support/hosted-checkout.ts';
import { createOtherAccount, type Charge } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';

/**
 * The hosted checkout on the merchant's side, in headless Chromium: what the merchant's error handler
 * hears, which sites may frame live checkout, cross-sale offers after the payment, the button
 * integration in an order form, the demo shop, and closing checkout from the keyboard.
 */
describe("hosted checkout in a browser: the merchant's page (errors, framing, offers, button integration, keyboard)", function () {
  this.timeout(120_000);
  const hosted = useHostedCheckout();
  const { api, service, keys, shots, sign, openCheckout, fieldOf, typeCard, callbackResult, successShown } = hosted;

  it("a tampered request shows the error page, and the merchant's error handler hears it", async () => {
    const signed = sign({ charge: { amount: 100, currency: 'EUR' } });
    const [signature, json] = Buffer.from(signed, 'base64').toString('utf8').split('|');
    const tampered = Buffer.from(`${signature}|${json!.replace('100', '1')}`).toString('base64');
    const page = await hosted.browser.newPage();
    const console: string[] = [];
    page.on('console', (message) => console.push(message.text()));
    await page.goto(`${hosted.shop.url}/`);
    await page.evaluate(`openCheckout(${JSON.stringify({ checkoutRequest: tampered })})`);
    const checkout = overlayFrame(page);
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
    const openOn = async (url: string, key = live.livePublicKey, checkoutRequest = signed) => {
      const page = await hosted.browser.newPage();
      await page.goto(`${url}/`);
      await page.evaluate(
        `Shift4Checkout.key = ${JSON.stringify(key)}; openCheckout({ checkoutRequest: ${JSON.stringify(checkoutRequest)} })`,
      );
      return { page, checkout: overlayFrame(page) };
    };
    /** Whether the browser refused to show the checkout frame on the page (an error page instead). */
    const frameRefused = async (page: Page): Promise<boolean> => {
      await page.locator('[data-shift4-overlay] iframe').waitFor();
      for (let attempt = 0; attempt < 100; attempt++) {
        if (page.frames().some((frame) => frame.url().startsWith('chrome-error:'))) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return false;
    };
    try {
      // No site named yet: the merchant's own page gets the error page, not the checkout.
      const unnamed = await openOn(hosted.shop.url);
      await unnamed.checkout.locator('#checkout-error').waitFor();
      expect(await unnamed.checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).count()).to.equal(0);
      await unnamed.page.close();

      const named = await runCli(
        ['accounts', 'settings', live.id, '--checkout-origins', hosted.shop.url],
        service.dataDir,
      );
      expect(named.code, named.stderr).to.equal(0);
      // The service sees the setting once projected.
      const mine = await openOn(hosted.shop.url);
      for (let attempt = 0; (await mine.checkout.locator('#checkout-error').count()) > 0 && attempt < 50; attempt++) {
        await mine.page.reload();
        await mine.page.evaluate(
          `Shift4Checkout.key = ${JSON.stringify(live.livePublicKey)}; openCheckout({ checkoutRequest: ${JSON.stringify(signed)} })`,
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await mine.checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).waitFor();
      // The card fields nested in it are framed too.
      await fieldOf(mine.checkout, 'number').waitFor();
      await mine.page.close();

      // Another site naming itself in origin= gets a frame the browser refused to show.
      const theirs = await openOn(foreign.url);
      expect(await frameRefused(theirs.page), 'the checkout frame is refused on the foreign site').to.equal(true);
      expect(await theirs.checkout.getByRole('button', { name: 'Pay 19.99 EUR' }).count()).to.equal(0);
      await theirs.page.close();

      // The sites hold in test mode too: the merchant's site pays and its page hears the outcome
      // (checkout's messages go to that site); the other site cannot frame it.
      const testSigned = signCheckoutRequest({ charge: { amount: 1888, currency: 'EUR' } }, live.testSecretKey);
      const testTheirs = await openOn(foreign.url, live.testPublicKey, testSigned);
      expect(await frameRefused(testTheirs.page), 'the test checkout frame is refused on the foreign site').to.equal(
        true,
      );
      await testTheirs.page.close();
      const testMine = await openOn(hosted.shop.url, live.testPublicKey, testSigned);
      await testMine.checkout.getByLabel('Email', { exact: true }).fill('sites@example.com');
      await typeCard(testMine.page, testMine.checkout, '4242424242424242');
      await testMine.checkout.getByRole('button', { name: 'Pay 18.88 EUR' }).click();
      expect((await callbackResult(testMine.page)).charge).to.include({ amount: 1888, status: 'successful' });
      await testMine.page.close();
    } finally {
      await foreign.close();
    }
  });

  it("misuse is reported to the merchant's error handler and opens nothing: no key, no request", async () => {
    const page = await hosted.browser.newPage();
    await page.goto(`${hosted.shop.url}/`);
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

  it("cross-sale offers: the merchant's own and a partner's are listed after the payment and bought with Buy", async () => {
    const image = await new Jimp({ width: 247, height: 156, color: 0x2563ebff }).getBuffer('image/png');
    const ownOffer = (
      await api.post<{ id: string; imageUrl: string }>('/cross-sale-offers', {
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
    // The image is the service's (the page's policy allows no other), at its absolute address as
    // the API gives it, and it loads.
    expect(await own.locator('img').getAttribute('src')).to.equal(ownOffer.imageUrl);
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
    const page = await hosted.browser.newPage();
    await page.goto(
      `${hosted.shop.url}/button?request=${encodeURIComponent(sign({ charge: { amount: 700, currency: 'EUR' } }))}`,
    );
    await page.getByRole('button', { name: 'Pay' }).click();
    const checkout = overlayFrame(page);
    await checkout.getByLabel('Email', { exact: true }).fill('button@example.com');
    await typeCard(page, checkout, '4242424242424242');
    await checkout.getByRole('button', { name: 'Pay 7.00 EUR' }).click();
    await successShown(checkout);
    await checkout.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL(`${hosted.shop.url}/order`);
    const posted = JSON.parse((await page.locator('#posted').textContent()) ?? '{}') as Record<string, string>;
    expect(posted.shift4ChargeId).to.match(/^char_/);
    expect(posted.shift4CustomerId).to.match(/^cust_/);
    expect(posted.order).to.equal('1001');
    const charge = (await api.get<Charge>(`/charges/${posted.shift4ChargeId}`)).body;
    expect(charge).to.include({ amount: 700, customerId: posted.shift4CustomerId });
    await page.close();
  });

  it('button integration: data-checkout-button labels the button, as in the public integration', async () => {
    const page = await hosted.browser.newPage();
    await page.goto(
      `${hosted.shop.url}/button?label=${encodeURIComponent('Buy now')}&request=${encodeURIComponent(sign({ charge: { amount: 700, currency: 'EUR' } }))}`,
    );
    await page.getByRole('button', { name: 'Buy now', exact: true }).click();
    await overlayFrame(page).getByRole('button', { name: 'Pay 7.00 EUR' }).waitFor();
    await page.close();
  });

  it("the demo shop's checkout page: its server signs the request, the page opens checkout", async () => {
    const demo = await startMerchantServer({
      serviceUrl: service.baseUrl,
      secretKey: keys.testSecretKey,
      publicKey: keys.testPublicKey,
    });
    const page = await hosted.browser.newPage();
    try {
      await page.goto(`${demo.url}/checkout`);
      await page.getByRole('button', { name: 'Pay with checkout' }).click();
      const checkout = overlayFrame(page);
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
    for (const number of TYPED_CARD_NUMBERS) expect(logs).not.to.include(number);
  });
});
