import type { Express } from 'express';
import type { Logger } from 'winston';
import { createApp } from '../../packages/http/create-app.ts';
import { IdempotencyStore } from '../../packages/http/idempotency.ts';
import { sealedResponses } from '../../packages/http/sealed-idempotency-records.ts';
import { createRateLimiter } from '../../packages/http/rate-limit.ts';
import type { Platform } from '../platform.ts';
import { apiKeyAuthenticator } from './authenticator.ts';
import { offerImageHandler, offerImagePath } from './offer-image-handler.ts';
import { ObjectReader } from './object-reader.ts';
import { browserApiCors, clientSideRoutes } from './client-side/client-side-routes.ts';
import { checkoutErrorPage, checkoutPage } from './checkout/checkout-document.ts';
import { checkoutPagePath, checkoutRoutes } from './checkout/checkout-routes.ts';
import { checkoutSecretKeys } from './checkout/checkout-secret-keys.ts';
import { CheckoutSessions } from './checkout/checkout-sessions.ts';
import { RememberedPayers } from './checkout/remembered-payers.ts';
import { paymentRedirectPage, paymentRedirectPath } from './payment-redirect-page.ts';
import { processorEventsPage } from './processor-events-page.ts';
import { ObjectStreams } from './object-streams.ts';
import { objectResources } from '../resources/registries.ts';
import { buildOpenApi } from './openapi-document.ts';
import { apiRoutes } from './routes/index.ts';
import { operatorRoutes } from '../operator/operator-routes.ts';
import { requestMetrics } from '../operator/request-metrics.ts';

/** The API role's HTTP application, composed from the platform. */
export function buildApi(platform: Platform, logger: Logger): Express {
  const { config } = platform;
  const streams = new ObjectStreams(platform.events, platform.readModels, objectResources);
  const reader = new ObjectReader(platform.readModels, config.readYourWritesTimeoutMs, streams, () =>
    platform.events.headPosition(),
  );
  // A key issued a moment ago by another process is looked for again once this process has caught up.
  const authenticate = apiKeyAuthenticator(platform.readModels, {
    logHead: () => platform.events.headPosition(),
    timeoutMs: config.readYourWritesTimeoutMs,
  });
  const idempotency = new IdempotencyStore(
    sealedResponses(platform.stateStore.collection('idempotency'), platform.vault.derivedKey('idempotency-responses')),
    {
      ttlMs: config.idempotencyTtlHours * 3_600_000,
      fingerprintKey: platform.fingerprinter.derivedKey('idempotency'),
    },
  );
  return createApp({
    routes: apiRoutes({ commands: platform.commands, reader, streams }),
    authenticate,
    idempotency,
    rateLimiter: createRateLimiter({ ...config.rateLimit, ...(platform.redis ? { redis: platform.redis } : {}) }),
    logger,
    maxBodyBytes: config.maxBodyBytes,
    health: {
      async ready() {
        await platform.readStore.getCheckpoint('readiness');
        // Not ready while the read models are still applying the log's tail after a start.
        return reader.readsCaughtUp();
      },
    },
    openApiDocument: buildOpenApi,
    ...(config.trustProxy !== undefined ? { trustProxy: config.trustProxy } : {}),
    // Offer images are PNG, not JSON, and need no API key.
    unauthenticatedRoutes: [{ path: offerImagePath, handler: offerImageHandler(platform.commands.offerImages) }],
    // The payment-method provider's page is HTML for the payer's browser, without an API key.
    // Every request is timed and counted for the operators' metrics.
    observers: [requestMetrics(platform.metrics), browserApiCors()],
    pages: [
      // Operator pages take the operator token, not API keys.
      { pathPrefix: ['/metrics', '/console'], handler: operatorRoutes(platform, platform.metrics) },
      // The browser side (Shift4.js, card fields, 3-D Secure challenge) needs no API key either.
      {
        pathPrefix: ['/js', '/three-d-secure', '/shift4.js', '/checkout.js', '/v1/shift4.js', '/v2/securionpay.js'],
        handler: clientSideRoutes({ commands: platform.commands, reader, streams, authenticate, logger }),
      },
      { pathPrefix: paymentRedirectPath(''), handler: paymentRedirectPage(platform, logger) },
      // Live processors' notifications: verified with the processor, not an API key.
      {
        pathPrefix: '/processor-events',
        handler: processorEventsPage(
          {
            commands: platform.commands,
            readModels: platform.readModels,
            maxBodyBytes: config.maxBodyBytes,
            readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
          },
          logger,
        ),
      },
      // The hosted checkout page and its calls: public key and a signed request, verified on each.
      {
        pathPrefix: checkoutPagePath,
        handler: checkoutRoutes({
          authenticate,
          idempotency,
          secretKey: checkoutSecretKeys(platform.events, platform.vault),
          reader,
          readModels: platform.readModels,
          commands: platform.commands,
          offersAvailableTo: (accountId, mode, offerIds) =>
            platform.commands.crossSaleOfferVisibility.availableTo(accountId, mode, offerIds),
          sessions: new CheckoutSessions(platform.stateStore.collection('checkout_sessions')),
          rememberedPayers: new RememberedPayers(
            platform.stateStore.collection('checkout_remembered_payers'),
            platform.stateStore.collection('checkout_confirmation_uses'),
            platform.vault.derivedKey('checkout-remembered-payers'),
          ),
          logger,
          renderPage: checkoutPage,
          renderError: checkoutErrorPage,
        }),
      },
    ],
    strictResponses: config.strictResponses,
  });
}
