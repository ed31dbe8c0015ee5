import { expect } from 'chai';
import express from 'express';
import { join } from 'node:path';
import type { FrameLocator, Page, Request } from 'playwright-core';
import { launchBrowser, type HeadlessBrowser } from '../support/browser.ts';
import {
  cardField,
  cardFieldFrame,
  FUTURE_EXPIRY,
  overlayFrame,
  serveShop,
  tick,
  useHostedCheckout,
  type HostedCheckoutFixture,
  type Shop,
} from '../support/hosted-checkout.ts';
import { createPaymentMethodCharge } from '../support/payment-methods.ts';
import { createPlan } from '../support/subscriptions.ts';
import { CATALOGS, translate, type Locale, type MessageKey } from '../../packages/client-side/i18n/index.ts';
import { formatMoney } from '../../packages/money/money.ts';

/**
 * What a payer reads in German and in Polish, in headless Chromium: the card fields and the 3-D
 * Secure challenge on a merchant's page (Shift4.js with its `locale` option, or the browser's
 * language), the hosted checkout (its receipt, remembered cards, offers, plan prices) and the
 * payment-method provider's page. The texts are read from the pages as the payer sees them.
 */
describe("payer pages in the payer's language (German, Polish) in a browser", function () {
  this.timeout(180_000);
  // The German pages are asked for by the merchant (`locale`) in an English browser; the Polish
  // ones come from the browser's language alone.
  const site = useHostedCheckout({ shop: startShop, locale: 'en-US' });
  const { api, service, keys, sign, shots, typeCard } = site;
  let polish: HeadlessBrowser;

  before(async () => {
    polish = await launchBrowser({ locale: 'pl-PL' });
  });

  after(async () => {
    await polish?.close();
  });

  /** The shop's card page: Shift4.js with the `locale` option when given, else the browser's language. */
  async function openCardPage(browser: HeadlessBrowser, locale?: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${site.shop.url}/card${locale ? `?locale=${locale}` : ''}`);
    await page.frameLocator('[data-shift4="number"] iframe').locator('input').waitFor();
    return page;
  }

  const fieldFrame = cardFieldFrame;
  const field = cardField;
  const fieldMessage = (scope: Page | FrameLocator, name: string) => fieldFrame(scope, name).locator('#message');

  /** What the shop's page shows once Shift4.js answered: the error's message (or `paid`). */
  async function shopResult(page: Page): Promise<string> {
    const result = page.locator('#result[data-status]');
    await result.waitFor({ state: 'attached' });
    const text = (await result.textContent()) ?? '';
    await page.evaluate("delete document.getElementById('result').dataset.status");
    return text;
  }

  it("card fields: errors, labels and the frames' names in German (locale option) and Polish (browser)", async () => {
    const cases = [
      {
        page: await openCardPage(site.browser, 'de'),
        lang: 'de',
        title: 'Kartennummer',
        invalidNumber: 'Ihre Kartennummer ist ungültig.',
        pastYear: 'Das Ablaufjahr Ihrer Karte liegt in der Vergangenheit.',
        incompleteCvc: 'Der Sicherheitscode Ihrer Karte ist unvollständig.',
        shot: 'card-fields-errors-german.png',
      },
      {
        page: await openCardPage(polish),
        lang: 'pl',
        title: 'Numer karty',
        invalidNumber: 'Numer karty jest nieprawidłowy.',
        pastYear: 'Rok ważności karty już minął.',
        incompleteCvc: 'Kod bezpieczeństwa karty jest niepełny.',
        shot: 'card-fields-errors-polish.png',
      },
    ];
    for (const { page, lang, title, invalidNumber, pastYear, incompleteCvc, shot } of cases) {
      // The frame's accessible name on the merchant's page is the field's label in the payer's language.
      await page.waitForFunction(
        `document.querySelector('[data-shift4="number"] iframe').title === ${JSON.stringify(title)}`,
      );
      expect(await fieldFrame(page, 'number').locator('html').getAttribute('lang')).to.equal(lang);
      await field(page, 'number').pressSequentially('4242 4242 4242 4241');
      expect(await fieldMessage(page, 'number').textContent()).to.equal(invalidNumber);
      await field(page, 'expiry').pressSequentially('0120');
      expect(await fieldMessage(page, 'expiry').textContent()).to.equal(pastYear);
      await field(page, 'cvc').pressSequentially('12');
      await field(page, 'cardholderName').click();
      expect(await fieldMessage(page, 'cvc').textContent()).to.equal(incompleteCvc);
      await page.screenshot({ path: join(shots, shot) });
      // createToken refuses with the first error, in the payer's language, as the page shows it.
      await page.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
      expect(await shopResult(page)).to.equal(invalidNumber);
      await page.close();
    }
  });

  it('3-D Secure challenge: the dialog, the issuer page and the cancellation in Polish and German', async () => {
    for (const { page, dialog, close, heading, enterCode, cancelled } of [
      {
        page: await openCardPage(polish),
        dialog: 'Uwierzytelnianie 3-D Secure',
        close: 'Anuluj uwierzytelnianie',
        heading: 'Potwierdź płatność',
        enterCode: 'Wpisz 6-cyfrowy kod.',
        cancelled: 'Uwierzytelnianie 3-D Secure zostało anulowane.',
      },
      {
        page: await openCardPage(site.browser, 'de'),
        dialog: '3-D-Secure-Authentifizierung',
        close: 'Authentifizierung abbrechen',
        heading: 'Bestätigen Sie Ihre Zahlung',
        enterCode: 'Geben Sie den 6-stelligen Code ein.',
        cancelled: 'Die 3-D-Secure-Authentifizierung wurde abgebrochen.',
      },
    ]) {
      await typeCard(page, page, '4000000000003220');
      await page.getByRole('button', { name: 'Pay 10.00 EUR' }).click();
      const challenge = overlayFrame(page);
      await challenge.getByRole('heading', { name: heading }).waitFor();
      // The dialog and its close button take their names from the challenge page, in its language.
      await page.getByRole('dialog', { name: dialog }).waitFor();
      await page.getByRole('button', { name: close }).waitFor();
      expect(await challenge.locator('main').textContent()).to.include('10,00 EUR');
      // Answering without the code is refused next to it.
      await challenge.locator('button[value=complete]').click();
      expect(await challenge.locator('#code-error').textContent()).to.equal(enterCode);
      if (page.context() === polish.context) await page.screenshot({ path: join(shots, 'three-d-secure-polish.png') });
      // Leaving rejects verifyThreeDSecure with the message in the payer's language.
      await page.getByRole('button', { name: close }).click();
      expect(await shopResult(page)).to.equal(cancelled);
      await page.close();
    }
  });

  it("the challenge page's status after an answer, in Polish, when opened on its own (a popup)", async () => {
    const token = await challengeCardToken(site, 'PLN');
    const page = await polish.newPage();
    const query = new URLSearchParams({ token, key: keys.testPublicKey, origin: site.shop.url });
    await page.goto(`${service.baseUrl}/three-d-secure/challenge?${query}`);
    expect(await page.locator('.issuer').textContent()).to.equal('Bank testowy');
    expect(await page.locator('main').textContent()).to.include('25,00 PLN');
    await page.getByRole('button', { name: 'Odrzuć uwierzytelnianie' }).click();
    await page.getByRole('status').filter({ hasText: 'Uwierzytelnianie nie powiodło się.' }).waitFor();
    // The challenge is answered: the page asked again says so in a plain sentence, in Polish.
    await page.reload();
    expect(await page.locator('html').getAttribute('lang')).to.equal('pl');
    expect(await page.locator('main').textContent()).to.include('Dla tej karty nie czeka żadne uwierzytelnianie.');
    await page.close();
  });

  /** The merchant's page with checkout opened for the request, with the merchant's `locale` when given. */
  async function openCheckout(
    browser: HeadlessBrowser,
    request: object,
    options: { locale?: string; email?: string } = {},
  ): Promise<{ page: Page; checkout: FrameLocator }> {
    const page = await browser.newPage();
    await page.goto(`${site.shop.url}/`);
    await page.evaluate(`openCheckout(${JSON.stringify({ checkoutRequest: sign(request), ...options })})`);
    return { page, checkout: overlayFrame(page) };
  }

  it('checkout in German: plan prices, card-field errors, the receipt, an offer, the challenge and its cancellation', async () => {
    const plan = await createPlan(api, { amount: 1500, interval: 'month', intervalCount: 3, trialPeriodDays: 1 });
    const subscription = await openCheckout(site.browser, { subscription: { planId: plan.id } }, { locale: 'de' });
    await subscription.checkout.getByRole('button', { name: 'Für 15,00 EUR alle 3 Monate abonnieren' }).waitFor();
    expect(await subscription.checkout.locator('#trial').textContent()).to.equal(
      '1 Tag kostenlos testen: die erste Zahlung folgt danach.',
    );
    await subscription.page.close();

    const offer = await api.post<{ id: string }>('/cross-sale-offers', {
      json: { charge: { amount: 300, currency: 'EUR' }, template: 'text_only', title: 'Geschenkverpackung' },
    });
    expect(offer.status, JSON.stringify(offer.body)).to.equal(200);
    const { page, checkout } = await openCheckout(
      site.browser,
      { charge: { amount: 2500, currency: 'EUR' }, crossSaleOfferIds: [offer.body.id] },
      { locale: 'de' },
    );
    const pay = checkout.getByRole('button', { name: '25,00 EUR bezahlen' });
    await pay.waitFor();
    await checkout.getByLabel('E-Mail', { exact: true }).fill('ada@');
    await field(checkout, 'number').click();
    expect(await checkout.locator('#email-error').textContent()).to.equal('Geben Sie eine gültige E-Mail-Adresse ein.');
    await checkout.getByLabel('E-Mail', { exact: true }).fill('ada@example.com');
    await field(checkout, 'number').pressSequentially('4242 4242 4242 4241');
    expect(await fieldMessage(checkout, 'number').textContent()).to.equal('Ihre Kartennummer ist ungültig.');
    await field(checkout, 'number').fill('');
    await typeCard(page, checkout, '4242424242424242');
    await pay.click();

    await checkout.locator('#success-step').waitFor({ state: 'visible' });
    expect(await checkout.locator('#success-title').textContent()).to.equal('Zahlung erfolgreich');
    const receipt = await checkout.locator('#receipt dt').allTextContents();
    expect(receipt).to.deep.equal(['Bezahlt', 'Karte', 'E-Mail', 'Referenz']);
    expect(await checkout.locator('#receipt').textContent()).to.include('25,00 EUR');
    await checkout.getByRole('button', { name: 'Für 3,00 EUR kaufen' }).click();
    const outcome = checkout.locator('.offer-outcome[data-status]');
    await outcome.waitFor();
    expect(await outcome.getAttribute('data-status'), (await outcome.textContent()) ?? '').to.equal('bought');
    expect(await outcome.textContent()).to.equal('Gekauft: 3,00 EUR bezahlt.');
    await page.screenshot({ path: join(shots, 'checkout-german-receipt.png') });
    await page.close();

    // The issuer's challenge inside checkout, and what checkout says once the payer left it.
    const secured = await openCheckout(
      site.browser,
      { charge: { amount: 2500, currency: 'EUR' }, threeDSecure: { enable: true } },
      { locale: 'de', email: 'ada@example.com' },
    );
    await secured.checkout.getByRole('button', { name: '25,00 EUR bezahlen' }).waitFor();
    await typeCard(secured.page, secured.checkout, '4000000000003220');
    await secured.checkout.getByRole('button', { name: '25,00 EUR bezahlen' }).click();
    const challenge = overlayFrame(secured.checkout);
    await challenge.getByRole('heading', { name: 'Bestätigen Sie Ihre Zahlung' }).waitFor();
    expect(await challenge.getByLabel('Einmalcode').count()).to.equal(1);
    await secured.checkout.getByRole('button', { name: 'Authentifizierung abbrechen' }).click();
    const formError = secured.checkout.locator('#form-error:not(:empty)');
    await formError.waitFor();
    expect(await formError.textContent()).to.equal(
      'Die Kartenauthentifizierung wurde abgebrochen. Versuchen Sie es erneut oder verwenden Sie eine andere Karte.',
    );
    await secured.page.close();

    // The provider's page of a payment method chosen in checkout speaks the merchant's locale too.
    const byMethod = await openCheckout(
      site.browser,
      { charge: { amount: 2500, currency: 'EUR' }, paymentMethodTypes: ['ideal'] },
      { locale: 'de', email: 'ada@example.com' },
    );
    // The page the provider sends the payer back to, in the popup until checkout closes it, too.
    const returnAddresses: string[] = [];
    const recordReturn = (request: Request) => {
      if (new URL(request.url()).pathname === '/checkout/returned') returnAddresses.push(request.url());
    };
    site.browser.context.on('request', recordReturn);
    const popupOpened = byMethod.page.context().waitForEvent('page');
    await byMethod.checkout.getByRole('button', { name: 'Mit iDEAL bezahlen' }).click();
    const popup = await popupOpened;
    await popup.getByRole('button', { name: 'Autorisieren' }).waitFor();
    expect(await popup.locator('html').getAttribute('lang')).to.equal('de');
    expect(await popup.locator('h1').textContent()).to.equal('Zahlung mit iDEAL');
    await popup.getByRole('button', { name: 'Autorisieren' }).click();
    await byMethod.checkout.locator('#success-step').waitFor({ state: 'visible' });
    expect(await byMethod.checkout.locator('#success-title').textContent()).to.equal('Zahlung erfolgreich');
    site.browser.context.off('request', recordReturn);
    await byMethod.page.close();
    expect(returnAddresses).to.have.length(1);
    const returned = await site.browser.newPage();
    await returned.goto(returnAddresses[0]!);
    expect(await returned.locator('html').getAttribute('lang')).to.equal('de');
    expect(await returned.locator('main').innerText()).to.include(
      'Sie können dieses Fenster schließen und zum Checkout zurückkehren.',
    );
    await returned.close();
  });

  it("checkout in Polish (the browser's language): a remembered card, its code, and the receipt", async () => {
    const request = { charge: { amount: 1200, currency: 'EUR' }, rememberMe: true };
    const email = 'jan.kowalski@example.com';
    const first = await openCheckout(polish, request);
    await first.checkout.getByRole('button', { name: 'Zapłać 12,00 EUR' }).waitFor();
    // The dialog around checkout on the merchant's page, and its close button, are named in Polish too.
    await first.page.getByRole('dialog', { name: 'Płatność' }).waitFor();
    await first.page.getByRole('button', { name: 'Zamknij płatność' }).waitFor();
    await first.checkout.getByLabel('E-mail', { exact: true }).fill(email);
    await typeCard(first.page, first.checkout, '4242424242424242');
    await tick(first.checkout.getByLabel('Zapamiętaj mnie'));
    await first.checkout.getByRole('button', { name: 'Zapłać 12,00 EUR' }).click();
    await first.checkout.locator('#success-step').waitFor({ state: 'visible' });
    expect(await first.checkout.locator('#receipt dt').allTextContents()).to.deep.equal([
      'Zapłacono',
      'Karta',
      'E-mail',
      'Numer referencyjny',
    ]);
    await first.page.close();

    const { page, checkout } = await openCheckout(polish, request);
    await checkout.getByLabel('E-mail', { exact: true }).fill(email);
    await checkout.getByRole('button', { name: 'Użyj zapisanej karty' }).click();
    const testCode = checkout.locator('#test-code');
    await testCode.waitFor();
    expect(await checkout.locator('#code-sent').textContent()).to.equal(
      `Jeśli dla ${email} zapisano kartę, wysłaliśmy kod na ten adres.`,
    );
    const code = /^Tryb testowy: Twój kod to (\d{6})$/.exec((await testCode.textContent()) ?? '')?.[1];
    expect(code).to.match(/^\d{6}$/);
    await checkout.getByLabel('Kod jednorazowy').fill(code === '000000' ? '111111' : '000000');
    await checkout.getByRole('button', { name: 'Potwierdź' }).click();
    await checkout.locator('#code-error:not(:empty)').waitFor();
    expect(await checkout.locator('#code-error').textContent()).to.equal('Ten kod jest nieprawidłowy lub wygasł.');
    await checkout.getByLabel('Kod jednorazowy').fill(code!);
    await checkout.getByRole('button', { name: 'Potwierdź' }).click();
    await checkout.locator('#using-saved-card').waitFor({ state: 'visible' });
    expect(await checkout.locator('#saved-card-label').textContent()).to.equal(
      `Visa •••• 4242, ważna do 12/${FUTURE_EXPIRY.slice(2)}`,
    );
    await page.screenshot({ path: join(shots, 'checkout-polish-remembered-card.png') });
    await checkout.getByRole('button', { name: 'Zapłać 12,00 EUR' }).click();
    await checkout.locator('#success-step').waitFor({ state: 'visible' });
    expect(await checkout.locator('#success-title').textContent()).to.equal('Płatność zakończona powodzeniem');
    await page.close();
  });

  it('the checkout error page in Polish: a plain sentence, its dialog and close button named in Polish', async () => {
    const signed = sign({ charge: { amount: 100, currency: 'EUR' } });
    const [signature, json] = Buffer.from(signed, 'base64').toString('utf8').split('|');
    const tampered = Buffer.from(`${signature}|${json!.replace('100', '1')}`).toString('base64');
    const page = await polish.newPage();
    await page.goto(`${site.shop.url}/`);
    await page.evaluate(`openCheckout(${JSON.stringify({ checkoutRequest: tampered })})`);
    const checkout = overlayFrame(page);
    await checkout.locator('#checkout-error').waitFor();
    expect(await checkout.locator('h1').textContent()).to.equal('Nieprawidłowy link do płatności');
    expect(await checkout.locator('#error-message').textContent()).to.equal(
      'Ten link do płatności jest nieprawidłowy. Wróć do sklepu.',
    );
    await page.getByRole('dialog', { name: 'Płatność' }).waitFor();
    await checkout.getByRole('button', { name: 'Zamknij', exact: true }).click();
    await page.locator('[data-shift4-overlay]').waitFor({ state: 'detached' });
    await page.close();
  });

  it("payment-method page in German and Polish: the choice, the answered payment's status, a missing payment", async () => {
    const returnUrl = `${site.shop.url}/returned`;
    const germanCharge = await createPaymentMethodCharge(api, { flow: { returnUrl } });
    // The provider's page is in the browser's language: a German browser this time.
    const germanBrowser = await launchBrowser({ locale: 'de-DE' });
    try {
      const page = await germanBrowser.newPage();
      await page.goto(germanCharge.flow.redirect!.redirectUrl);
      expect(await page.locator('h1').textContent()).to.equal('Zahlung mit iDEAL');
      expect(await page.locator('legend').textContent()).to.equal('Wie antwortet iDEAL?');
      await page.getByRole('button', { name: 'Autorisieren' }).click();
      await page.waitForURL(/\/returned\?/);
      await page.goto(germanCharge.flow.redirect!.redirectUrl);
      expect(await page.getByRole('status').textContent()).to.equal(
        'Diese Zahlung von 12,50 EUR an Default account mit iDEAL war erfolgreich.',
      );
      await page.getByRole('link', { name: 'Zurück zum Händler' }).waitFor();
      await page.close();
    } finally {
      await germanBrowser.close();
    }

    const polishCharge = await createPaymentMethodCharge(api, { paymentMethod: { type: 'blik' }, flow: { returnUrl } });
    const polishPage = await polish.newPage();
    await polishPage.goto(polishCharge.flow.redirect!.redirectUrl);
    expect(await polishPage.locator('html').getAttribute('lang')).to.equal('pl');
    await polishPage.getByRole('button', { name: 'Odrzuć' }).click();
    await polishPage.waitForURL(/\/returned\?/);
    await polishPage.goto(polishCharge.flow.redirect!.redirectUrl);
    expect(await polishPage.getByRole('status').textContent()).to.equal(
      'Ta płatność 12,50 EUR dla Default account przez BLIK nie została zrealizowana.',
    );
    await polishPage.screenshot({ path: join(shots, 'payment-method-polish.png') });
    await polishPage.goto(`${service.baseUrl}/payment-redirects/client_char_nothinghere`);
    expect(await polishPage.locator('h1').textContent()).to.equal('Nie znaleziono płatności');
    expect(await polishPage.getByRole('alert').textContent()).to.equal('Pod tym adresem nie ma żadnej płatności.');
    await polishPage.close();
  });
});

describe('payer pages in each of the eight languages in a browser', function () {
  this.timeout(180_000);
  const site = useHostedCheckout({ shop: startShop, locale: 'en-US' });
  const { api, service, keys, sign } = site;

  /** A token of the challenge card whose challenge for 25.00 EUR is open, as verifyThreeDSecure leaves it. */
  const tokenAwaitingChallenge = () => challengeCardToken(site, 'EUR');

  /** The challenge page as Shift4.js frames it (`locale=` when the merchant chose one). */
  const challengeUrl = (token: string, locale?: string) =>
    `${service.baseUrl}/three-d-secure/challenge?${new URLSearchParams({
      token,
      key: keys.testPublicKey,
      origin: site.shop.url,
      ...(locale ? { locale } : {}),
    })}`;

  it("checkout, its card fields and the challenge by the locale option, the provider's page by the browser's language, with amounts as checkout writes them", async () => {
    // One tab of the English browser for the merchant's pages, reloaded for each language as a
    // payer's would be, rather than a new tab each time.
    const page = await site.browser.newPage();
    for (const locale of Object.keys(CATALOGS) as Locale[]) {
      const t = (key: MessageKey, values?: Record<string, string>) => translate(locale, key, values);
      const amount = formatMoney(123456, 'EUR', locale);

      // Checkout with the merchant's locale option: the service's page, its script and the card fields.
      await page.goto(`${site.shop.url}/`);
      await page.evaluate(
        `openCheckout(${JSON.stringify({
          checkoutRequest: sign({ customCharge: { currency: 'EUR', amountOptions: [123456] } }),
          locale,
        })})`,
      );
      const checkout = overlayFrame(page);
      const option = checkout.getByRole('button', { name: amount, exact: true });
      await option.waitFor();
      expect(await checkout.locator('html').getAttribute('lang'), locale).to.equal(locale);
      await option.click();
      expect(await checkout.locator('#pay').textContent(), locale).to.equal(t('payAmount', { amount }));
      const number = cardFieldFrame(checkout, 'number');
      expect(await number.locator('html').getAttribute('lang'), locale).to.equal(locale);
      expect(await number.locator('label').textContent(), locale).to.equal(t('numberLabel'));
      await number.locator('input').pressSequentially('4242 4242 4242 4241');
      expect(await number.locator('#message').textContent(), locale).to.equal(t('numberInvalid'));

      // The issuer's challenge, framed with the locale Shift4.js passes on.
      const challenge = page;
      await challenge.goto(challengeUrl(await tokenAwaitingChallenge(), locale));
      expect(await challenge.locator('html').getAttribute('lang'), locale).to.equal(locale);
      expect(await challenge.locator('h1').textContent(), locale).to.equal(t('confirmPayment'));
      expect(await challenge.locator('main').textContent(), locale).to.include(formatMoney(2500, 'EUR', locale));
      await challenge.locator('button[value=complete]').click();
      expect(await challenge.locator('#code-error').textContent(), locale).to.equal(t('enterCode'));

      // The payment-method provider's page, in the language the browser asks for.
      const charge = await createPaymentMethodCharge(api, { flow: { returnUrl: `${site.shop.url}/returned` } });
      const browser = await launchBrowser({ locale });
      try {
        const provider = await browser.newPage();
        await provider.goto(charge.flow.redirect!.redirectUrl);
        expect(await provider.locator('html').getAttribute('lang'), locale).to.equal(locale);
        expect(await provider.locator('h1').textContent(), locale).to.equal(t('methodPayment', { method: 'iDEAL' }));
        expect(await provider.locator('main').innerText(), locale).to.include(
          t('payAmountToWith', {
            amount: formatMoney(1250, 'EUR', locale),
            merchant: 'Default account',
            method: 'iDEAL',
          }),
        );
      } finally {
        await browser.close();
      }
    }
    await page.close();
  });

  it("a language without a catalog gets English: the card fields, the challenge and the provider's page", async () => {
    const japanese = await launchBrowser({ locale: 'ja-JP' });
    try {
      const card = await japanese.newPage();
      await card.goto(`${site.shop.url}/card`);
      const number = cardFieldFrame(card, 'number');
      await number.locator('input').pressSequentially('4242 4242 4242 4241');
      expect(await number.locator('html').getAttribute('lang')).to.equal('en');
      expect(await number.locator('#message').textContent()).to.equal('Your card number is invalid.');
      await card.close();

      const challenge = await japanese.newPage();
      await challenge.goto(challengeUrl(await tokenAwaitingChallenge()));
      expect(await challenge.locator('html').getAttribute('lang')).to.equal('en');
      expect(await challenge.locator('h1').textContent()).to.equal('Confirm your payment');
      await challenge.close();

      const charge = await createPaymentMethodCharge(api, { flow: { returnUrl: `${site.shop.url}/returned` } });
      const provider = await japanese.newPage();
      await provider.goto(charge.flow.redirect!.redirectUrl);
      expect(await provider.locator('h1').textContent()).to.equal('iDEAL payment');
      expect(await provider.locator('main').innerText()).to.include('Pay 12.50 EUR to Default account with iDEAL');
      await provider.close();
    } finally {
      await japanese.close();
    }
  });
});

/**
 * A merchant's site: `/card` pays with Shift4.js card fields and 3-D Secure (`?locale=` becomes
 * the library's `locale` option), `/` opens the hosted checkout, `/returned` is a payment-method
 * charge's return address.
 */
async function startShop(serviceUrl: () => string, publicKey: () => string): Promise<Shop> {
  const app = express();
  app.get('/card', (req, res) => {
    const locale = typeof req.query.locale === 'string' ? req.query.locale : null;
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body style="font:16px system-ui,sans-serif;margin:24px;max-width:420px"><h1>Demo shop</h1>
<form id="payment-form">
<div data-shift4="number"></div><div data-shift4="expiry"></div><div data-shift4="cvc"></div>
<div data-shift4="cardholderName"></div>
<button id="pay">Pay 10.00 EUR</button><p id="result" role="status"></p>
</form>
<script src="${serviceUrl()}/js/shift4.js"></script>
<script>
const shift4 = Shift4(${JSON.stringify(publicKey())}${locale ? `, { locale: ${JSON.stringify(locale)} }` : ''});
const components = shift4.createComponentGroup().automount('#payment-form');
const result = document.getElementById('result');
document.getElementById('payment-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const token = await shift4.createToken(components);
    await shift4.verifyThreeDSecure({ amount: 1000, currency: 'EUR', card: token.id });
    result.textContent = 'paid';
  } catch (error) {
    result.textContent = error.message;
  }
  result.dataset.status = 'done';
});
</script></body></html>`);
  });
  app.get('/', (_req, res) => {
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body style="font:16px system-ui,sans-serif;margin:24px"><h1>Demo shop</h1><pre id="result" hidden></pre>
<script src="${serviceUrl()}/js/checkout.js"></script>
<script>
Shift4Checkout.key = ${JSON.stringify(publicKey())};
window.openCheckout = (options) => Shift4Checkout.open(options, () => {});
</script></body></html>`);
  });
  app.get('/returned', (_req, res) => {
    res.type('html').send('<!doctype html><html lang="en"><title>Order</title><p>Back at the shop.</p></html>');
  });
  return serveShop(app);
}

/** A token of the challenge card whose challenge for 25.00 is open, as verifyThreeDSecure leaves it. */
async function challengeCardToken(
  site: Pick<HostedCheckoutFixture, 'api' | 'keys'>,
  currency: string,
): Promise<string> {
  const token = await site.api.post<{ id: string }>('/tokens', {
    key: site.keys.testPublicKey,
    json: { number: '4000000000003220', expMonth: 12, expYear: 2040, cvc: '123' },
  });
  expect(token.status, JSON.stringify(token.body)).to.equal(200);
  const verified = await site.api.post(`/tokens/${token.body.id}/three-d-secure`, {
    key: site.keys.testPublicKey,
    json: { amount: 2500, currency },
  });
  expect(verified.status, JSON.stringify(verified.body)).to.equal(200);
  return token.body.id;
}
