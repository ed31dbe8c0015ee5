import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { signCheckoutRequest } from '../../packages/checkout/sign-checkout-request.ts';
import { cardPaymentPage, checkoutPaidPage, checkoutShopPage, paymentMethodPage, returnPage } from './pages.ts';

/**
 * A demo merchant: its own web server (another origin than the payments service) with a card
 * payment page (card fields + 3-D Secure), a payment-method page and a hosted checkout page. The
 * pages hand the service's token or the payer's choice to this server, which charges with the
 * secret key, as a real merchant's backend would; for checkout it signs the request. Card data
 * never reaches it.
 */
export interface MerchantOptions {
  /** The payments service, as browsers reach it: `http://127.0.0.1:3000`. */
  serviceUrl: string;
  secretKey: string;
  publicKey: string;
  port?: number;
  host?: string;
}

export interface MerchantServer {
  url: string;
  close(): Promise<void>;
}

interface ServiceCharge {
  id: string;
  status: string;
  clientObjectId?: string;
  threeDSecureInfo?: unknown;
  failureCode?: string;
  failureMessage?: string;
  error?: { code?: string; message: string; chargeId?: string };
}

export async function startMerchantServer(options: MerchantOptions): Promise<MerchantServer> {
  const app = express();
  app.disable('x-powered-by');
  const page = { serviceUrl: options.serviceUrl, publicKey: options.publicKey };

  async function createCharge(body: Record<string, unknown>): Promise<ServiceCharge> {
    const response = await fetch(new URL('/charges', options.serviceUrl), {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${options.secretKey}:`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return (await response.json()) as ServiceCharge;
  }

  app.get('/', (_req, res) => {
    res.type('html').send(cardPaymentPage(page));
  });
  app.get('/payment-method', (_req, res) => {
    res.type('html').send(paymentMethodPage(page));
  });
  app.get('/payment-method/return', (_req, res) => {
    res.type('html').send(returnPage(page));
  });
  // The hosted checkout: the request is signed here, with the secret key, never in the page.
  app.get('/checkout', (_req, res) => {
    const checkoutRequest = signCheckoutRequest(
      { charge: { amount: 1000, currency: 'EUR' }, rememberMe: true, threeDSecure: { enable: true } },
      options.secretKey,
    );
    res.type('html').send(checkoutShopPage({ ...page, checkoutRequest }));
  });
  app.post('/checkout/paid', express.urlencoded({ extended: false, limit: '2kb' }), (req, res) => {
    res.type('html').send(checkoutPaidPage(req.body as Record<string, unknown>));
  });

  // The page sends the token id only; amount and currency are the shop's, not the page's.
  app.post('/api/card-charges', express.json({ limit: '2kb' }), async (req, res) => {
    const tokenId = (req.body as { tokenId?: unknown }).tokenId;
    if (typeof tokenId !== 'string' || !tokenId.startsWith('tok_')) {
      res.status(400).json({ message: 'tokenId is required' });
      return;
    }
    const charge = await createCharge({ amount: 1000, currency: 'EUR', card: tokenId });
    if (charge.error) {
      res.json({
        id: charge.error.chargeId ?? null,
        status: 'failed',
        failureCode: charge.error.code ?? null,
        failureMessage: charge.error.message,
      });
      return;
    }
    res.json({ id: charge.id, status: charge.status, threeDSecureInfo: charge.threeDSecureInfo ?? null });
  });

  app.post('/api/payment-method-charges', express.json({ limit: '2kb' }), async (req, res) => {
    const type = (req.body as { type?: unknown }).type;
    if (typeof type !== 'string') {
      res.status(400).json({ message: 'type is required' });
      return;
    }
    const returnUrl = new URL('/payment-method/return', `${req.protocol}://${req.get('host')}`).toString();
    const charge = await createCharge({ amount: 2500, currency: 'EUR', paymentMethod: { type }, flow: { returnUrl } });
    if (charge.error) {
      res.status(400).json({ message: charge.error.message });
      return;
    }
    res.json({ clientObjectId: charge.clientObjectId });
  });

  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
