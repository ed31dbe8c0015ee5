import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandler, Response } from 'express';
import type { Logger } from '../observability/logger.ts';
import { INTERNAL_ERROR_MESSAGE } from './errors.ts';
import { send } from './route-handler.ts';

/** The response of the request whose work is running, for an error nobody caught on its way. */
const responses = new AsyncLocalStorage<Response>();

/** Runs the rest of the request with its response findable from anything it starts. */
export function trackResponse(): RequestHandler {
  return (_req, res, next) => responses.run(res, next);
}

/**
 * The last line, not a fix: an error thrown where nothing catches it (an 'error' event without a
 * listener, a promise rejected unheard) is logged, its request answered 500 in the error envelope
 * when its answer has not started (cut when it has), and the process keeps serving. Installed
 * once the service runs, so that a failed start still ends the process.
 */
export function keepServingAfterUncaughtErrors(logger: Logger): void {
  const lastResort = (error: unknown): void => {
    logger.error('Uncaught error: kept serving', { error });
    const res = responses.getStore();
    if (!res || res.writableEnded || res.destroyed) return;
    if (res.headersSent) res.destroy();
    else send(res, { status: 500, body: { error: { type: 'gateway_error', message: INTERNAL_ERROR_MESSAGE } } });
  };
  process.on('uncaughtException', lastResort);
  process.on('unhandledRejection', lastResort);
}
