import { dueBy, webhookDueCollection } from '../../projections/webhook-due-deliveries.ts';
import type { Platform } from '../platform.ts';
import type { DueWork, DueWorkSource } from './due-work.ts';
import { jobOfDue, webhookAttemptWork } from './webhook-delivery-job.ts';

/** At most this many attempts per scan; the next scan takes the rest. */
const BATCH_SIZE = 200;

/**
 * Webhook attempts due now, or before the next scan (enqueued with the remaining delay, so retries
 * keep their schedule however long the scan interval is), earliest first. Found in the
 * `webhook_due` read model: a delivery job lost with Redis, or with a worker that stopped, is
 * found here again under the same job id.
 */
export function webhookDueDeliveries(platform: Platform): DueWorkSource {
  return {
    name: 'webhook-deliveries',
    async findDue(now: Date): Promise<DueWork[]> {
      const nowMs = now.getTime();
      const horizonMs = nowMs + platform.config.schedulerIntervalMs;
      const page = await platform.readModels
        .collection(webhookDueCollection)
        .list({ created: dueBy(horizonMs), limit: BATCH_SIZE });
      return page.list
        .filter((due) => due.dueAtMs <= horizonMs)
        .map((due) => webhookAttemptWork(jobOfDue(due), due.dueAtMs, nowMs));
    },
  };
}
