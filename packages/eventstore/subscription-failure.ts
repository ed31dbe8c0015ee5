import type { SubscribeOptions } from './event-store.ts';

/** Hands a subscription's last failure to its `onError`, or logs it when it has none. */
export function reportSubscriptionFailure(options: SubscribeOptions, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  if (options.onError) options.onError(failure);
  // A subscription that dies unnoticed leaves read models silently stale: never swallow the error.
  else console.error('Event store subscription stopped:', failure);
}
