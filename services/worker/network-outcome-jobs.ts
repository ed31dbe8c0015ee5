import type { CommandContext } from '../../packages/commands/command-context.ts';
import type { NetworkOutcomeKind } from '../../packages/domain/charge/network-outcome-events.ts';
import type { Job } from '../../packages/jobs/job-queue.ts';
import { networkOutcomesDueCollection, outcomesDueBy } from '../../projections/network-outcomes-due-projection.ts';
import type { Platform } from '../platform.ts';
import type { DueWork, DueWorkSource } from './due-work.ts';
import type { JobProcessor } from './worker.ts';
import type { Mode } from '../../packages/domain/mode.ts';

/**
 * Delayed network outcomes (`docs/disputes.md`; `docs/architecture.md`, "Jobs are derived from
 * state"): disputes of 4242000000000018, fraud warnings of
 * 4242000000000208, decisions on contested disputes. The charge stream records each announced
 * outcome with its due time; the `network_outcomes_due` read model lists those not delivered yet;
 * the scheduler enqueues each under its deterministic id `network-outcome:<chargeId>:<kind>`, and
 * the processor delivers it with an idempotent charge command. A lost queue or a restart loses
 * nothing: the next scan finds the same outcomes again.
 */
export const NETWORK_OUTCOMES_QUEUE = 'network-outcomes';

export interface NetworkOutcomeJob {
  chargeId: string;
  kind: NetworkOutcomeKind;
  accountId: string;
  mode: Mode;
}

/** At most this many outcomes per scan; the next scan takes the rest. */
const BATCH_SIZE = 200;

/**
 * Outcomes due now, or before the next scan (enqueued with the remaining delay, so that they arrive
 * on time however long the scan interval is), earliest first.
 */
export function networkOutcomesDue(platform: Platform): DueWorkSource {
  return {
    name: 'network-outcomes',
    async findDue(now: Date): Promise<DueWork[]> {
      const nowMs = now.getTime();
      const horizonMs = nowMs + platform.config.schedulerIntervalMs;
      const page = await platform.readModels
        .collection(networkOutcomesDueCollection)
        .list({ created: outcomesDueBy(horizonMs), limit: BATCH_SIZE });
      return page.list
        .filter((due) => due.dueAtMs <= horizonMs)
        .map((due) => ({
          queue: NETWORK_OUTCOMES_QUEUE,
          name: due.kind,
          jobId: due.id,
          data: {
            chargeId: due.chargeId,
            kind: due.kind,
            accountId: due._accountId,
            mode: due._mode,
          } satisfies NetworkOutcomeJob,
          // Retries cover a store that is briefly away; the scheduler finds a failed job again anyway.
          options: {
            delayMs: Math.max(0, due.dueAtMs - nowMs),
            attempts: 3,
            backoff: { type: 'exponential', delayMs: 1000 },
          },
        }));
    },
  };
}

/** Delivers one outcome: a second run (duplicate job, rescan before the projection caught up) records nothing. */
export function networkOutcomeProcessor(platform: Platform): JobProcessor {
  async function deliver(job: Job<NetworkOutcomeJob>): Promise<void> {
    const { chargeId, kind, accountId, mode } = job.data;
    const context: CommandContext = {
      accountId,
      mode,
      actor: 'system:worker',
      requestId: `job:${job.id}`,
      causationId: job.id,
      now: () => new Date(),
    };
    await platform.commands.networkOutcomes.deliver(chargeId, kind, context);
  }
  return {
    queue: NETWORK_OUTCOMES_QUEUE,
    handler: (job) => deliver(job as Job<NetworkOutcomeJob>),
    options: { concurrency: 5 },
  };
}
