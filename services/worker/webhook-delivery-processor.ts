import { WebhookDeliveryCommands } from '../../packages/commands/webhook-delivery-commands.ts';
import { webhookDeliveryDecider } from '../../packages/domain/webhook-delivery/webhook-delivery-decider.ts';
import {
  webhookDeliveryStream,
  type WebhookDeliveryRef,
} from '../../packages/domain/webhook-delivery/webhook-delivery-events.ts';
import { webhookEndpointDecider } from '../../packages/domain/webhook-endpoint/webhook-endpoint-decider.ts';
import { webhookEndpointStream } from '../../packages/domain/webhook-endpoint/webhook-endpoint-events.ts';
import { JobPostponed, type Job, type JobRun } from '../../packages/jobs/job-queue.ts';
import { sendWebhook, timedOut } from '../../packages/webhooks/webhook-sender.ts';
import { SIGNATURE_HEADER, signatureHeader } from '../../packages/webhooks/webhook-signature.ts';
import { publicEventsCollection } from '../../projections/public-events-projection.ts';
import { publicObject } from '../../projections/views/object-view.ts';
import { eventWithImageAddress } from '../api/offer-image-address.ts';
import type { Platform } from '../platform.ts';
import { jobContext } from './job-context.ts';
import { WEBHOOK_DELIVERY_QUEUE, webhookAttemptWork, type WebhookDeliveryJob } from './webhook-delivery-job.ts';
import type { JobProcessor } from './worker.ts';
import { WEBHOOK_SLOT_LIMITS, webhookDispatchOf } from './webhook-dispatch.ts';

/**
 * Jobs the queue hands this worker process at once: as many as attempts may be in flight. A job
 * turned away by the slots goes back to the queue at once, so waiting attempts hold no job slot.
 */
export const WEBHOOK_CONCURRENCY = WEBHOOK_SLOT_LIMITS.total;

/** How long an attempt whose claim lapsed waits before it looks whether the other run recorded it. */
const CLAIM_LOST_RECHECK_MS = 5_000;

/**
 * Makes one attempt of one delivery: POSTs the event exactly as GET /events/{id} shows it, signed
 * with the endpoint's secret, records the attempt, and enqueues the next one when it failed and
 * the schedule has one left (the scheduler would find it too; this only saves a scan interval).
 * Safe to run twice: an attempt already recorded is not made again, a run whose claim on its job
 * lapsed sends nothing, and a concurrent duplicate loses the append and records nothing (the
 * endpoint may then get the event twice: at least once).
 */
export function webhookDeliveryProcessor(platform: Platform): JobProcessor {
  const { aggregates, config, jobs, readModels, vault } = platform;
  const deliveries = new WebhookDeliveryCommands(aggregates, config.webhookRetryDelaysMs);
  const dispatch = webhookDispatchOf(platform);
  const { slots, circuits } = dispatch;
  // Links in a delivery (an offer's image) are absolute, as GET /events answers them.
  const publicUrl = config.publicUrl ?? `${config.tls ? 'https' : 'http'}://localhost:${config.port}`;

  /**
   * A job whose endpoint (or account) has all its slots busy, or whose endpoint's circuit is open
   * with a probe in flight, goes back to the queue for a while, still counted as handed out.
   */
  async function deliverInSlot(job: Job<WebhookDeliveryJob>, run: JobRun): Promise<void> {
    const { endpointId, accountId, mode } = job.data;
    const claim = slots.claim(endpointId, `${accountId}:${mode}`, job.id, circuits.isOpen(endpointId));
    if (!claim.granted) {
      dispatch.handOut(job.id, claim.retryInMs);
      throw new JobPostponed(claim.retryInMs);
    }
    try {
      await deliver(job, run);
    } finally {
      claim.release();
      dispatch.finished(job.id);
    }
  }

  async function deliver(job: Job<WebhookDeliveryJob>, run: JobRun): Promise<void> {
    const { deliveryId, endpointId, eventId, eventType, attempt, accountId, mode } = job.data;
    const tenant = { accountId, mode };
    const ref: WebhookDeliveryRef = { deliveryId, endpointId, eventId, eventType };
    const context = jobContext(job, tenant, eventId);

    const delivery = await aggregates.load(webhookDeliveryDecider, webhookDeliveryStream(deliveryId), tenant);
    if (delivery.state.status !== 'pending' || delivery.state.attempts !== attempt - 1) return;

    const endpoint = await aggregates.load(webhookEndpointDecider, webhookEndpointStream(endpointId), tenant);
    if (endpoint.state.status !== 'active') return deliveries.cancel(ref, 'endpoint_deleted', context);
    if (!endpoint.state.endpoint.enabled) return deliveries.cancel(ref, 'endpoint_disabled', context);

    // Throwing fails the job without an attempt: the scheduler enqueues it again on a later scan.
    const event = await readModels.collection(publicEventsCollection).get(eventId);
    if (!event || event._accountId !== accountId || event._mode !== mode)
      throw new Error(`event ${eventId} is not readable yet`);
    const secret = await vault.reveal(endpoint.state.endpoint.secretVaultRef);
    if (secret === null) throw new Error(`the secret of ${endpointId} is gone (deleted meanwhile?)`);

    // Once this worker's claim on the job has lapsed (it was too busy to renew it), another may be
    // making the attempt: send nothing, and look again later, when the attempt may be recorded.
    if (!(await run.stillClaimed())) throw new JobPostponed(CLAIM_LOST_RECHECK_MS);
    const body = JSON.stringify(eventWithImageAddress(publicObject(event), publicUrl));
    const attemptedAt = new Date();
    const answer = await sendWebhook({
      url: endpoint.state.endpoint.url,
      mode,
      body,
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signatureHeader(secret, body, Math.floor(attemptedAt.getTime() / 1000)),
      },
      timeoutMs: config.webhookTimeoutMs,
    });
    circuits.record({ endpointId, accountId, mode }, timedOut(answer));
    const recorded = await deliveries.recordAttempt(ref, { attempt, attemptedAt, ...answer }, context);
    if (!recorded.recorded) return;
    const { outcome } = recorded.data;
    const runOfFailures = endpoint.state.failedInARow > 0;
    if (outcome === 'failed' || (outcome === 'delivered' && runOfFailures)) {
      // A run of deliveries that failed for good disables the endpoint; a delivered one ends the run.
      await aggregates.execute(
        webhookEndpointDecider,
        webhookEndpointStream(endpointId),
        {
          type: 'RecordDeliveryEnd',
          endpointId,
          deliveryId,
          eventId,
          outcome,
          disableAfter: config.webhookDisableAfterFailedDeliveries,
        },
        context,
      );
      return;
    }
    if (recorded.data.nextAttemptAt === null) return;

    const next = webhookAttemptWork(
      { ...job.data, attempt: attempt + 1 },
      Date.parse(recorded.data.nextAttemptAt),
      Date.now(),
    );
    // Best effort: should it fail (queue closing, Redis away), the scheduler finds the attempt.
    await jobs.enqueue(next.queue, next.name, next.data, { ...next.options, jobId: next.jobId }).catch(() => undefined);
  }

  return {
    queue: WEBHOOK_DELIVERY_QUEUE,
    handler: (job, run) => deliverInSlot(job as Job<WebhookDeliveryJob>, run),
    options: { concurrency: WEBHOOK_CONCURRENCY },
  };
}
