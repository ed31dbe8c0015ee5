import type { AdvanceClockJob, BackgroundWork, CaptureJob } from '../../packages/commands/background-work.ts';
import type { DueStep } from '../../packages/domain/subscription/subscription-schedule.ts';
import type { EnqueueOptions, JobQueue } from '../../packages/jobs/job-queue.ts';
import type { Mode } from '../../packages/domain/mode.ts';

/** Queues of subscription work: due steps (renewals, trial ends, retries, period ends), captures, test clock advances. */
export const SUBSCRIPTIONS_QUEUE = 'subscriptions';
export const CAPTURES_QUEUE = 'subscription-captures';
export const TEST_CLOCKS_QUEUE = 'test-clocks';

/** A due step of one subscription, as a job. */
export interface SubscriptionStepJob {
  accountId: string;
  mode: Mode;
  subscriptionId: string;
  step: DueStep;
}

/** Failures are retried a few times quickly; the scheduler finds anything still due again later. */
const RETRIES: Omit<EnqueueOptions, 'jobId'> = { attempts: 5, backoff: { type: 'exponential', delayMs: 1_000 } };

/** Deterministic job ids: the same piece of work always gets the same id (subscription + period [+ attempt]). */
export function stepJobId(subscriptionId: string, step: DueStep): string {
  switch (step.kind) {
    case 'payment':
      return `payment:${subscriptionId}:${step.chargeId}`;
    case 'retry':
      return `retry:${subscriptionId}:${step.periodStart}:${step.attempt}`;
    default:
      return `${step.kind.replaceAll('_', '-')}:${subscriptionId}:${step.periodStart}`;
  }
}

export const captureJobId = (chargeId: string): string => `capture:${chargeId}`;
export const advanceJobId = (testClockId: string, frozenTime: number): string => `advance:${testClockId}:${frozenTime}`;

export const stepJobOptions = RETRIES;
export const captureJobOptions = RETRIES;
/** One attempt: a failed advance is enqueued again by the scheduler while the clock is `advancing`. */
export const advanceJobOptions: Omit<EnqueueOptions, 'jobId'> = { attempts: 1 };

/** The commands' hand-over of background work, as jobs on the Jobs port. */
export function jobBackgroundWork(jobs: JobQueue): BackgroundWork {
  return {
    async capture(job: CaptureJob) {
      await jobs.enqueue(CAPTURES_QUEUE, 'capture', job, { ...captureJobOptions, jobId: captureJobId(job.chargeId) });
    },
    async advanceClock(job: AdvanceClockJob) {
      await jobs.enqueue(TEST_CLOCKS_QUEUE, 'advance', job, {
        ...advanceJobOptions,
        jobId: advanceJobId(job.testClockId, job.frozenTime),
      });
    },
  };
}
