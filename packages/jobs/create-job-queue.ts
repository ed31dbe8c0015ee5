import { BullMqJobQueue } from './bullmq-job-queue.ts';
import { InProcessJobQueue } from './in-process-job-queue.ts';
import type { JobQueue } from './job-queue.ts';

export interface JobQueueSettings {
  /** Set in the distributed profile: jobs go through BullMQ on this Redis. Absent: in-process jobs. */
  redisUrl?: string;
  /** Redis key prefix; only meaningful with redisUrl. */
  prefix?: string;
}

export function createJobQueue(options: JobQueueSettings): JobQueue {
  if (!options.redisUrl) return new InProcessJobQueue();
  return new BullMqJobQueue(options.redisUrl, options.prefix === undefined ? {} : { prefix: options.prefix });
}
