import type { RequestHandler } from 'express';
import { containsCardNumber } from '../network/card-numbers-in-text.ts';
import { newId } from '../ids/object-id.ts';
import { runWithRequestContext } from '../observability/request-context.ts';
import { initRequestState } from './request-state.ts';

/** A caller's correlation id is kept when it is short and plain, so it can be logged and stored safely. */
const SAFE_CORRELATION_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Gives every request a server-generated id (`req_…`, returned in `X-Request-Id`) and runs the
 * rest of the request in a log context carrying it. A caller's own `X-Request-Id` never becomes
 * the request id: when short and plain (and holding no card number) it is kept as the separate
 * `correlationId` of log lines and events, and echoed in `X-Correlation-Id`; otherwise ignored.
 */
export function assignRequestId(): RequestHandler {
  return (req, res, next) => {
    const requestId = newId('req');
    res.setHeader('X-Request-Id', requestId);
    const incoming = req.get('x-request-id');
    const correlationId =
      incoming && SAFE_CORRELATION_ID.test(incoming) && !containsCardNumber(incoming) ? incoming : undefined;
    if (correlationId) res.setHeader('X-Correlation-Id', correlationId);
    const state = initRequestState(res, requestId, correlationId);
    runWithRequestContext(state.log, next);
  };
}
