import type { AdvanceClockJob, CaptureJob } from '../../packages/commands/background-work.ts';
import type { Platform } from '../platform.ts';
import {
  CAPTURES_QUEUE,
  SUBSCRIPTIONS_QUEUE,
  TEST_CLOCKS_QUEUE,
  type SubscriptionStepJob,
} from './subscription-jobs.ts';
import { jobContext } from './job-context.ts';
import type { JobProcessor } from './worker.ts';

/**
 * Subscription work: due steps (renewals, trial ends, retries, period-end cancellations,
 * billing-cycle ends, unsettled charges), captures, and test clock advances. Each runs commands
 * that record nothing when their work is done already, so a job run twice, or a job of a killed
 * worker run again, never charges twice.
 */
export function subscriptionProcessors(platform: Platform): JobProcessor[] {
  const { subscriptions, testClocks } = platform.commands;
  return [
    {
      queue: SUBSCRIPTIONS_QUEUE,
      handler: async (job) => {
        const data = job.data as SubscriptionStepJob;
        await subscriptions.runDueJob(data.subscriptionId, data.step, jobContext(job, data));
      },
      options: { concurrency: 4 },
    },
    {
      queue: CAPTURES_QUEUE,
      handler: async (job) => {
        const data = job.data as CaptureJob;
        await subscriptions.captureCharge(data.subscriptionId, data.chargeId, jobContext(job, data));
      },
      options: { concurrency: 4 },
    },
    {
      queue: TEST_CLOCKS_QUEUE,
      handler: async (job) => {
        const data = job.data as AdvanceClockJob;
        const { now: _now, accountId: _a, mode: _m, ...system } = jobContext(job, data);
        await testClocks.runAdvance(
          { accountId: data.accountId, mode: data.mode },
          data.testClockId,
          data.frozenTime,
          system,
        );
      },
      options: { concurrency: 2 },
    },
  ];
}
