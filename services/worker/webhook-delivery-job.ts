import type { WebhookDueDoc } from '../../projections/webhook-due-deliveries.ts';
import type { DueWork } from './due-work.ts';
import type { Mode } from '../../packages/domain/mode.ts';

/** The queue of webhook attempts (a BullMQ queue in the distributed profile). */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-deliveries';

/** One attempt of one delivery: everything the processor needs to find the rest. */
export interface WebhookDeliveryJob {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  accountId: string;
  mode: Mode;
}

/** Deterministic: the same attempt found twice (scheduler, processor, two workers) runs once. */
export const webhookJobId = (job: Pick<WebhookDeliveryJob, 'endpointId' | 'eventId' | 'attempt'>): string =>
  `webhook:${job.endpointId}:${job.eventId}:${job.attempt}`;

/** An attempt as due work, delayed until it is due. */
export function webhookAttemptWork(job: WebhookDeliveryJob, dueAtMs: number, nowMs: number): DueWork {
  return {
    queue: WEBHOOK_DELIVERY_QUEUE,
    name: 'deliver',
    jobId: webhookJobId(job),
    data: job,
    options: { delayMs: Math.max(0, dueAtMs - nowMs) },
  };
}

export const jobOfDue = (due: WebhookDueDoc): WebhookDeliveryJob => ({
  deliveryId: due.deliveryId,
  endpointId: due.endpointId,
  eventId: due.eventId,
  eventType: due.eventType,
  attempt: due.attempt,
  accountId: due.accountId,
  mode: due.mode,
});
