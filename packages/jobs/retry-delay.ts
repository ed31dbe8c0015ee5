import type { Backoff } from './job-queue.ts';

/**
 * How long the n-th retry (1 for the retry after the first failure) waits under a backoff policy.
 * Exponential matches BullMQ's built-in: delayMs * 2^(n-1). Without a policy, retries are immediate.
 */
export function retryDelayMs(backoff: Backoff | undefined, retry: number): number {
  if (!backoff) return 0;
  switch (backoff.type) {
    case 'fixed':
      return backoff.delayMs;
    case 'exponential':
      return Math.round(2 ** (retry - 1) * backoff.delayMs);
    case 'schedule':
      return backoff.delaysMs[Math.min(retry, backoff.delaysMs.length) - 1] ?? 0;
  }
}
