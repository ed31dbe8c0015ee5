import type { Logger } from 'winston';
import type { JobQueue } from '../../packages/jobs/job-queue.ts';
import type { DueWorkSource } from './due-work.ts';

/**
 * Periodically asks every due-work source for what has fallen due and enqueues it under its
 * deterministic job id. Runs in every worker process; duplicates are absorbed by the job ids.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly sources: DueWorkSource[],
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    // Fire and forget: scan() logs its sources' failures itself and stop() awaits a running pass.
    this.timer = setInterval(() => void this.scan(), this.intervalMs);
    this.timer.unref();
    void this.scan();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass over every source; a pass asked for while one runs joins it. */
  scan(now = new Date()): Promise<void> {
    if (this.running) return this.running;
    this.running = this.scanSources(now).finally(() => (this.running = null));
    return this.running;
  }

  private async scanSources(now: Date): Promise<void> {
    for (const source of this.sources) {
      try {
        for (const work of await source.findDue(now)) {
          await this.jobs.enqueue(work.queue, work.name, work.data, { ...work.options, jobId: work.jobId });
        }
      } catch (error) {
        this.logger.error('scheduler source failed', { source: source.name, error: (error as Error).message });
      }
    }
  }
}
