import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What every log line written while serving a request carries. The HTTP layer opens the context
 * with the request id and fills in the account and key once the caller is authenticated.
 */
export interface RequestLogContext {
  requestId: string;
  /** The caller's own `X-Request-Id`, when it gave a safe one: ties our lines to its logs. */
  correlationId?: string;
  accountId?: string;
  keyId?: string;
}

const storage = new AsyncLocalStorage<RequestLogContext>();

export function runWithRequestContext<T>(context: RequestLogContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the request being served, or undefined outside of one (startup, jobs). */
export function currentRequestContext(): RequestLogContext | undefined {
  return storage.getStore();
}
