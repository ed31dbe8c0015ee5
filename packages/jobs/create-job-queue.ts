import { InProcessJobQueue } from './in-process-job-queue.ts';
import type { JobQueue } from './job-queue.ts';
import type { Logger } from '../observability/logger.ts';
import { isConnectionError, type OutageReporter } from '../observability/outage-reporter.ts';

export interface JobQueueSettings {
  /** Set in the distributed profile: jobs go through BullMQ on this Redis. Absent: in-process jobs. */
  redisUrl?: string;
  /** Redis key prefix; only meaningful with redisUrl. */
  prefix?: string;
  /** Where the queue's errors go: a lost Redis as one warning (the reporter), anything else as warnings. */
  logger: Logger;
  redisOutage: OutageReporter;
}

/** BullMQ's complaint when a job it was running no longer exists in Redis. */
const LOST_JOB_STATE = /Missing (key|lock) for job/;

/** BullMQ (and its Redis client) is loaded only in the distributed profile. */
export async function createJobQueue(options: JobQueueSettings): Promise<JobQueue> {
  if (!options.redisUrl) return new InProcessJobQueue();
  const { BullMqJobQueue } = await import('./bullmq-job-queue.ts');
  const { logger, redisOutage } = options;
  return new BullMqJobQueue(options.redisUrl, {
    ...(options.prefix !== undefined && { prefix: options.prefix }),
    onError: (error) => {
      // While Redis is away every command fails, also with errors that only follow from its absence.
      if (redisOutage.isDown || isConnectionError(error)) redisOutage.failed(error);
      // A job whose state Redis lost (it came back empty): the scheduler finds its work again.
      else if (LOST_JOB_STATE.test(error.message)) logger.debug('job state lost with Redis', { error: error.message });
      else logger.warn('job queue error', { error: error.message });
    },
    onReady: () => redisOutage.recovered(),
  });
}
