import { dueBy } from '../../projections/due-list.ts';
import { webhookDueCollection } from '../../projections/webhook-due-deliveries.ts';
import type { Platform } from '../platform.ts';
import type { DueWork, DueWorkSource } from './due-work.ts';
import { jobOfDue, webhookAttemptWork } from './webhook-delivery-job.ts';

/** At most this many attempts per scan; the next scan takes the rest. */
const BATCH_SIZE = 200;
/** At most this many attempts of one endpoint per scan, so a long backlog of one cannot crowd out the others. */
const PER_ENDPOINT = 20;
/** How far one scan reads into the due list looking for other endpoints' attempts. */
const MAX_PAGES = 10;

/**
 * Webhook attempts due now, or before the next scan (enqueued with the remaining delay, so retries
 * keep their schedule however long the scan interval is), earliest first, at most PER_ENDPOINT of
 * one endpoint. Found in the `webhook_due` read model: a delivery job lost with Redis, or with a
 * worker that stopped, is found here again under the same job id.
 */
export function webhookDueDeliveries(platform: Platform): DueWorkSource {
  return {
    name: 'webhook-deliveries',
    async findDue(now: Date): Promise<DueWork[]> {
      const nowMs = now.getTime();
      const horizonMs = nowMs + platform.config.schedulerIntervalMs;
      const dueList = platform.readModels.collection(webhookDueCollection);
      const found: DueWork[] = [];
      const perEndpoint = new Map<string, number>();
      let startingAfterId: string | undefined;
      for (let page = 0; page < MAX_PAGES && found.length < BATCH_SIZE; page++) {
        const { list, hasMore } = await dueList.list({
          created: dueBy(horizonMs),
          limit: BATCH_SIZE,
          ...(startingAfterId !== undefined && { startingAfterId }),
        });
        for (const due of list) {
          const taken = perEndpoint.get(due.endpointId) ?? 0;
          if (due.dueAtMs > horizonMs || taken >= PER_ENDPOINT || found.length >= BATCH_SIZE) continue;
          perEndpoint.set(due.endpointId, taken + 1);
          found.push(webhookAttemptWork(jobOfDue(due), due.dueAtMs, nowMs));
        }
        if (!hasMore || list.length === 0) break;
        startingAfterId = list[list.length - 1]!.id;
      }
      return found;
    },
  };
}
