import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import { missingParameter } from '../../../packages/domain/errors.ts';
import { challengeOpen } from '../../../packages/domain/token/three-d-secure-challenge.ts';
import { KeyNotKnownYet, type Authenticate } from '../../../packages/http/authenticate.ts';
import { errorResponse, HttpError } from '../../../packages/http/errors.ts';
import type { AuthContext } from '../../../packages/http/route.ts';
import { newId } from '../../../packages/ids/object-id.ts';
import type { Logger } from '../../../packages/observability/logger.ts';
import { tokensCollection } from '../../../projections/tokens-projection.ts';
import type { ApiDependencies } from '../api-dependencies.ts';
import { challengePage } from './challenge-page.ts';
import { ClientBundles, type BundleName } from './client-bundles.ts';
import { chooseEncoding } from './compressed-body.ts';
import { FIELD_NAMES, fieldPage, type FieldPageName } from './field-page.ts';
import { errorPage, pageOrigin, sendPage } from './html.ts';
import { payerLocale } from './payer-locale.ts';

export interface ClientSideDependencies extends ApiDependencies {
  authenticate: Authenticate;
  logger: Logger;
}

/** API paths a merchant's page calls with the public key from its own origin. */
const BROWSER_API_PATHS = [/^\/tokens$/, /^\/tokens\/[^/]+\/three-d-secure$/, /^\/client-objects\/[^/]+$/];

/** Scripts change with the service's version; a short cache and the ETag keep pages current. */
const SCRIPT_CACHE_CONTROL = 'public, max-age=300';

/**
 * What browsers load from the service: the Shift4.js library (`/js/shift4.js`), SecurionPay's
 * (`/js/securionpay.js`), the checkout
 * library (`/js/checkout.js`) and the checkout page's script, the card field frames (`/js/fields/…`), the issuer's 3-D Secure challenge page (`/three-d-secure/challenge`),
 * and CORS for the API calls the library makes from merchants' pages. Served without an API key.
 */
export function clientSideRoutes(deps: ClientSideDependencies): Router {
  const bundles = new ClientBundles();
  const router = express.Router();

  router.get('/js/shift4.js', script(bundles, 'shift4'));
  // SecurionPay's library, both generations in one (`SecurionPay(pk)` and `SecurionPay.setPublicKey`).
  router.get('/js/securionpay.js', script(bundles, 'securionpay'));
  // The paths the public libraries are loaded from on their own hosts: a page that changes only
  // the host of its script URLs loads the same scripts.
  router.get(['/shift4.js', '/v1/shift4.js'], script(bundles, 'shift4'));
  router.get('/v2/securionpay.js', script(bundles, 'securionpay'));
  router.get('/checkout.js', script(bundles, 'checkout'));
  router.get('/js/fields/fields.js', script(bundles, 'field'));
  router.get('/js/three-d-secure/challenge.js', script(bundles, 'challenge'));
  router.get('/js/checkout.js', script(bundles, 'checkout'));
  router.get('/js/checkout/checkout-page.js', script(bundles, 'checkoutPage'));
  // For merchants' Node servers: `import { signCheckoutRequest } from './sign-checkout-request.mjs'`.
  router.get('/js/sign-checkout-request.mjs', script(bundles, 'signCheckoutRequest'));

  router.get('/js/fields/field.html', (req, res) => {
    const field = req.query.field;
    const origin = pageOrigin(req.query.origin);
    const ancestor = ancestorOf(req.query.ancestor);
    const valid =
      ancestor !== undefined &&
      typeof field === 'string' &&
      (FIELD_NAMES as readonly string[]).includes(field) &&
      origin !== null &&
      typeof req.query.group === 'string' &&
      // Random letters a–p (`packages/client-side/random-key.ts`); hexadecimal from scripts loaded before them.
      /^[0-9a-p]{8,64}$/.test(req.query.group) &&
      typeof req.query.key === 'string' &&
      /^pk_(test|live)_\w+$/.test(req.query.key);
    if (!valid) {
      sendPage(res, 400, errorPage(payerLocale(req), 'fieldUnavailableTitle', 'fieldUnavailable'));
      return;
    }
    // Only the page that will talk to the field may frame it.
    res.set('Content-Security-Policy', framedBy(origin, ancestor));
    sendPage(res, 200, fieldPage(field as FieldPageName, payerLocale(req)));
  });

  router.get('/three-d-secure/challenge', async (req, res) => {
    const origin = pageOrigin(req.query.origin);
    const ancestor = ancestorOf(req.query.ancestor);
    const { token: tokenId, key } = req.query;
    if (typeof tokenId !== 'string' || typeof key !== 'string' || origin === null || ancestor === undefined) {
      sendPage(res, 400, errorPage(payerLocale(req), 'challengeUnavailableTitle', 'challengeUnavailable'));
      return;
    }
    const auth = await Promise.resolve(deps.authenticate(key)).catch(retryLater);
    if (auth instanceof HttpError) {
      sendRetryLaterPage(req, res, auth);
      return;
    }
    if (!auth) {
      sendPage(res, 401, errorPage(payerLocale(req), 'challengeUnavailableTitle', 'challengeUnavailable'));
      return;
    }
    const token = await deps.reader.get(tokensCollection, tokenId, auth).catch((error: unknown) => {
      // Not shown yet is not "nothing to authenticate": the payer may try again in a moment.
      if (error instanceof HttpError && error.status === 503) return error;
      return null;
    });
    if (token instanceof HttpError) {
      sendRetryLaterPage(req, res, token);
      return;
    }
    const info = token?.threeDSecureInfo ?? null;
    if (!token || !challengeOpen(info) || token.used) {
      sendPage(res, 409, errorPage(payerLocale(req), 'nothingToAuthenticateTitle', 'nothingToAuthenticate'));
      return;
    }
    res.set('Content-Security-Policy', framedBy(origin, ancestor));
    sendPage(
      res,
      200,
      challengePage({ brand: token.brand, last4: token.last4, threeDSecureInfo: info }, payerLocale(req)),
    );
  });

  router.post('/three-d-secure/challenge', express.json({ limit: '4kb' }), async (req, res) => {
    try {
      const answer = challengeAnswer.safeParse(req.body);
      if (!answer.success)
        throw new HttpError(400, 'invalid_request', 'Invalid answer: needs token, key, outcome and a 6-digit code');
      const { token: tokenId, key, outcome } = answer.data;
      if (outcome === 'complete' && answer.data.code === undefined) throw missingParameter('code');
      const auth = await deps.authenticate(key);
      if (!auth) throw new HttpError(401, 'invalid_request', 'Invalid API key');
      const context = contextOf(auth);
      const completed = await deps.commands.tokens.completeThreeDSecureChallenge(
        tokenId,
        outcome === 'complete',
        context,
      );
      res.json(await deps.reader.getAfter(completed.position, tokensCollection, tokenId, auth));
    } catch (error) {
      const { status, body } = errorResponse(error, deps.logger);
      res.status(status).json(body);
    }
  });

  return router;
}

/** The key cannot be told yet (`KeyNotKnownYet`): answered as such; any other failure is thrown on. */
function retryLater(error: unknown): KeyNotKnownYet {
  if (error instanceof KeyNotKnownYet) return error;
  throw error;
}

/**
 * The service is catching up with its log: the payer's page with the 503 and its Retry-After, not
 * the API's JSON error. It says to wait, not to go back, and loads itself again once the
 * Retry-After has passed: the challenge then shows as soon as the service can show it.
 */
function sendRetryLaterPage(req: Request, res: Response, error: HttpError): void {
  res.set(error.headers);
  const retryAfter = Number(error.headers['Retry-After']) || 1;
  sendPage(
    res,
    error.status,
    errorPage(payerLocale(req), 'challengeNotReadyTitle', 'challengeNotReady', Math.min(Math.max(retryAfter, 1), 10)),
  );
}

const challengeAnswer = z.object({
  token: z.string().min(1).max(255),
  key: z.string().min(1).max(255),
  outcome: z.enum(['complete', 'fail']),
  code: z
    .string()
    .regex(/^\d{6}$/)
    .optional(),
});

function contextOf(auth: AuthContext) {
  return {
    accountId: auth.accountId,
    mode: auth.mode,
    actor: auth.keyId,
    requestId: newId('req'),
    now: () => new Date(),
  };
}

/**
 * `ancestor=`: the page framing the page that frames this one (a merchant's page around the hosted
 * checkout); `frame-ancestors` checks every ancestor, so both origins are named. Absent: null;
 * present but not an origin: undefined (a bad request).
 */
function ancestorOf(value: unknown): string | null | undefined {
  if (value === undefined) return null;
  return pageOrigin(value) ?? undefined;
}

function framedBy(origin: string, ancestor: string | null): string {
  const ancestors = ancestor && ancestor !== origin ? `${origin} ${ancestor}` : origin;
  return `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors ${ancestors}`;
}

function script(bundles: ClientBundles, name: BundleName): RequestHandler {
  return async (req: Request, res: Response) => {
    const bundle = await bundles.get(name);
    const encoding = chooseEncoding(req, bundle.bodies.identity.length);
    const etag = bundle.etags[encoding];
    res.vary('Accept-Encoding');
    res.set({
      'Content-Type': 'application/javascript; charset=utf-8',
      'Cache-Control': SCRIPT_CACHE_CONTROL,
      ETag: etag,
      'Access-Control-Allow-Origin': '*',
    });
    if (
      req
        .get('if-none-match')
        ?.split(/\s*,\s*/)
        .includes(etag)
    ) {
      res.status(304).end();
      return;
    }
    if (encoding !== 'identity') res.set('Content-Encoding', encoding);
    res.send(bundle.bodies[encoding]);
  };
}

/**
 * Public-key calls from merchants' pages: any origin, the Authorization header, no cookies. Runs
 * for every request, before authentication, so that a browser's preflight gets its answer.
 */
export function browserApiCors(): RequestHandler {
  return (req, res, next) => {
    if (!BROWSER_API_PATHS.some((pattern) => pattern.test(req.path))) {
      next();
      return;
    }
    res.set({ 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'X-Request-Id' });
    if (req.method === 'OPTIONS') {
      res
        .status(204)
        .set({
          'Access-Control-Allow-Methods': 'GET, POST',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key',
          'Access-Control-Max-Age': '600',
        })
        .end();
      return;
    }
    next();
  };
}
