import type { RequestHandler } from 'express';
import { requestState } from '../../packages/http/request-state.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/**
 * Times every request and counts it by method, route pattern (never the raw path: ids would make
 * a series per object) and status; a 429 also counts as a rate-limit rejection.
 */
export function requestMetrics(metrics: ServiceMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      // API routes are found by the API's route table, pages by express routers.
      const route =
        requestState(res).routePattern ??
        (req.route ? `${req.baseUrl}${String((req.route as { path: unknown }).path)}` : 'unmatched');
      const labels = { method: req.method, route, status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (res.statusCode === 429) metrics.rateLimitRejections.inc();
    });
    next();
  };
}
