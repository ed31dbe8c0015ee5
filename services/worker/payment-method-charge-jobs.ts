import type { Mode } from '../../packages/domain/mode.ts';
import { paymentMethodChargesDueCollection } from '../../projections/payment-method-charges-due-projection.ts';
import type { Platform } from '../platform.ts';
import { DUE_JOB_RETRIES, dueBeforeNextScan, type DueWork, type DueWorkSource } from './due-work.ts';
import { jobContext } from './job-context.ts';
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

/** At most this many charges per scan; the next scan takes the rest. */
const BATCH_SIZE = 200;

/** Pending payment-method charges due now or before the next scan, earliest first. */
export function paymentMethodChargesDue(platform: Platform): DueWorkSource {
  return {
    name: 'payment-method-charges',
    async findDue(now: Date): Promise<DueWork[]> {
      const found = await dueBeforeNextScan(platform, paymentMethodChargesDueCollection, now, BATCH_SIZE);
      return found.map(({ due, delayMs }) => ({
        queue: PAYMENT_METHOD_CHARGES_QUEUE,
        name: 'settle',
        // The due time is part of the id: a charge that moves from "expires at" to "settles at" is a new job.
        jobId: `payment-method-charge:${due.chargeId}:${due.dueAtMs}`,
        data: { chargeId: due.chargeId, accountId: due._accountId, mode: due._mode } satisfies PaymentMethodChargeJob,
        options: { delayMs, ...DUE_JOB_RETRIES },
      }));
    },
  };
}

export function paymentMethodChargeProcessor(platform: Platform): JobProcessor {
  return {
    queue: PAYMENT_METHOD_CHARGES_QUEUE,
    handler: async (job) => {
      const { chargeId, ...tenant } = job.data as PaymentMethodChargeJob;
      await platform.commands.paymentMethodCharges.settle(chargeId, jobContext(job, tenant));
    },
    options: { concurrency: 5 },
  };
}
