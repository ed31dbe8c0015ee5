import type { CommandContext } from '../../packages/commands/command-context.ts';
import type { Mode } from '../../packages/domain/mode.ts';
import type { Job } from '../../packages/jobs/job-queue.ts';
import {
  chargesDueBy,
  paymentMethodChargesDueCollection,
} from '../../projections/payment-method-charges-due-projection.ts';
import type { Platform } from '../platform.ts';
import type { DueWork, DueWorkSource } from './due-work.ts';
import type { JobProcessor } from './worker.ts';

/**
 * Pending payment-method charges (docs/payments.md): a payment the provider is processing is
 * confirmed at its `settlesAt`; a payment the payer never completed fails at its `expiresAt`. The
 * `payment_method_charges_due` read model lists pending charges with their next due time; the
 * scheduler enqueues each under `payment-method-charge:<chargeId>:<dueAtMs>`, and the processor
 * runs the idempotent settle command, which records nothing before the charge's time has come.
 */
export const PAYMENT_METHOD_CHARGES_QUEUE = 'payment-method-charges';

export interface PaymentMethodChargeJob {
  chargeId: string;
  accountId: string;
  mode: Mode;
}

const BATCH_SIZE = 200;

export function paymentMethodChargesDue(platform: Platform): DueWorkSource {
  return {
    name: 'payment-method-charges',
    async findDue(now: Date): Promise<DueWork[]> {
      const nowMs = now.getTime();
      const horizonMs = nowMs + platform.config.schedulerIntervalMs;
      const page = await platform.readModels
        .collection(paymentMethodChargesDueCollection)
        .list({ created: chargesDueBy(horizonMs), limit: BATCH_SIZE });
      return page.list
        .filter((due) => due.dueAtMs <= horizonMs)
        .map((due) => ({
          queue: PAYMENT_METHOD_CHARGES_QUEUE,
          name: 'settle',
          // The due time is part of the id: a charge that moves from "expires at" to "settles at" is a new job.
          jobId: `payment-method-charge:${due.chargeId}:${due.dueAtMs}`,
          data: { chargeId: due.chargeId, accountId: due._accountId, mode: due._mode } satisfies PaymentMethodChargeJob,
          options: {
            delayMs: Math.max(0, due.dueAtMs - nowMs),
            attempts: 3,
            backoff: { type: 'exponential', delayMs: 1000 },
          },
        }));
    },
  };
}

export function paymentMethodChargeProcessor(platform: Platform): JobProcessor {
  async function settle(job: Job<PaymentMethodChargeJob>): Promise<void> {
    const { chargeId, accountId, mode } = job.data;
    const context: CommandContext = {
      accountId,
      mode,
      actor: 'system:worker',
      requestId: `job:${job.id}`,
      causationId: job.id,
      now: () => new Date(),
    };
    await platform.commands.paymentMethodCharges.settle(chargeId, context);
  }
  return {
    queue: PAYMENT_METHOD_CHARGES_QUEUE,
    handler: (job) => settle(job as Job<PaymentMethodChargeJob>),
    options: { concurrency: 5 },
  };
}
