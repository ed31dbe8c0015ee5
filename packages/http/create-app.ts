import express, {
  Router,
  type ErrorRequestHandler,
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { Logger } from '../observability/logger.ts';
import { accessLog } from './access-log.ts';
import { identifyCaller, requireApiKey, type Authenticate } from './authenticate.ts';
import { errorResponse, HttpError } from './errors.ts';
import { parseFormEncoded } from './form-encoding.ts';
import type { IdempotencyStore } from './idempotency.ts';
import { rateLimit, type RateLimiter } from './rate-limit.ts';
import { parseMultipartBody } from './multipart-body.ts';
import { parseRequestBody } from './request-body.ts';
import { requireHttpsForLiveMode } from './require-https.ts';
import { assignRequestId } from './request-id.ts';
import type { AnyRouteDefinition } from './route.ts';
import { routeHandler, send } from './route-handler.ts';

export interface AppOptions {
  routes: readonly AnyRouteDefinition[];
  /** Finds the caller of an API key; null for an unknown key. */
  authenticate: Authenticate;
  idempotency: IdempotencyStore;
  rateLimiter: RateLimiter;
  logger: Logger;
  maxBodyBytes: number;
  health: { ready(): Promise<boolean> };
  openApiDocument: () => object;
  /** Express 'trust proxy' setting, for the client IP behind a load balancer; default off. */
  trustProxy?: boolean | number | string;
  /**
   * GET routes served without an API key and not as JSON (offer images). They still get a request
   * id, the access log, the per-IP rate limit and the error envelope, like every other route.
   */
  unauthenticatedRoutes?: readonly { path: string; handler: RequestHandler }[];
  /** Middleware that sees every request first (after its request id), e.g. request metrics. */
  observers?: readonly RequestHandler[];
  /**
   * Pages without an API key (the payer's browser, the operators' console; HTML, any method),
   * mounted like the unauthenticated routes: behind the per-IP rate limit below their prefixes,
   * with request ids and the access log.
   */
  pages?: readonly { pathPrefix: string | string[]; handler: RequestHandler }[];
  /** Answers that stray from their route's response schema become 500s (tests, development). */
  strictResponses?: boolean;
}

/**
 * The API's HTTP application. Per request, in order: request id and log context, access log;
 * then for /health, /ready, /openapi.json and the unauthenticated routes a per-IP rate limit,
 * for everything else caller identification, rate limit (per key, or per IP without one), API key
 * required, HTTPS required (live mode), body decoding, the route; anything unmatched is a 404, anything failing the envelope.
 */
export function createApp(options: AppOptions): Express {
  const { logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', (text: string) => parseFormEncoded(text, 'query string'));
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);

  app.use(assignRequestId(), accessLog(logger), ...(options.observers ?? []));

  const perIp = rateLimit(options.rateLimiter, 'unauthenticated');
  app.get('/health', perIp, (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', perIp, async (_req, res) => {
    const ready = await options.health.ready().catch((error: unknown) => {
      logger.warn('Readiness check failed', { error });
      return false;
    });
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready' });
  });
  app.get('/openapi.json', perIp, (_req, res) => {
    res.json(options.openApiDocument());
  });
  for (const route of options.unauthenticatedRoutes ?? []) app.get(route.path, perIp, route.handler);
  for (const page of options.pages ?? []) app.use(underPrefix(page.pathPrefix, [perIp, page.handler]));

  app.use(
    identifyCaller(options.authenticate),
    rateLimit(options.rateLimiter),
    requireApiKey(),
    requireHttpsForLiveMode(),
  );
  // Uploads read their multipart body themselves, so they come before the JSON / form body decoder.
  app.use(
    routesByFirstSegment(
      options.routes.filter((candidate) => candidate.upload),
      (router, route) =>
        router[route.method](route.path, parseMultipartBody(route.upload!), routeHandler(route, options)),
    ),
  );
  app.use(parseRequestBody(options.maxBodyBytes));
  app.use(
    routesByFirstSegment(
      options.routes.filter((candidate) => !candidate.upload),
      (router, route) => router[route.method](route.path, routeHandler(route, options)),
    ),
  );

  app.use((_req, _res, next) => {
    next(new HttpError(404, 'invalid_request', 'Unrecognized request URL: check the method and the path'));
  });
  app.use(errorEnvelope(logger));
  return app;
}

/**
 * The routes, found by the first segment of the request's path (`/customers/…`: the customers'
 * routes, in their order) instead of trying every route of the API in turn. Paths and matching
 * are express's own: each group is a router used without a mount path, so requests keep their full
 * path. Matching ignores case, as express does by default.
 */
function routesByFirstSegment(
  routes: readonly AnyRouteDefinition[],
  mount: (router: Router, route: AnyRouteDefinition) => void,
): RequestHandler {
  const routers = new Map<string, Router>();
  for (const route of routes) {
    const segment = firstSegment(route.path);
    if (/[^a-z0-9_-]/.test(segment))
      throw new Error(`Route ${route.path} must begin with a literal lower-case segment`);
    let router = routers.get(segment);
    if (!router) {
      router = Router();
      routers.set(segment, router);
    }
    mount(router, route);
  }
  return (req, res, next) => {
    // No route answers OPTIONS; a router would answer it with the methods it knows, the API with a 404.
    const router = req.method === 'OPTIONS' ? undefined : routers.get(firstSegment(req.path).toLowerCase());
    if (router) router(req, res, next);
    else next();
  };
}

/**
 * Handlers for the requests below a page's prefixes only, with their full paths kept; every other
 * request (every API request) passes by with one string comparison per prefix instead of walking
 * the page's router.
 */
function underPrefix(prefix: string | string[], handlers: RequestHandler[]): RequestHandler {
  const prefixes = (Array.isArray(prefix) ? prefix : [prefix]).map((given) => given.replace(/\/$/, '').toLowerCase());
  const run = (req: Request, res: Response, next: NextFunction, index: number): void => {
    const handler = handlers[index];
    if (!handler) {
      next();
      return;
    }
    handler(req, res, (error?: unknown) => {
      if (error !== undefined && error !== 'route') next(error);
      else run(req, res, next, index + 1);
    });
  };
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    if (prefixes.some((given) => path === given || path.startsWith(`${given}/`))) run(req, res, next, 0);
    else next();
  };
}

function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return path.slice(1, end === -1 ? undefined : end);
}

function errorEnvelope(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const response = errorResponse(error, logger);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    send(res, response, response.headers);
  };
}
