import type { Response } from 'express';
import type { RequestLogContext } from '../observability/request-context.ts';
import type { AuthContext } from './route.ts';

/** What the kit's middlewares learn about a request, kept on `res.locals` for the later ones. */
export interface RequestState {
  /** Also the request's log context: filling in the caller here adds it to every log line. */
  log: RequestLogContext;
  /** The caller, once an API key was recognised. */
  auth: AuthContext | null;
  /** The key could be neither recognised nor refused yet (`KeyNotKnownYet`): answered 503, not 401. */
  keyNotKnownYet?: boolean;
  /** The API route that serves the request, as declared (`/customers/:customerId`), once found. */
  routePattern?: string;
}

/** Each request's response by its log context: what the request's work finds through the context it runs in. */
const responses = new WeakMap<RequestLogContext, Response>();

export function initRequestState(res: Response, requestId: string, correlationId?: string): RequestState {
  const state: RequestState = { log: { requestId, ...(correlationId !== undefined && { correlationId }) }, auth: null };
  res.locals.requestState = state;
  responses.set(state.log, res);
  return state;
}

/**
 * The response of the request whose log context this is (`currentRequestContext()` while its work
 * runs): one async context per request, the log's, instead of a storage of its own (each storage
 * is one more copy per promise the process makes).
 */
export function responseOf(context: RequestLogContext): Response | undefined {
  return responses.get(context);
}

export function requestState(res: Response): RequestState {
  return res.locals.requestState as RequestState;
}
