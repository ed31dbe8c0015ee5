import express, { Router, type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { Logger } from '../observability/logger.ts';
import { accessLog } from './access-log.ts';
import { identifyCaller, requireApiKey, requireKeyKind, type Authenticate } from './authenticate.ts';
import { errorResponse, HttpError } from './errors.ts';
import { parseFormEncoded } from './form-encoding.ts';
import type { IdempotencyStore } from './idempotency.ts';
import { rateLimit, type RateLimiter } from './rate-limit.ts';
import { parseMultipartBody } from './multipart-body.ts';
import { parseRequestBody } from './request-body.ts';
import { requireHttpsForLiveMode } from './require-https.ts';
import { assignRequestId } from './request-id.ts';
import type { AnyRouteDefinition } from './route.ts';
import { requestState } from './request-state.ts';
import { routeHandler, send } from './route-handler.ts';
import { RouteTable } from './route-table.ts';

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
 * The API's HTTP application. Per request, in order: request id and log context (through which
 * uncaught-errors.ts finds the response), access log;
 * then for /health, /ready, /openapi.json and the unauthenticated routes a per-IP rate limit,
 * for everything else caller identification, rate limit (per key, or per IP without one), API key
 * required, HTTPS required (live mode), the route's key kind, body decoding, the route; anything unmatched is a 404, anything failing the envelope.
 */
export function createApp(options: AppOptions): Express {
  const { logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', (text: string) => parseFormEncoded(text, 'query string'));
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);

  // What needs no API key (health, readiness, the OpenAPI document, offer images, pages), behind
  // the per-IP rate limit, in a router that API requests pass by with a prefix comparison.
  const perIp = rateLimit(options.rateLimiter, 'unauthenticated');
  const open = Router();
  open.get('/health', perIp, (_req, res) => {
    res.json({ status: 'ok' });
  });
  open.get('/ready', perIp, async (_req, res) => {
    const ready = await options.health.ready().catch((error: unknown) => {
      logger.warn('Readiness check failed', { error });
      return false;
    });
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready' });
  });
  open.get('/openapi.json', perIp, (_req, res) => {
    res.json(options.openApiDocument());
  });
  const openPrefixes = ['/health', '/ready', '/openapi.json'];
  for (const route of options.unauthenticatedRoutes ?? []) {
    open.get(route.path, perIp, route.handler);
    // The literal part of the path, up to its first parameter.
    const parameter = route.path.indexOf('/:');
    openPrefixes.push(parameter === -1 ? route.path : route.path.slice(0, parameter));
  }
  for (const page of options.pages ?? []) {
    open.use(underPrefix(page.pathPrefix, [perIp, page.handler]));
    openPrefixes.push(...[page.pathPrefix].flat());
  }

  // One layer of express's router for every request, the error envelope's aside: what each request
  // goes through first; then what needs no API key, which API requests pass by with a prefix
  // comparison; everything else is the API: the caller is identified and counted, must hold a key
  // (over HTTPS in live mode), then its route is found, its body decoded and the route run;
  // anything unmatched is a 404.
  app.use(
    inSequence([
      assignRequestId(),
      accessLog(logger),
      ...(options.observers ?? []),
      underPrefix(openPrefixes, [open]),
      identifyCaller(options.authenticate),
      rateLimit(options.rateLimiter),
      requireApiKey(),
      requireHttpsForLiveMode(),
      apiRoutes(options),
      (_req, _res, next) => {
        next(new HttpError(404, 'invalid_request', 'Unrecognized request URL: check the method and the path'));
      },
    ]),
  );
  app.use(errorEnvelope(logger));
  return app;
}

/**
 * The API's routes in one table (see route-table.ts). Each checks the caller's key kind before
 * reading anything of the body. Uploads read their multipart body themselves; every other route gets the JSON / form body decoder. The route's declared path is
 * kept in the request state for metrics and logs.
 */
function apiRoutes(options: AppOptions): RequestHandler {
  const table = new RouteTable<RequestHandler[]>();
  const parseBody = parseRequestBody(options.maxBodyBytes);
  // Uploads first, as they were declared first: a path both could match goes to the upload.
  const ordered = [
    ...options.routes.filter((route) => route.upload),
    ...options.routes.filter((route) => !route.upload),
  ];
  for (const route of ordered) {
    const body = route.upload ? parseMultipartBody(route.upload) : parseBody;
    // The key kind first: a request the route refuses anyway has its body left unread.
    table.add(route.method, route.path, [requireKeyKind(route), body, routeHandler(route, options)]);
  }
  return (req, res, next) => {
    // No route answers OPTIONS; the API answers it with a 404.
    const found = req.method === 'OPTIONS' ? undefined : table.find(req.method, req.path);
    if (!found) {
      next();
      return;
    }
    req.params = found.params;
    requestState(res).routePattern = found.pattern;
    inSequence(found.value)(req, res, next);
  };
}

/**
 * Runs handlers one after the other as express would (each calls `next` to go on; an error, or a
 * rejected promise, goes to `next` and skips the rest), without a router layer per handler.
 */
function inSequence(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    const run = (index: number): void => {
      const handler = handlers[index];
      if (!handler) {
        next();
        return;
      }
      try {
        const returned: unknown = handler(req, res, (error?: unknown) => {
          // As express's own next: nothing, null or 'route' go on; anything else (an error, 'router') leaves.
          if (error !== undefined && error !== null && error !== 'route') next(error);
          else run(index + 1);
        });
        if (returned instanceof Promise) returned.catch(next);
      } catch (error) {
        next(error);
      }
    };
    run(0);
  };
}

/**
 * Handlers for the requests below a page's prefixes only, with their full paths kept; every other
 * request (every API request) passes by with one string comparison per prefix instead of walking
 * the page's router.
 */
function underPrefix(prefix: string | string[], handlers: RequestHandler[]): RequestHandler {
  const prefixes = (Array.isArray(prefix) ? prefix : [prefix]).map((given) => given.replace(/\/$/, '').toLowerCase());
  const run = inSequence(handlers);
  return (req, res, next) => {
    const path = req.path.toLowerCase();
    if (prefixes.some((given) => path === given || path.startsWith(`${given}/`))) run(req, res, next);
    else next();
  };
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
