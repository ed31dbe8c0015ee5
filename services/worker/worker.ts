import type { Logger } from 'winston';
import type { JobHandler, ProcessOptions, QueueWorker } from '../../packages/jobs/job-queue.ts';
import type { Platform } from '../platform.ts';
import type { DueWorkSource } from './due-work.ts';
import { Scheduler } from './scheduler.ts';

/** A queue this process works on and how each job of it is handled. */
export interface JobProcessor {
  queue: string;
  handler: JobHandler;
  options?: ProcessOptions;
}

/**
 * The worker process role: runs the job processors (renewals, captures, webhook dispatch, delayed
 * network outcomes) through the Jobs port, BullMQ in the distributed profile and the in-process
 * runner in the embedded one. Many workers may run at once: jobs are idempotent.
 */
export class Worker {
  private readonly running: QueueWorker[] = [];
  private readonly scheduler: Scheduler;

  constructor(
    private readonly platform: Platform,
    private readonly logger: Logger,
    private readonly processors: JobProcessor[],
    sources: DueWorkSource[],
  ) {
    this.scheduler = new Scheduler(platform.jobs, sources, logger, platform.config.schedulerIntervalMs);
  }

  start(): void {
    for (const processor of this.processors) {
      this.running.push(
        this.platform.jobs.process(processor.queue, processor.handler, {
          ...processor.options,
          onFailed: async (job, error) => {
            this.logger.error('job failed for good', {
              queue: job.queue,
              job: job.name,
              jobId: job.id,
              attempts: job.attempt,
              error: error.message,
            });
            await processor.options?.onFailed?.(job, error);
          },
        }),
      );
    }
    this.scheduler.start();
    this.logger.info('worker running', { queues: this.processors.map((processor) => processor.queue) });
  }

  async stop(): Promise<void> {
    await this.scheduler.stop();
    await Promise.all(this.running.splice(0).map((worker) => worker.close()));
  }
}
