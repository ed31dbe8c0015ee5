import type { Logger } from 'winston';
import type { JobQueue } from '../../packages/jobs/job-queue.ts';
import { isConnectionError } from '../../packages/observability/outage-reporter.ts';
import type { DueWorkSource } from './due-work.ts';

/**
 * How long this scheduler skips a job id it enqueued itself: the job is in the queue, and asking
 * the queue again each scan (a Redis round trip per job) would only be told so. Also the longest a
 * job lost with its queue waits to be enqueued again.
 */
const ENQUEUED_RECENTLY_MS = 5_000;
/**
 * Enqueues in flight at once during a scan: with BullMQ each is a few Redis round trips, and one
 * after the other the last job of a scan's batch would wait for all the others' round trips.
 */
const ENQUEUES_AT_ONCE = 20;

/**
 * Periodically asks every due-work source for what has fallen due and enqueues it under its
 * deterministic job id. Runs in every worker process; duplicates are absorbed by the job ids.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** Job ids this scheduler enqueued, with when to stop skipping them. */
  private readonly enqueuedRecently = new Map<string, number>();
  /** Sources whose last scan failed: their failure was logged once, and is not again until they recover. */
  private readonly failing = new Set<string>();

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
    const nowMs = Date.now();
    for (const [jobId, until] of this.enqueuedRecently) if (until <= nowMs) this.enqueuedRecently.delete(jobId);
    for (const source of this.sources) {
      try {
        const fresh = (await source.findDue(now)).filter(
          (work) => !this.enqueuedRecently.has(`${work.queue}/${work.jobId}`),
        );
        // In the order found (sources put what matters most first), a few at a time.
        for (let start = 0; start < fresh.length; start += ENQUEUES_AT_ONCE) {
          await Promise.all(
            fresh.slice(start, start + ENQUEUES_AT_ONCE).map(async (work) => {
              await this.jobs.enqueue(work.queue, work.name, work.data, { ...work.options, jobId: work.jobId });
              this.enqueuedRecently.set(`${work.queue}/${work.jobId}`, nowMs + ENQUEUED_RECENTLY_MS);
            }),
          );
        }
        if (this.failing.delete(source.name)) this.logger.info('scheduler source recovered', { source: source.name });
      } catch (error) {
        // A lost connection (Redis away) is reported once by the connection itself, not per scan.
        if (isConnectionError(error)) {
          this.logger.debug('scheduler source waits for its connection', { source: source.name });
          continue;
        }
        // Any other failure tends to repeat every scan: say it once, until the source recovers.
        if (this.failing.has(source.name)) continue;
        this.failing.add(source.name);
        this.logger.warn('scheduler source failed; retrying every scan', {
          source: source.name,
          error: (error as Error).message,
        });
      }
    }
  }
}
