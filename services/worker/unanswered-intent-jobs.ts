import type { Mode } from '../../packages/domain/mode.ts';
import {
  unansweredIntentsDueCollection,
  type UnansweredIntentKind,
} from '../../projections/unanswered-intents-due-projection.ts';
import type { Platform } from '../platform.ts';
import { DUE_JOB_RETRIES, dueBeforeNextScan, type DueWork, type DueWorkSource } from './due-work.ts';
import { jobContext } from './job-context.ts';
import type { JobProcessor } from './worker.ts';

/**
 * Live charges and credits whose intent no outcome followed (`docs/payments.md`, "Unanswered
 * intents"): a request cut short by a crash between recording the intent and recording the
 * processor's answer, that the merchant never retried. The `unanswered_intents_due` read model
 * lists each intent from its lookup time until its payment is recorded or the intent is closed;
 * the processor looks the payment up at the account's processors and records what they say.
 */
export const UNANSWERED_INTENTS_QUEUE = 'unanswered-intents';

export interface UnansweredIntentJob {
  kind: UnansweredIntentKind;
  paymentId: string;
  accountId: string;
  mode: Mode;
}

/** At most this many intents per scan; the next scan takes the rest. */
const BATCH_SIZE = 100;

/**
 * Intents due now or before the next scan, earliest first. Each lookup time has a job id of its
 * own: a lookup that found the payment nowhere names the next one, which must not be taken for a
 * duplicate of the first.
 */
export function unansweredIntentsDue(platform: Platform): DueWorkSource {
  return {
    name: 'unanswered-intents',
    async findDue(now: Date): Promise<DueWork[]> {
      const found = await dueBeforeNextScan(platform, unansweredIntentsDueCollection, now, BATCH_SIZE);
      return found.map(({ due, delayMs }) => ({
        queue: UNANSWERED_INTENTS_QUEUE,
        name: due.kind,
        jobId: `${due.id}:${due.dueAtMs}`,
        data: {
          kind: due.kind,
          paymentId: due.paymentId,
          accountId: due._accountId,
          mode: due._mode,
        } satisfies UnansweredIntentJob,
        options: { delayMs, ...DUE_JOB_RETRIES },
      }));
    },
  };
}

/**
 * Settles one intent; throws while a processor cannot be asked (the job, then the next scan, asks
 * again). A second run (a duplicate job, a rescan before the projection caught up) records nothing.
 */
export function unansweredIntentProcessor(platform: Platform): JobProcessor {
  return {
    queue: UNANSWERED_INTENTS_QUEUE,
    handler: async (job) => {
      const { kind, paymentId, ...tenant } = job.data as UnansweredIntentJob;
      const context = jobContext(job, tenant);
      if (kind === 'charge') await platform.commands.charges.settleUnansweredIntent(paymentId, context);
      else await platform.commands.credits.settleUnansweredIntent(paymentId, context);
    },
    options: { concurrency: 5 },
  };
}
