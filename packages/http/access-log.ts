import type { RequestHandler } from 'express';
import { writeFlatEntry, type Logger } from '../observability/logger.ts';
import { requestState } from './request-state.ts';

/**
 * One `info` line per request, written when the response is done: method, path (without the
 * query string), status, duration, request id, account and key id. Never bodies or headers.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const { log } = requestState(res);
    res.once('close', () => {
      writeFlatEntry(logger, 'info', 'request', {
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        requestId: log.requestId,
        correlationId: log.correlationId,
        accountId: log.accountId,
        keyId: log.keyId,
        aborted: res.writableFinished ? undefined : true,
      });
    });
    next();
  };
}
