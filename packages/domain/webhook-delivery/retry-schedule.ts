import type { AttemptOutcome } from './webhook-delivery-events.ts';

/** A 2xx answer is a delivery; anything else (another status, no answer) is a failed attempt. */
export const isDelivered = (statusCode: number | null): boolean =>
  statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * What follows attempt `attempt` (1-based) under a retry schedule: after the n-th failed attempt
 * the next one waits `delaysMs[n-1]`, counted from when the failed attempt ended (`attemptedAt`
 * plus its `durationMs`: an endpoint that took the whole timeout to fail still gets the full wait);
 * once the schedule is used up the delivery has failed, so a delivery gets at most
 * `delaysMs.length + 1` attempts.
 */
export function afterAttempt(
  attempt: number,
  statusCode: number | null,
  ended: { attemptedAt: string; durationMs: number },
  delaysMs: readonly number[],
): { outcome: AttemptOutcome; nextAttemptAt: string | null } {
  if (isDelivered(statusCode)) return { outcome: 'delivered', nextAttemptAt: null };
  const delay = delaysMs[attempt - 1];
  if (delay === undefined) return { outcome: 'failed', nextAttemptAt: null };
  const endedAt = Date.parse(ended.attemptedAt) + ended.durationMs;
  return { outcome: 'retrying', nextAttemptAt: new Date(endedAt + delay).toISOString() };
}
