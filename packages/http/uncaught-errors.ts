import type { Logger } from '../observability/logger.ts';
import { currentRequestContext } from '../observability/request-context.ts';
import { INTERNAL_ERROR_MESSAGE } from './errors.ts';
import { responseOf } from './request-state.ts';
import { send } from './route-handler.ts';

/**
 * The last line, not a fix: an error thrown where nothing catches it (an 'error' event without a
 * listener, a promise rejected unheard) is logged, its request answered 500 in the error envelope
 * when its answer has not started (cut when it has), and the process keeps serving. Installed
 * once the service runs, so that a failed start still ends the process.
 */
export function keepServingAfterUncaughtErrors(logger: Logger): void {
  const lastResort = (error: unknown): void => {
    logger.error('Uncaught error: kept serving', { error });
    // The request whose work threw: found through its log context (`assignRequestId`, request-state.ts).
    const context = currentRequestContext();
    const res = context && responseOf(context);
    if (!res || res.writableEnded || res.destroyed) return;
    if (res.headersSent) res.destroy();
    else send(res, { status: 500, body: { error: { type: 'gateway_error', message: INTERNAL_ERROR_MESSAGE } } });
  };
  process.on('uncaughtException', lastResort);
  process.on('unhandledRejection', lastResort);
}
