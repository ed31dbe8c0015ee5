import { Router } from 'express';
import type { Platform } from '../platform.ts';
import { OperatorAccess, operatorRoutesOff } from './operator-access.ts';
import type { ServiceMetrics } from './service-metrics.ts';
import { addStoreGauges } from './store-gauges.ts';
import { consoleRoutes } from './console/console-routes.ts';

/**
 * The operators' side of the HTTP server (`docs/operations.md`): `GET /metrics` for Prometheus
 * and the console at `/console`, behind `OPERATOR_TOKEN`. Without the setting every operator URL answers 404, as an unknown one.
 */
export function operatorRoutes(platform: Platform, metrics: ServiceMetrics): Router {
  const router = Router();
  const token = platform.config.operatorToken;
  if (token === undefined) {
    router.all(['/metrics', '/console', '/console/*path'], operatorRoutesOff);
    return router;
  }
  const access = new OperatorAccess(token);
  addStoreGauges(metrics.registry, platform);
  router.get('/metrics', access.require(), async (_req, res) => {
    res.set('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  router.use(consoleRoutes(platform, access));
  return router;
}
