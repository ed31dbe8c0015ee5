import express, { type Request, type Response, type Router } from 'express';
import type { CheckoutPageInput } from '../../../packages/checkout/checkout-view.ts';
import { missingParameter } from '../../../packages/domain/errors.ts';
import { refuseCardNumbersInText } from '../../../packages/http/card-numbers-in-parameters.ts';
import { apiKeyOf } from '../../../packages/http/authenticate.ts';
import { faultPoint } from '../../../packages/config/fault-injection.ts';
import { errorResponse, HttpError } from '../../../packages/http/errors.ts';
import type { IdempotencyStore, StoredResponse } from '../../../packages/http/idempotency.ts';
import { idempotencyKeyOf } from '../../../packages/http/route-handler.ts';
import { newId } from '../../../packages/ids/object-id.ts';
import type { Logger } from '../../../packages/observability/logger.ts';
import { errorPage, pageOrigin, sendPage } from '../client-side/html.ts';
import { payerLocale } from '../client-side/payer-locale.ts';
import { CATALOGS, type Locale } from '../../../packages/client-side/i18n/index.ts';
import { countryNames } from '../schemas/country-codes.ts';
import { purchaseCheckoutOffer } from './checkout-cross-sale.ts';
import { publicBaseUrl, type RequestAddress } from '../public-base-url.ts';
import { withImageAddress } from '../offer-image-address.ts';
import {
  checkoutPaymentStatus,
  checkoutReturnPath,
  payCheckout,
  type CheckoutPaymentDependencies,
  type IdempotentCheckout,
} from './checkout-payment.ts';
import {
  verifyCheckoutRequest,
  type CheckoutVerificationDependencies,
  type VerifiedCheckout,
} from './checkout-verification.ts';
import { confirmRememberedCard, sendRememberedCardCode } from './remembered-card-calls.ts';

export const checkoutPagePath = '/checkout';

export interface CheckoutRouteDependencies extends CheckoutVerificationDependencies, CheckoutPaymentDependencies {
  logger: Logger;
  /** The API's: a payment sent again with its `Idempotency-Key` is made once and answered alike. */
  idempotency: IdempotencyStore;
  /** The page (HTML document) for a verified request, and the page for a refused one. */
  renderPage(input: CheckoutPageInput): string;
  renderError(status: number, error: { type: string; code?: string; message: string }, locale: Locale): string;
}

/** What the merchant's `Shift4Checkout.open` may show, cut to a sensible length. */
const DISPLAY_LIMITS = { name: 100, description: 250, email: 255 } as const;
/** Longest logo URL shown (the whole checkout address must stay a URL browsers take). */
const MAX_IMAGE_URL = 2048;

/**
 * The hosted checkout (docs/checkout.md): `GET /checkout` answers the page for a signed checkout
 * request, and the page's JSON calls (`/checkout/…`, public key in the Authorization header, the
 * signed request in the body, verified again on every call) pay, confirm a remembered card and
 * buy cross-sale offers. Errors of the JSON calls are in the API's envelope.
 */
export function checkoutRoutes(deps: CheckoutRouteDependencies): Router {
  const router = express.Router();
  const json = express.json({ limit: '16kb' });

  router.get(checkoutPagePath, async (req, res) => {
    const ancestorOrigin = req.query.origin === undefined ? null : pageOrigin(req.query.origin);
    try {
      if (req.query.origin !== undefined && ancestorOrigin === null)
        throw new HttpError(400, 'invalid_request', 'Invalid parameter: origin must be the origin of the opening page');
      const verified = await verifyCheckoutRequest(deps, {
        key: req.query.key,
        checkoutRequest: req.query.checkoutRequest,
      });
      const framing = checkoutFraming(verified, ancestorOrigin);
      const locale = payerLocale(req);
      const display = displayOf(req);
      const address = addressOf(req);
      res.set('Content-Security-Policy', pagePolicy(framing.ancestors, display.image));
      sendPage(
        res,
        200,
        deps.renderPage({
          // Offers' images at their absolute address, as the API answers them.
          view: {
            ...verified.view,
            crossSaleOffers: verified.view.crossSaleOffers.map((offer) => withImageAddress(offer, address)),
          },
          display,
          countries: display.billingAddress || display.shippingAddress ? countryNames(locale) : [],
          ancestorOrigin: framing.messageTarget,
          locale,
          messages: CATALOGS[locale],
        }),
      );
    } catch (error) {
      const { status, body } = errorResponse(error, deps.logger);
      // The refusal is shown inside the merchant's overlay, so the page that opened it may frame it:
      // it holds nothing of the account.
      res.set('Content-Security-Policy', pagePolicy(ancestorOrigin === null ? [] : [ancestorOrigin]));
      sendPage(res, status, deps.renderError(status, body.error, payerLocale(req)));
    }
  });

  // The payment-method provider's page sends the payer back here, in the popup Shift4.js opened
  // (which it closes once the charge is decided) or, when popups are blocked, in the whole tab.
  router.get(checkoutReturnPath, (req, res) => {
    res.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    // A plain page in the service's look (the checkout's error page would show it as an error).
    sendPage(res, 200, errorPage(payerLocale(req), 'paymentReturnedTitle', 'paymentReturned'));
  });

  /** A JSON call's body and the signed request it carries, verified with the call's public key. */
  async function verifiedCall(req: Request): Promise<{ verified: VerifiedCheckout; body: Record<string, unknown> }> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body))
      throw new HttpError(400, 'invalid_request', 'Invalid request: the body must be a JSON object');
    if (body.checkoutRequest === undefined) throw missingParameter('checkoutRequest');
    const verified = await verifyCheckoutRequest(deps, { key: apiKeyOf(req), checkoutRequest: body.checkoutRequest });
    // As for every API call: card numbers only in card number fields (this page sends tokens).
    refuseCardNumbersInText(body);
    return { verified, body };
  }

  const call =
    (work: (verified: VerifiedCheckout, body: Record<string, unknown>, requestId: string) => Promise<object>) =>
    async (req: Request, res: Response) => {
      res.set('Cache-Control', 'no-store');
      try {
        const { verified, body } = await verifiedCall(req);
        res.json(await work(verified, body, newId('req')));
      } catch (error) {
        const { status, body } = errorResponse(error, deps.logger);
        res.status(status).json(body);
      }
    };

  // The page sends each payment attempt with an Idempotency-Key, and sends it again (same key and
  // body) when it got no answer: like an API POST, the payment is then made once, and a run cut
  // short by a crash is finished by the retry (the objects it makes have ids derived from it).
  router.post(`${checkoutPagePath}/pay`, json, async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const pay = (verified: VerifiedCheckout, body: Record<string, unknown>, idempotent?: IdempotentCheckout) =>
      payCheckout(
        deps,
        verified,
        body,
        newId('req'),
        {
          baseUrl: publicBaseUrl(addressOf(req)),
        },
        idempotent,
      );
    const answered = (response: StoredResponse) => res.status(response.status).json(response.body);
    try {
      const key = idempotencyKeyOf(req);
      const { verified, body } = await verifiedCall(req);
      if (key === undefined) return answered({ status: 200, body: await pay(verified, body) });
      const { auth } = verified;
      const scope = { accountId: auth.accountId, mode: auth.mode, keyKind: auth.keyKind, key };
      const fingerprint = deps.idempotency.fingerprint(req.method, `${req.baseUrl}${req.path}`, body);
      const idempotent = { key, token: deps.idempotency.requestToken(scope, fingerprint) };
      const { response, replayed } = await deps.idempotency.run(scope, fingerprint, async () => {
        const answer = await pay(verified, body, idempotent).then(
          (paid): StoredResponse => ({ status: 200, body: paid }),
          (error: unknown): StoredResponse => errorResponse(error, deps.logger),
        );
        faultPoint('request.after-projection', { mode: auth.mode, actor: auth.keyId });
        return answer;
      });
      if (replayed) res.set('Idempotent-Replayed', 'true');
      return answered(response);
    } catch (error) {
      return answered(errorResponse(error, deps.logger));
    }
  });
  router.post(
    `${checkoutPagePath}/payment-status`,
    json,
    call((verified, body) => checkoutPaymentStatus(deps, verified, body)),
  );
  router.post(
    `${checkoutPagePath}/cross-sale-purchases`,
    json,
    call((verified, body, requestId) => purchaseCheckoutOffer(deps, verified, body, requestId)),
  );
  router.post(
    `${checkoutPagePath}/remembered-cards/code`,
    json,
    call((verified, body) => sendRememberedCardCode(deps, verified, body)),
  );
  router.post(
    `${checkoutPagePath}/remembered-cards/confirm`,
    json,
    call((verified, body) => confirmRememberedCard(deps, verified, body)),
  );
  return router;
}

function displayOf(req: Request): CheckoutPageInput['display'] {
  const text = (name: keyof typeof DISPLAY_LIMITS): string | null => {
    const value = req.query[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, DISPLAY_LIMITS[name]) : null;
  };
  return {
    name: text('name'),
    description: text('description'),
    email: text('email'),
    image: imageOf(req.query.image),
    billingAddress: req.query.billingAddress === '1',
    shippingAddress: req.query.shippingAddress === '1',
  };
}

/** The merchant's logo when it is an http(s) URL (anything else is not shown). */
function imageOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_IMAGE_URL) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Which pages may frame a verified checkout, and which one its messages go to. With the merchant's
 * sites named (`accounts settings --checkout-origins`) only they may frame it, and the opening
 * page's `origin=` gets messages only when it is one of them. Without them live checkout is
 * refused, and test checkout trusts `origin=` (docs/checkout.md), so that a shop can be tried
 * before an operator names its sites.
 */
function checkoutFraming(
  verified: VerifiedCheckout,
  origin: string | null,
): { ancestors: string[]; messageTarget: string | null } {
  const sites = verified.checkoutOrigins;
  if (sites.length > 0)
    return { ancestors: sites, messageTarget: origin !== null && sites.includes(origin) ? origin : null };
  if (verified.auth.mode === 'live')
    throw new HttpError(
      403,
      'invalid_request',
      "Live checkout is framed only by the merchant's sites, and this account names none: an operator names them with accounts settings --checkout-origins",
    );
  return { ancestors: origin === null ? [] : [origin], messageTarget: origin };
}

/** The address a request came in with, for the links the service hands out. */
function addressOf(req: Request): RequestAddress {
  return { headers: { host: req.get('host') }, protocol: req.protocol === 'https' ? 'https' : 'http' };
}

/**
 * Scripts and frames of the service only; images of the service and the merchant's logo (its URL
 * only); framed only by the merchant's pages (or by nothing, when opened as a page of its own).
 */
function pagePolicy(ancestors: string[], image: string | null = null): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    `img-src 'self' data:${image ? ` ${policySource(image)}` : ''}`,
    "connect-src 'self'",
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors.length > 0 ? ancestors.join(' ') : "'none'"}`,
  ].join('; ');
}

/**
 * A URL as a CSP source: its origin and path (so that only that image may load; a source has no
 * query), with the characters a policy gives meaning to (`;`, `,`) percent-encoded.
 */
function policySource(image: string): string {
  const url = new URL(image);
  return `${url.origin}${url.pathname}`.replace(
    /[;,\s'"]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
