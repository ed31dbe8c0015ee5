import express, { type Express } from 'express';
import type { Logger } from 'winston';
import { createApp } from '../../packages/http/create-app.ts';
import { IdempotencyStore } from '../../packages/http/idempotency.ts';
import { createRateLimiter } from '../../packages/http/rate-limit.ts';
import type { Platform } from '../platform.ts';
import { apiKeyAuthenticator } from './authenticator.ts';
import { offerImageHandler, offerImagePath } from './offer-image-handler.ts';
import { ObjectReader } from './object-reader.ts';
import { ObjectStreams } from './object-streams.ts';
import { buildOpenApi } from './openapi-document.ts';
import { apiRoutes } from './routes/index.ts';
import { operatorRoutes } from '../operator/operator-routes.ts';
import { requestMetrics } from '../operator/request-metrics.ts';
import { serviceMetrics } from '../operator/service-metrics.ts';

/** The API role's HTTP application, composed from the platform. */
export function buildApi(platform: Platform, logger: Logger): Express {
  const { config } = platform;
  const streams = new ObjectStreams(platform.events, platform.readModels);
  const reader = new ObjectReader(platform.readModels, config.readYourWritesTimeoutMs, streams);
  const api = createApp({
    routes: apiRoutes({ commands: platform.commands, reader, streams }),
    authenticate: apiKeyAuthenticator(platform.readModels),
    idempotency: new IdempotencyStore(platform.stateStore.collection('idempotency'), {
      ttlMs: config.idempotencyTtlHours * 3_600_000,
      fingerprintKey: platform.fingerprinter.derivedKey('idempotency'),
    }),
    rateLimiter: createRateLimiter({ ...config.rateLimit, ...(platform.redis ? { redis: platform.redis } : {}) }),
    logger,
    maxBodyBytes: config.maxBodyBytes,
    health: {
      async ready() {
        await platform.events.headPosition();
        await platform.readStore.getCheckpoint('readiness');
        return true;
      },
    },
    openApiDocument: buildOpenApi,
    strictResponses: config.strictResponses,
  });
  // Offer images are PNG, not JSON, and need no API key: served in front of the API's HTTP kit.
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(requestMetrics(serviceMetrics));
  // Operator pages take the operator token, not API keys: in front of the API's HTTP kit.
  app.use(operatorRoutes(platform, serviceMetrics));
  app.get(offerImagePath, offerImageHandler(platform.commands.offerImages));
  app.use(api);
  return app;
}
