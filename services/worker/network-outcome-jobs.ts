import type { NetworkOutcomeKind } from '../../packages/domain/charge/network-outcome-events.ts';
import { networkOutcomesDueCollection } from '../../projections/network-outcomes-due-projection.ts';
import type { Platform } from '../platform.ts';
import { DUE_JOB_RETRIES, dueBeforeNextScan, type DueWork, type DueWorkSource } from './due-work.ts';
import { jobContext } from './job-context.ts';
import type { JobProcessor } from './worker.ts';
import type { Mode } from '../../packages/domain/mode.ts';

/**
 * Delayed network outcomes (`docs/disputes.md`; `docs/architecture.md`, "Jobs are derived from
 * state"): disputes of 4242000000000018, fraud warnings of
 * 4242000000000208, decisions on contested disputes; and the lookups that settle pending live
 * charges and refunds (`docs/payments.md`). The charge stream records each announced
 * outcome with its due time; the `network_outcomes_due` read model lists those not delivered yet;
 * the scheduler enqueues each under its deterministic id `network-outcome:<chargeId>:<kind>`, and
 * the processor delivers it with an idempotent charge command. A lost queue or a restart loses
 * nothing: the next scan finds the same outcomes again.
 */
export const NETWORK_OUTCOMES_QUEUE = 'network-outcomes';

export interface NetworkOutcomeJob {
  chargeId: string;
  kind: NetworkOutcomeKind;
  /** The refund a `refund` lookup settles. */
  refundId?: string;
  accountId: string;
  mode: Mode;
}

/** At most this many outcomes per scan; the next scan takes the rest. */
const BATCH_SIZE = 200;

/** Outcomes due now or before the next scan, earliest first. */
export function networkOutcomesDue(platform: Platform): DueWorkSource {
  return {
    name: 'network-outcomes',
    async findDue(now: Date): Promise<DueWork[]> {
      const found = await dueBeforeNextScan(platform, networkOutcomesDueCollection, now, BATCH_SIZE);
      return found.map(({ due, delayMs }) => ({
        queue: NETWORK_OUTCOMES_QUEUE,
        name: due.kind,
        jobId: due.id,
        data: {
          chargeId: due.chargeId,
          kind: due.kind,
          ...(due.refundId !== undefined ? { refundId: due.refundId } : {}),
          accountId: due._accountId,
          mode: due._mode,
        } satisfies NetworkOutcomeJob,
        options: { delayMs, ...DUE_JOB_RETRIES },
      }));
    },
  };
}

/** Delivers one outcome: a second run (duplicate job, rescan before the projection caught up) records nothing. */
export function networkOutcomeProcessor(platform: Platform): JobProcessor {
  return {
    queue: NETWORK_OUTCOMES_QUEUE,
    handler: async (job) => {
      const { chargeId, kind, refundId, ...tenant } = job.data as NetworkOutcomeJob;
      // A pending live charge or refund is settled by a lookup at its processors; it throws while
      // they cannot tell, and the job (or the next scan) asks again.
      if (kind === 'authorization') await platform.commands.charges.settlePending(chargeId, jobContext(job, tenant));
      else if (kind === 'credit') await platform.commands.credits.settlePending(chargeId, jobContext(job, tenant));
      else if (kind === 'refund' && refundId !== undefined)
        await platform.commands.charges.settlePendingRefund(chargeId, refundId, jobContext(job, tenant));
      else await platform.commands.networkOutcomes.deliver(chargeId, kind, jobContext(job, tenant));
    },
    options: { concurrency: 5 },
  };
}
