import type { RequestHandler } from 'express';
import { newId } from '../ids/object-id.ts';
import { runWithRequestContext } from '../observability/request-context.ts';
import { initRequestState } from './request-state.ts';

/** A caller's own id is kept when it is short and plain, so it can be logged and echoed safely. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Gives every request an id, returned in `X-Request-Id` (the caller's, when safe, else `req_…`),
 * and runs the rest of the request in a log context carrying it.
 */
export function assignRequestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : newId('req');
    res.setHeader('X-Request-Id', requestId);
    const state = initRequestState(res, requestId);
    runWithRequestContext(state.log, next);
  };
}
