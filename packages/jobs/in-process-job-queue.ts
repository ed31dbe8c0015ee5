/**
 * Jobs adapter for the embedded profile: queues live in this process's memory and are driven by
 * timers. Same contracts as the BullMQ adapter, except that nothing survives a restart.
 */
import { randomUUID } from 'node:crypto';
import {
  isJobPostponed,
  type Backoff,
  type EnqueueOptions,
  type EnqueueResult,
  type Job,
  type JobHandler,
  type JobQueue,
  type JobRun,
  type ProcessOptions,
  type QueueCounts,
  type QueueWorker,
} from './job-queue.ts';
import { retryDelayMs } from './retry-delay.ts';

/** The time source, replaceable so tests can drive delays and retention with fake timers. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export interface InProcessJobQueueOptions {
  clock?: Clock;
  /** How long a completed job's id keeps deduplicating enqueues (default 24 h). */
  completedRetentionMs?: number;
  /** How long failed jobs stay visible in counts (default 7 days). */
  failedRetentionMs?: number;
}

const hour = 60 * 60 * 1000;

/** A job runs once at a time here, and no other process can take it over. */
const alwaysClaimed: JobRun = { stillClaimed: async () => true };

// Read the globals on every call so that fake timers installed after construction still apply.
const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

interface StoredJob {
  id: string;
  queue: string;
  name: string;
  /** Kept as JSON, as Redis would: every attempt gets its own copy and non-JSON data fails at enqueue. */
  json: string;
  maxAttempts: number;
  backoff: Backoff | undefined;
  /** Attempts that have ended, whatever their outcome. */
  attemptsMade: number;
  state: JobState;
  delayTimer?: unknown;
  finishedAt?: number;
}

interface Worker {
  handler: JobHandler;
  concurrency: number;
  onFailed: ProcessOptions['onFailed'];
  running: Set<Promise<void>>;
  closing: boolean;
}

interface NamedQueue {
  jobs: Map<string, StoredJob>;
  waiting: StoredJob[];
  workers: Worker[];
  /** Finished jobs in finishing order, so expired ones are pruned from the front. */
  completed: StoredJob[];
  failed: StoredJob[];
  dispatchScheduled: boolean;
}

export class InProcessJobQueue implements JobQueue {
  private readonly clock: Clock;
  private readonly completedRetentionMs: number;
  private readonly failedRetentionMs: number;
  private readonly queues = new Map<string, NamedQueue>();
  private closing: Promise<void> | undefined;

  constructor(options: InProcessJobQueueOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.completedRetentionMs = options.completedRetentionMs ?? 24 * hour;
    this.failedRetentionMs = options.failedRetentionMs ?? 7 * 24 * hour;
  }

  async enqueue<Data>(
    queueName: string,
    name: string,
    data: Data,
    options: EnqueueOptions = {},
  ): Promise<EnqueueResult> {
    this.assertOpen();
    const queue = this.namedQueue(queueName);
    this.pruneFinished(queue);
    const jobId = options.jobId ?? randomUUID();
    const existing = queue.jobs.get(jobId);
    // A failed job does not hold its id: enqueuing it again starts afresh.
    if (existing && existing.state !== 'failed') return { jobId, deduplicated: true };

    const job: StoredJob = {
      id: jobId,
      queue: queueName,
      name,
      json: JSON.stringify(data === undefined ? {} : data),
      maxAttempts: options.attempts ?? 1,
      backoff: options.backoff,
      attemptsMade: 0,
      state: 'waiting',
    };
    queue.jobs.set(jobId, job);
    if (options.delayMs && options.delayMs > 0) this.delay(queue, job, options.delayMs);
    else this.makeWaiting(queue, job);
    return { jobId, deduplicated: false };
  }

  process<Data>(queueName: string, handler: JobHandler<Data>, options: ProcessOptions = {}): QueueWorker {
    this.assertOpen();
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
    }
    const queue = this.namedQueue(queueName);
    const worker: Worker = {
      handler: handler as JobHandler,
      concurrency,
      onFailed: options.onFailed,
      running: new Set(),
      closing: false,
    };
    queue.workers.push(worker);
    this.scheduleDispatch(queue);
    return { close: () => this.closeWorker(queue, worker) };
  }

  async counts(queueName: string): Promise<QueueCounts> {
    const queue = this.namedQueue(queueName);
    this.pruneFinished(queue);
    const counts: QueueCounts = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };
    for (const job of queue.jobs.values()) counts[job.state]++;
    return counts;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const queue of this.queues.values()) {
        for (const job of queue.jobs.values()) {
          if (job.delayTimer !== undefined) this.clock.clearTimeout(job.delayTimer);
        }
      }
      await Promise.all(
        [...this.queues.values()].flatMap((queue) => queue.workers.map((worker) => this.closeWorker(queue, worker))),
      );
    })();
    return this.closing;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('The job queue is closed');
  }

  private namedQueue(name: string): NamedQueue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = { jobs: new Map(), waiting: [], workers: [], completed: [], failed: [], dispatchScheduled: false };
      this.queues.set(name, queue);
    }
    return queue;
  }

  private delay(queue: NamedQueue, job: StoredJob, ms: number): void {
    job.state = 'delayed';
    if (this.closing) return;
    job.delayTimer = this.clock.setTimeout(() => {
      job.delayTimer = undefined;
      this.makeWaiting(queue, job);
    }, ms);
  }

  private makeWaiting(queue: NamedQueue, job: StoredJob): void {
    job.state = 'waiting';
    queue.waiting.push(job);
    this.scheduleDispatch(queue);
  }

  /** Hands out jobs on a later microtask, so a handler never starts inside its enqueuer's call. */
  private scheduleDispatch(queue: NamedQueue): void {
    if (queue.dispatchScheduled) return;
    queue.dispatchScheduled = true;
    queueMicrotask(() => {
      queue.dispatchScheduled = false;
      this.dispatch(queue);
    });
  }

  private dispatch(queue: NamedQueue): void {
    for (const worker of queue.workers) {
      while (!worker.closing && worker.running.size < worker.concurrency) {
        const job = queue.waiting.shift();
        if (!job) return;
        this.run(queue, worker, job);
      }
    }
  }

  private run(queue: NamedQueue, worker: Worker, job: StoredJob): void {
    job.state = 'active';
    const attempt = job.attemptsMade + 1;
    const running = (async () => {
      try {
        await worker.handler(toJob(job, attempt), alwaysClaimed);
        job.attemptsMade = attempt;
        this.finish(queue, job, 'completed');
      } catch (thrown) {
        if (isJobPostponed(thrown)) {
          this.delay(queue, job, Math.max(0, thrown.delayMs));
          return;
        }
        job.attemptsMade = attempt;
        if (attempt < job.maxAttempts) {
          const delayMs = retryDelayMs(job.backoff, attempt);
          if (delayMs > 0) this.delay(queue, job, delayMs);
          else this.makeWaiting(queue, job);
          return;
        }
        this.finish(queue, job, 'failed');
        await notifyFailed(worker, toJob(job, attempt), thrown);
      }
    })();
    worker.running.add(running);
    // Fire and forget: `running` never rejects (failures are caught above) and close() awaits the set.
    void running.finally(() => {
      worker.running.delete(running);
      this.scheduleDispatch(queue);
    });
  }

  private finish(queue: NamedQueue, job: StoredJob, state: 'completed' | 'failed'): void {
    job.state = state;
    job.finishedAt = this.clock.now();
    queue[state].push(job);
  }

  private pruneFinished(queue: NamedQueue): void {
    const now = this.clock.now();
    const prune = (finished: StoredJob[], retentionMs: number) => {
      while (finished[0] && (finished[0].finishedAt ?? 0) + retentionMs <= now) {
        const job = finished.shift() as StoredJob;
        // The id may since have been reused by a new job, which must stay.
        if (queue.jobs.get(job.id) === job) queue.jobs.delete(job.id);
      }
    };
    prune(queue.completed, this.completedRetentionMs);
    prune(queue.failed, this.failedRetentionMs);
  }

  private async closeWorker(queue: NamedQueue, worker: Worker): Promise<void> {
    worker.closing = true;
    queue.workers = queue.workers.filter((other) => other !== worker);
    while (worker.running.size > 0) await Promise.all(worker.running);
  }
}

function toJob(job: StoredJob, attempt: number): Job {
  return {
    id: job.id,
    queue: job.queue,
    name: job.name,
    data: JSON.parse(job.json) as unknown,
    attempt,
    maxAttempts: job.maxAttempts,
  };
}

async function notifyFailed(worker: Worker, job: Job, thrown: unknown): Promise<void> {
  if (!worker.onFailed) return;
  const error = thrown instanceof Error ? thrown : new Error(String(thrown));
  try {
    await worker.onFailed(job, error);
  } catch (callbackError) {
    // The job has already failed for good; a broken callback must not crash the runner.
    console.error(`onFailed for job ${job.id} in queue ${job.queue} threw`, callbackError);
  }
}
