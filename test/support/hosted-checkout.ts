import express, { type Express } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { launchBrowser, screenshotDir, type HeadlessBrowser } from './browser.ts';
import type { Charge } from './payments.ts';
import { useService, type ServiceFixture } from './use-service.ts';

export const FUTURE_EXPIRY = `12${String((new Date().getUTCFullYear() + 3) % 100)}`;

/** The card numbers the hosted checkout's browser tests type; none may reach the service's logs. */
export const TYPED_CARD_NUMBERS = [
  '4242424242424242',
  '4000000000003220',
  '4000000000003238',
  '4000000000000002',
  '5555555555554444',
];

export interface CheckoutResult {
  charge?: Charge;
  subscription?: { id: string; planId: string; customerId: string; status: string };
  customer: { id: string; email: string | null; defaultCardId?: string | null };
}

export interface Shop {
  url: string;
  close(): Promise<void>;
}

export interface HostedCheckoutFixture extends ServiceFixture {
  /** The headless Chromium of the describe block. */
  readonly browser: HeadlessBrowser;
  /** The merchant's site (startShop), on its own origin. */
  readonly shop: Shop;
  /** Where the tests' screenshots go (screenshotDir). */
  readonly shots: string;
  /** A checkout request signed with the default account's test secret key. */
  sign(request: object): string;
  /** The merchant's page with checkout opened for `request` (a signed one when a string). */
  openCheckout(
    request: object | string,
    options?: { name?: string; description?: string; email?: string; width?: number },
  ): Promise<{ page: Page; checkout: FrameLocator }>;
  /** The input of one card field (number, expiry, cvc), each in a frame of its own inside checkout. */
  fieldOf: typeof cardField;
  /** Types a card as a payer does: the number, Tab, the expiry, Tab, the CVC. */
  typeCard: typeof typeCard;
  /** What the merchant's success callback received. */
  callbackResult(page: Page): Promise<CheckoutResult>;
  /** Resolves once checkout shows its success step. */
  successShown(checkout: FrameLocator): Promise<void>;
}

/** A merchant's site of a describe block, given the service's address and its test public key. */
export type ShopStarter = (serviceUrl: () => string, publicKey: () => string) => Promise<Shop>;

/**
 * The hosted checkout in headless Chromium, for the tests of a describe block: the service
 * (useService), a merchant's page on its own origin that loads `/js/checkout.js` and opens checkout
 * with a signed request (`startShop`, or the block's own site), and a browser (in the language
 * `locale` when given); with what a payer does in checkout. Call it in the describe body, as useService.
 */
export function useHostedCheckout(options: { shop?: ShopStarter; locale?: string } = {}): HostedCheckoutFixture {
  const fixture = useService();
  const { service, keys } = fixture;
  let browser: HeadlessBrowser | undefined;
  let shop: Shop | undefined;
  const shots = screenshotDir();

  before('start the shop and the browser', async () => {
    shop = await (options.shop ?? startShop)(
      () => service.baseUrl,
      () => keys.testPublicKey,
    );
    browser = await launchBrowser(options.locale ? { locale: options.locale } : {});
  });

  after('close the browser and the shop', async () => {
    await browser?.close();
    await shop?.close();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value) return value;
    throw new Error(`useHostedCheckout(): the ${what} starts in a before hook; use it inside tests and hooks`);
  };
  const sign = (request: object) => signCheckoutRequest(request, keys.testSecretKey);

  return {
    ...fixture,
    get browser() {
      return started(browser, 'browser');
    },
    get shop() {
      return started(shop, 'shop');
    },
    shots,
    sign,
    async openCheckout(request, options = {}) {
      const page = await started(browser, 'browser').newPage();
      recordTroubles(page);
      if (options.width) await page.setViewportSize({ width: options.width, height: 760 });
      await page.goto(`${started(shop, 'shop').url}/`);
      const signed = typeof request === 'string' ? request : sign(request);
      const { name, description, email } = options;
      await page.evaluate(`openCheckout(${JSON.stringify({ checkoutRequest: signed, name, description, email })})`);
      return { page, checkout: overlayFrame(page) };
    },
    fieldOf: cardField,
    typeCard,
    async callbackResult(page) {
      const result = page.locator('#result[data-status=success]');
      await result.waitFor({ state: 'attached' }).catch(async (error: Error) => {
        const { refused, errors } = troubles.get(page) ?? { refused: [], errors: [] };
        throw new Error(
          `${error.message}\ncheckout shows: ${await whatCheckoutShows(page)}\nanswers other than 2xx/3xx: ${refused.join('\n') || 'none'}\nerrors in the page's console: ${errors.join('\n') || 'none'}`,
        );
      });
      return JSON.parse((await result.textContent()) ?? '{}') as CheckoutResult;
    },
    async successShown(checkout) {
      await checkout.locator('#success-step').waitFor({ state: 'visible' });
    },
  };
}

/**
 * Each page's answers other than 2xx and 3xx (method, path, status, the body's start) and the
 * errors its frames wrote to the console or threw, for a test that waited in vain.
 */
const troubles = new WeakMap<Page, { refused: string[]; errors: string[] }>();

function recordTroubles(page: Page): void {
  const refused: string[] = [];
  const errors: string[] = [];
  troubles.set(page, { refused, errors });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text().slice(0, 500));
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${String(error.stack ?? error).slice(0, 500)}`));
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const { pathname } = new URL(response.url());
    void response
      .text()
      .catch(() => '')
      .then((body) =>
        refused.push(`${response.request().method()} ${pathname} ${response.status()} ${body.slice(0, 300)}`),
      );
  });
}

/** The messages checkout shows the payer (errors, payment status), for a test that waited in vain for its success. */
async function whatCheckoutShows(page: Page): Promise<string> {
  const checkout = overlayFrame(page);
  const messages = await Promise.all(
    ['#form-error', '#card-error', '#pay-status', '#code-error'].map(async (selector) => {
      const text = await checkout
        .locator(selector)
        .textContent({ timeout: 1000 })
        .catch(() => null);
      return `${selector}: ${JSON.stringify(text)}`;
    }),
  );
  return messages.join(', ');
}

/**
 * The frame in shift4.js's overlay on a page or inside checkout: checkout itself, opened by
 * `openCheckout()` on the shop's page, or a 3-D Secure challenge.
 */
export const overlayFrame = (scope: Page | FrameLocator): FrameLocator =>
  scope.frameLocator('[data-shift4-overlay] iframe');

/** The frame of one card field (number, expiry, cvc, cardholderName) on a page or inside checkout. */
export const cardFieldFrame = (scope: Page | FrameLocator, name: string): FrameLocator =>
  scope.frameLocator(`[data-shift4="${name}"] iframe`);

/** The input of one card field, in its frame. */
export const cardField = (scope: Page | FrameLocator, name: string): Locator =>
  cardFieldFrame(scope, name).locator('input');

/**
 * Ticks a checkbox as a payer at the keyboard does (focus, Space). A click aims at where the box
 * stood when it was found: once in many CI runs it left Remember me unticked (something above it
 * moved in between; what, was not found).
 */
export async function tick(box: Locator): Promise<void> {
  await box.press('Space');
  if (!(await box.isChecked())) throw new Error('Space did not tick the checkbox');
}

/** Types a card as a payer does into the card fields of `scope`: the number, Tab, the expiry, Tab, the CVC. */
export async function typeCard(page: Page, scope: Page | FrameLocator, number: string): Promise<void> {
  await cardField(scope, 'number').click();
  await page.keyboard.type(number);
  await page.keyboard.press('Tab');
  await page.keyboard.type(FUTURE_EXPIRY);
  await page.keyboard.press('Tab');
  await page.keyboard.type('123');
}

/**
 * The merchant: its own origin, a page that opens checkout from a button and writes what the
 * callbacks received into `#result`, and a page with the button integration in an order form.
 */
export async function startShop(serviceUrl: () => string, publicKey: () => string, host = '127.0.0.1'): Promise<Shop> {
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
  return serveShop(app, host);
}

/** Serves a merchant's site on its own origin (a free port of `host`). */
export async function serveShop(app: Express, host = '127.0.0.1'): Promise<Shop> {
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    // Chromium keeps connections open (some it opened ahead, with no request yet) that close()
    // alone would wait on for a minute or more.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
