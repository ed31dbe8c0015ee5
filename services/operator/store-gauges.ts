import { Gauge, type Registry } from '../../packages/observability/prometheus.ts';
import { activeCheckpoint } from '../../packages/projection-runtime/projection-state.ts';
import { webhookDeliveriesCollection } from '../../projections/webhook-deliveries-projection.ts';
import { latestBackup } from '../backup/latest-backup.ts';
import type { Platform } from '../platform.ts';
import { NETWORK_OUTCOMES_QUEUE } from '../worker/network-outcome-jobs.ts';
import { CAPTURES_QUEUE, SUBSCRIPTIONS_QUEUE, TEST_CLOCKS_QUEUE } from '../worker/subscription-jobs.ts';
import { UNANSWERED_INTENTS_QUEUE } from '../worker/unanswered-intent-jobs.ts';
import { openWebhookCircuits } from '../worker/webhook-circuit-board.ts';
import { WEBHOOK_DELIVERY_QUEUE } from '../worker/webhook-delivery-job.ts';

/** Queues whose depth and failures are reported: every queue the worker processes. */
export const OBSERVED_QUEUES = [
  WEBHOOK_DELIVERY_QUEUE,
  SUBSCRIPTIONS_QUEUE,
  CAPTURES_QUEUE,
  TEST_CLOCKS_QUEUE,
  NETWORK_OUTCOMES_QUEUE,
  UNANSWERED_INTENTS_QUEUE,
] as const;

const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'canceled'] as const;

const observed = new WeakSet<Registry>();

/**
 * Gauges of the installation's shared state (log head, projection lag, queues, webhook
 * deliveries), read from the stores at each scrape: any API process reports the whole
 * installation. Added once per registry.
 */
export function addStoreGauges(registry: Registry, platform: Platform): void {
  if (observed.has(registry)) return;
  observed.add(registry);
  const { events, readStore } = platform;
  new Gauge({
    name: 'payments_event_log_head_position',
    help: 'Position of the last event in the log (the number of events in the embedded profile)',
    registers: [registry],
    async collect() {
      this.set(await events.headPosition());
    },
  });
  new Gauge({
    name: 'payments_projection_lag',
    help: "Log positions between the head and each projection's checkpoint (events in the embedded profile)",
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      const head = await events.headPosition();
      for (const projection of platform.projections) {
        const checkpoint = await activeCheckpoint(readStore, projection.name);
        this.set({ projection: projection.name }, Math.max(0, head - checkpoint));
      }
    },
  });
  new Gauge({
    name: 'payments_job_queue_depth',
    help: 'Jobs waiting, delayed or running, by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      for (const queue of OBSERVED_QUEUES) {
        const counts = await platform.jobs.counts(queue);
        this.set({ queue }, counts.waiting + counts.delayed + counts.active);
      }
    },
  });
  new Gauge({
    name: 'payments_job_queue_failed',
    help: 'Jobs that failed their last attempt and are kept by the queue, by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      for (const queue of OBSERVED_QUEUES) this.set({ queue }, (await platform.jobs.counts(queue)).failed);
    },
  });
  new Gauge({
    name: 'payments_webhook_deliveries',
    help: 'Webhook deliveries by status: pending (retrying), delivered, failed (out of retries), canceled',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const deliveries = platform.readModels.collection(webhookDeliveriesCollection);
      for (const status of WEBHOOK_DELIVERY_STATUSES) this.set({ status }, await deliveries.count({ status }));
    },
  });
  new Gauge({
    name: 'payments_webhook_open_circuits',
    help: 'Webhook endpoints whose circuit is open in some worker (their attempts timed out in a row: one at a time until one ends in time)',
    registers: [registry],
    async collect() {
      this.set((await openWebhookCircuits(platform.stateStore)).length);
    },
  });
  new Gauge({
    name: 'payments_webhook_endpoint_circuit_open',
    help: 'One series per webhook endpoint whose circuit is open, by endpoint, account and mode (value: attempts in a row that timed out)',
    labelNames: ['endpoint', 'account', 'mode'] as const,
    registers: [registry],
    async collect() {
      // Reset first: an endpoint whose circuit closed has no series any more.
      this.reset();
      for (const circuit of await openWebhookCircuits(platform.stateStore))
        this.set({ endpoint: circuit.id, account: circuit.accountId, mode: circuit.mode }, circuit.timeouts);
    },
  });
  // The embedded files' backups (`backup`): the distributed stores are backed up by their own tools.
  if (platform.config.eventStoreUrl || platform.config.mongodbUrl) return;
  new Gauge({
    name: 'payments_last_backup_timestamp_seconds',
    help: 'Unix time of the last backup `backup` took of the data directory; 0 before the first',
    registers: [registry],
    async collect() {
      const latest = await latestBackup(platform.stateStore);
      this.set(latest ? Date.parse(latest.takenAt) / 1000 : 0);
    },
  });
  new Gauge({
    name: 'payments_events_not_backed_up',
    help: 'Events appended to the log since the last backup (all of them before the first)',
    registers: [registry],
    async collect() {
      const [latest, head] = await Promise.all([latestBackup(platform.stateStore), events.headPosition()]);
      this.set(Math.max(0, head - (latest?.headPosition ?? 0)));
    },
  });
}
