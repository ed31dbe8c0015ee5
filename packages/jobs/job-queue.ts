/**
 * Jobs port: named queues of background work with deduplicating job ids, delays and retries.
 * Two adapters: BullMQ on Redis (distributed profile) and an in-process runner (embedded).
 * Job data must be JSON-serialisable. Handlers must be idempotent: delivery is at least once.
 */

export type Backoff =
  | { type: 'fixed'; delayMs: number }
  | { type: 'exponential'; delayMs: number }
  /** Explicit schedule: the n-th retry waits delaysMs[n-1] (the last entry repeats if attempts exceed it). */
  | { type: 'schedule'; delaysMs: number[] };

export interface EnqueueOptions {
  /**
   * Deterministic id. While a job with this id is waiting, delayed, active, or completed within the
   * retention window, enqueuing the same id again does nothing and reports `deduplicated: true`.
   */
  jobId?: string;
  delayMs?: number;
  /** Total attempts including the first (default 1). */
  attempts?: number;
  backoff?: Backoff;
}

export interface EnqueueResult {
  jobId: string;
  deduplicated: boolean;
}

export interface Job<Data = unknown> {
  id: string;
  queue: string;
  name: string;
  data: Data;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
}

/** One run of a job, as its handler sees it besides the job itself. */
export interface JobRun {
  /**
   * Whether this run still holds its job, and holds it a while longer: false once the queue may have
   * handed the job to another run (its claim lapsed, e.g. while the process was too busy to renew
   * it). Ask before an effect that must not happen twice, and leave the job to the other run when
   * false. Always true where jobs cannot pass to another process (in-process).
   */
  stillClaimed(): Promise<boolean>;
}

export type JobHandler<Data = unknown> = (job: Job<Data>, run: JobRun) => Promise<void>;

/** Marks a postponement, whichever copy of this module made it (see `isJobPostponed`). */
const POSTPONED = Symbol.for('card-payments.jobs.postponed');

/**
 * Thrown by a handler that cannot run its job now (e.g. the resource it needs is busy): the job
 * goes back to the queue, delayed by `delayMs`, without counting as an attempt, and its worker slot
 * is free at once for other jobs.
 */
export class JobPostponed extends Error {
  readonly [POSTPONED] = true;

  constructor(readonly delayMs: number) {
    super(`postponed by ${delayMs} ms`);
    this.name = 'JobPostponed';
  }
}

/**
 * Whether a handler postponed its job. Told by a mark rather than `instanceof`: an adapter loaded
 * by a dynamic import may see another copy of this module than its handlers (tsx loads the static
 * graph of a test process as CommonJS and a dynamic import as an ES module), and a postponement
 * taken for a failure fails the job.
 */
export function isJobPostponed(thrown: unknown): thrown is JobPostponed {
  return (
    typeof thrown === 'object' &&
    thrown !== null &&
    (thrown as Partial<Record<typeof POSTPONED, unknown>>)[POSTPONED] === true &&
    typeof (thrown as { delayMs?: unknown }).delayMs === 'number'
  );
}

export interface ProcessOptions {
  concurrency?: number;
  /** Called once a job has failed its last attempt. */
  onFailed?: (job: Job, error: Error) => void | Promise<void>;
}

export interface QueueWorker {
  /** Stops taking new jobs and waits for the running ones to finish. */
  close(): Promise<void>;
}

export interface QueueCounts {
  waiting: number;
  delayed: number;
  active: number;
  completed: number;
  failed: number;
}

export interface JobQueue {
  enqueue<Data>(queue: string, name: string, data: Data, options?: EnqueueOptions): Promise<EnqueueResult>;
  process<Data>(queue: string, handler: JobHandler<Data>, options?: ProcessOptions): QueueWorker;
  counts(queue: string): Promise<QueueCounts>;
  /** Closes workers and connections. */
  close(): Promise<void>;
}
