/**
 * Jobs adapter for the distributed profile: BullMQ queues on Redis, shared by every process that
 * uses the same Redis and prefix. A job claimed by a process that dies returns to its queue once
 * the claim (lock) lapses.
 */
import { randomUUID } from 'node:crypto';
import {
  DelayedError,
  Queue,
  Worker,
  type BackoffOptions,
  type Job as BullMqJob,
  type JobsOptions,
  type MinimalJob,
} from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
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

export interface BullMqJobQueueOptions {
  /** Redis key prefix, so several deployments can share one Redis (default 'bull'). */
  prefix?: string;
  /** How long a completed job's id keeps deduplicating enqueues (default 24 h). */
  completedRetentionMs?: number;
  /** How long failed jobs are kept for inspection (default 7 days). */
  failedRetentionMs?: number;
  /**
   * How long a worker's claim on a job lasts unless renewed (default 5 s; renewed every fifth of it
   * while the job runs): the jobs of a worker that died return to the queue after it.
   */
  lockDurationMs?: number;
  /**
   * How often workers look for jobs whose claim has lapsed (default 2 s). The check is queue-wide and
   * each one holds off the others for its own interval, so give every process the same value.
   */
  stalledIntervalMs?: number;
  /**
   * Receives the errors of the queues, workers and connections (default console.error). Redis
   * connection errors come in bursts while it is unreachable; the client reconnects on its own.
   */
  onError?: (error: Error) => void;
  /** Told when a connection to Redis is (again) ready. */
  onReady?: () => void;
}

/** A killed worker's jobs are back in the queue within lock + stalled interval (about 7 s). */
const DEFAULT_LOCK_DURATION_MS = 5_000;
const DEFAULT_STALLED_INTERVAL_MS = 2_000;
/**
 * Locks are renewed every fifth of their duration (BullMQ's default is half): a claim then lapses
 * only after the process has been too busy to renew it for most of the lock, not for half of it.
 */
const LOCK_RENEWALS_PER_DURATION = 5;

const hour = 60 * 60 * 1000;

/** How long closing waits for Redis once no handler is running any more. */
const unreachableRedisGraceMs = 2_000;

/** A per-enqueue token stored with the job, by which an enqueue recognises the job it created. */
interface TokenedJobsOptions extends JobsOptions {
  enqueueToken?: string;
}

export class BullMqJobQueue implements JobQueue {
  private readonly prefix: string;
  private readonly completedRetentionMs: number;
  private readonly failedRetentionMs: number;
  private readonly options: BullMqJobQueueOptions;
  private readonly onError: (error: Error) => void;
  private readonly onReady: () => void;
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Set<QueueWorker>();
  /**
   * The runs going on in this process, by queue, job and attempt. BullMQ hands a job out again once
   * its claim lapses (a process too busy to renew its locks), also to this very process while the
   * first run still goes on: that second run waits for the first and reports its outcome instead.
   */
  private readonly runsInProgress = new Map<string, RunInProgress>();
  /**
   * Enqueues fail at once while Redis is unreachable, rather than hang the caller until it is back:
   * no offline queue for commands sent while it is away, and no retry on reconnection for those
   * in flight when it goes (ioredis would otherwise hold them through 20 reconnection attempts, 21 s).
   */
  private producerConnection: Redis | undefined;
  /** Workers block on Redis, which BullMQ only allows without a per-command retry limit. */
  private workerConnection: ConnectionWithCopies | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly redisUrl: string,
    options: BullMqJobQueueOptions = {},
  ) {
    this.options = options;
    this.prefix = options.prefix ?? 'bull';
    this.completedRetentionMs = options.completedRetentionMs ?? 24 * hour;
    this.failedRetentionMs = options.failedRetentionMs ?? 7 * 24 * hour;
    this.onError = options.onError ?? ((error) => console.error('BullMQ job queue:', error));
    this.onReady = options.onReady ?? (() => undefined);
  }

  async enqueue<Data>(
    queueName: string,
    name: string,
    data: Data,
    options: EnqueueOptions = {},
  ): Promise<EnqueueResult> {
    this.assertOpen();
    const queue = this.queue(queueName);
    await reached(this.producerConnection!);
    const jobId = options.jobId ?? randomUUID();
    const bullMqJobId = toBullMqJobId(jobId);
    const jobOptions: JobsOptions = {
      jobId: bullMqJobId,
      delay: options.delayMs,
      attempts: options.attempts ?? 1,
      backoff: toBullMqBackoff(options.backoff),
      removeOnComplete: { age: Math.ceil(this.completedRetentionMs / 1000) },
      removeOnFail: { age: Math.ceil(this.failedRetentionMs / 1000) },
    };
    if (options.jobId === undefined) {
      await queue.add(name, data, jobOptions);
      return { jobId, deduplicated: false };
    }
    // BullMQ silently ignores an add whose id exists. Tag the add with a token, then read the
    // stored job back: another token means another enqueue got there first.
    for (;;) {
      const enqueueToken = randomUUID();
      const tokened: TokenedJobsOptions = { ...jobOptions, enqueueToken };
      await queue.add(name, data, tokened);
      const stored = await queue.getJob(bullMqJobId);
      // Gone already: only possible with a tiny retention. Add again rather than guess.
      if (!stored) continue;
      if ((stored.opts as TokenedJobsOptions).enqueueToken === enqueueToken) return { jobId, deduplicated: false };
      if (!(await stored.isFailed())) return { jobId, deduplicated: true };
      // A failed job does not hold its id: replace it. Should two enqueues race to replace it,
      // both report a new job, and still only one job with this id is left to run.
      await queue.remove(bullMqJobId);
    }
  }

  process<Data>(queueName: string, handler: JobHandler<Data>, options: ProcessOptions = {}): QueueWorker {
    this.assertOpen();
    /** Handlers and onFailed callbacks still running, which closing waits for whatever Redis does. */
    const inFlight = new Set<Promise<unknown>>();
    const track = <T>(promise: Promise<T>): Promise<T> => {
      inFlight.add(promise);
      // Only bookkeeping; the caller gets `promise` itself and handles its outcome.
      void promise.catch(() => undefined).finally(() => inFlight.delete(promise));
      return promise;
    };

    const lockDurationMs = this.options.lockDurationMs ?? DEFAULT_LOCK_DURATION_MS;
    const worker = new Worker(
      queueName,
      async (job: BullMqJob, token?: string) => {
        try {
          await this.runOnce(queueName, job, token, lockDurationMs, (run) =>
            track(handler(toJob<Data>(job, job.attemptsMade + 1), run)),
          );
        } catch (thrown) {
          if (isJobPostponed(thrown)) {
            // Back to delayed without an attempt; DelayedError tells BullMQ the job was moved.
            await job.moveToDelayed(Date.now() + Math.max(0, thrown.delayMs), token);
            throw new DelayedError();
          }
          // BullMQ only records and retries Error instances properly.
          throw thrown instanceof Error ? thrown : new Error(String(thrown));
        }
      },
      {
        connection: this.connectionForWorkers(),
        prefix: this.prefix,
        concurrency: options.concurrency ?? 1,
        lockDuration: lockDurationMs,
        lockRenewTime: lockDurationMs / LOCK_RENEWALS_PER_DURATION,
        stalledInterval: this.options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS,
        settings: { backoffStrategy: scheduleBackoffStrategy },
      },
    );
    worker.on('error', this.onError);
    const { onFailed } = options;
    if (onFailed) {
      worker.on('failed', (job, error) => {
        // The event fires for every failed attempt; by now attemptsMade includes this one.
        if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
        // An event listener cannot be awaited; notifyFailed never rejects and close() waits for it.
        void track(notifyFailed(onFailed, toJob(job, job.attemptsMade), error));
      });
    }

    const queueWorker: QueueWorker = {
      close: async () => {
        const closed = worker.close();
        await allSettled(inFlight);
        // Only BullMQ's bookkeeping in Redis is left, which is quick unless Redis is unreachable.
        // Then stop waiting: BullMQ finishes once Redis is back or this job queue closes, and the
        // worker's unfinished jobs return to the queue once their locks lapse.
        await waitAtMost(closed, unreachableRedisGraceMs);
        await allSettled(inFlight);
        this.workers.delete(queueWorker);
      },
    };
    this.workers.add(queueWorker);
    return queueWorker;
  }

  async counts(queueName: string): Promise<QueueCounts> {
    const counts = await this.queue(queueName).getJobCounts('waiting', 'delayed', 'active', 'completed', 'failed');
    return {
      waiting: counts.waiting ?? 0,
      delayed: counts.delayed ?? 0,
      active: counts.active ?? 0,
      completed: counts.completed ?? 0,
      failed: counts.failed ?? 0,
    };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.workers].map((worker) => worker.close()));
      await Promise.all([...this.queues.values()].map((queue) => queue.close()));
      // Normally BullMQ has ended its own connections by now; with Redis unreachable, they and ours
      // may still hold commands waiting for it.
      const connections = [this.producerConnection, this.workerConnection, ...(this.workerConnection?.copies ?? [])];
      await Promise.all(connections.map((connection) => connection && end(connection)));
    })();
    return this.closing;
  }

  /**
   * Starts a run of the job's attempt unless one is going on in this process already; then this
   * run takes over the claim (its token is the one Redis now holds) and waits for that run.
   */
  private runOnce(
    queueName: string,
    job: BullMqJob,
    token: string | undefined,
    lockDurationMs: number,
    start: (run: JobRun) => Promise<void>,
  ): Promise<void> {
    const key = JSON.stringify([queueName, job.id, job.attemptsMade]);
    const going = this.runsInProgress.get(key);
    if (going) {
      going.claim = { job, token };
      return going.outcome;
    }
    const running: RunInProgress = { claim: { job, token }, outcome: Promise.resolve() };
    running.outcome = start({ stillClaimed: () => stillHolds(running.claim, lockDurationMs) });
    this.runsInProgress.set(key, running);
    // Only bookkeeping; the caller handles the outcome.
    void running.outcome.catch(() => undefined).finally(() => this.runsInProgress.delete(key));
    return running.outcome;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('The job queue is closed');
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      this.producerConnection ??= this.watched(
        new Redis(this.redisUrl, this.connectionOptions({ enableOfflineQueue: false, maxRetriesPerRequest: 0 })),
      );
      queue = new Queue(name, { connection: this.producerConnection, prefix: this.prefix });
      queue.on('error', this.onError);
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Shared by all workers for ordinary commands; each worker copies it for its blocking one. */
  private connectionForWorkers(): Redis {
    this.workerConnection ??= this.watched(
      new ConnectionWithCopies(this.redisUrl, this.connectionOptions({ maxRetriesPerRequest: null }), (copy) =>
        this.watched(copy),
      ),
    );
    return this.workerConnection;
  }

  /** Every connection reports its errors (none goes unhandled) and its recoveries. */
  private watched<Connection extends Redis>(connection: Connection): Connection {
    connection.on('error', this.onError);
    connection.on('ready', this.onReady);
    return connection;
  }

  private connectionOptions(options: ConnectionOptions): ConnectionOptions {
    return {
      ...options,
      // Once closing, a lost connection ends instead of reconnecting, which fails whatever still
      // waits for Redis and lets closing finish. Copies of the connection inherit this.
      retryStrategy: (attempt) => (this.closing ? null : Math.min(attempt * 100, 2_000)),
    };
  }
}

/** A run of a job in this process, and the claim (lock) of the latest hand-out of its job. */
interface RunInProgress {
  claim: { job: BullMqJob; token: string | undefined };
  outcome: Promise<void>;
}

/**
 * Whether the claim is still the job's lock in Redis, renewing it if so. An answer that does not
 * come within the lock's duration (Redis unreachable) counts as no: the claim may lapse meanwhile.
 */
async function stillHolds(claim: RunInProgress['claim'], lockDurationMs: number): Promise<boolean> {
  const { job, token } = claim;
  if (token === undefined) return false;
  const extended = job.extendLock(token, lockDurationMs).then(
    (result) => Number(result) === 1,
    () => false,
  );
  let timer: NodeJS.Timeout | undefined;
  const unanswered = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), lockDurationMs)));
  try {
    return await Promise.race([extended, unanswered]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * BullMQ job ids may neither contain ':' nor be plain integers. Escaping '%' and ':' keeps the
 * mapping reversible, and the prefix keeps every id from reading as an integer.
 */
function toBullMqJobId(jobId: string): string {
  return `j_${jobId.replaceAll('%', '%25').replaceAll(':', '%3A')}`;
}

function fromBullMqJobId(bullMqJobId: string): string {
  return bullMqJobId.slice(2).replace(/%3A|%25/g, (escape) => (escape === '%3A' ? ':' : '%'));
}

function toJob<Data>(job: BullMqJob, attempt: number): Job<Data> {
  return {
    id: fromBullMqJobId(job.id ?? ''),
    queue: job.queueName,
    name: job.name,
    data: job.data as Data,
    attempt,
    maxAttempts: job.opts.attempts ?? 1,
  };
}

/** Fixed and exponential are BullMQ built-ins; a schedule is stored as is and read back by the worker. */
function toBullMqBackoff(backoff: Backoff | undefined): BackoffOptions | undefined {
  if (!backoff) return undefined;
  if (backoff.type === 'schedule') {
    const schedule: BackoffOptions & Backoff = { type: 'schedule', delaysMs: backoff.delaysMs };
    return schedule;
  }
  return { type: backoff.type, delay: backoff.delayMs };
}

/** BullMQ calls this for backoff types it does not know, with attemptsMade = 1 for the first retry. */
function scheduleBackoffStrategy(attemptsMade: number, type?: string, _error?: Error, job?: MinimalJob): number {
  const backoff: unknown = job?.opts.backoff;
  if (isSchedule(backoff)) return retryDelayMs(backoff, attemptsMade);
  throw new Error(`Unknown backoff type ${type}`);
}

function isSchedule(backoff: unknown): backoff is Extract<Backoff, { type: 'schedule' }> {
  const candidate = backoff as { type?: unknown; delaysMs?: unknown } | null | undefined;
  return candidate?.type === 'schedule' && Array.isArray(candidate.delaysMs);
}

type ConnectionOptions = Pick<RedisOptions, 'enableOfflineQueue' | 'maxRetriesPerRequest' | 'retryStrategy'>;

/** Remembers the copies BullMQ makes of it (each worker's blocking connection), so closing can end them. */
class ConnectionWithCopies extends Redis {
  readonly copies = new Set<Redis>();

  constructor(
    url: string,
    options: ConnectionOptions,
    private readonly onCopy: (copy: Redis) => void,
  ) {
    super(url, options);
  }

  override duplicate<Override extends Partial<RedisOptions> | undefined = undefined>(override?: Override) {
    const copy = super.duplicate(override);
    this.onCopy(copy);
    this.copies.add(copy);
    copy.once('end', () => this.copies.delete(copy));
    return copy;
  }
}

/**
 * Resolves once the connection has reached Redis; fails at once while it is between reconnection
 * attempts, and with its first attempt's error when it has not reached Redis yet. BullMQ itself
 * waits for a connection to be ready, so an enqueue on a Redis that was never reachable (a wrong
 * `REDIS_URL`, Redis not started yet) would otherwise hang its caller until Redis appears.
 */
async function reached(connection: Redis): Promise<void> {
  if (connection.status === 'ready') return;
  if (connection.status !== 'wait' && connection.status !== 'connecting' && connection.status !== 'connect')
    throw new Error(`Redis is unreachable (connection ${connection.status})`);
  // One wait per connection, however many enqueues arrive before it is ready (a scheduler's first
  // scan enqueues dozens at once): listeners per enqueue passed Node's limit of 16 per event and
  // printed a "possible memory leak" warning.
  let waiting = connectionsReaching.get(connection);
  if (!waiting) {
    waiting = untilReady(connection).finally(() => connectionsReaching.delete(connection));
    connectionsReaching.set(connection, waiting);
  }
  await waiting;
}

const connectionsReaching = new WeakMap<Redis, Promise<void>>();

function untilReady(connection: Redis): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (outcome: () => void) => () => {
      connection.off('ready', onReady).off('error', onError).off('close', onClose);
      outcome();
    };
    const onReady = settle(resolve);
    let failure = 'the connection closed';
    const onError = (error: Error) => (failure = error.message);
    const onClose = settle(() => reject(new Error(`Redis is unreachable: ${failure}`)));
    connection.once('ready', onReady).on('error', onError).once('close', onClose);
  });
}

/**
 * Ends a connection, failing the commands still queued on it. ioredis cannot disconnect a
 * connection that is between reconnection attempts: it cancels the next attempt and the connection
 * then never ends, keeping its commands pending forever. Instead, attempt at once: as the job queue
 * is closing, a failed attempt ends the connection, and a successful one is disconnected.
 */
async function end(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  const ended = new Promise<void>((resolve) => connection.once('end', () => resolve()));
  if (connection.status === 'reconnecting') {
    connection.connect().then(
      () => connection.disconnect(),
      () => undefined,
    );
  } else {
    connection.disconnect();
  }
  await ended;
}

/** Waits until the set is empty, including promises added while waiting. */
async function allSettled(promises: Set<Promise<unknown>>): Promise<void> {
  while (promises.size > 0) await Promise.allSettled(promises);
}

/** Waits for the promise to settle, but no longer than ms. */
async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([promise.catch(() => undefined), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function notifyFailed(onFailed: NonNullable<ProcessOptions['onFailed']>, job: Job, error: Error): Promise<void> {
  try {
    await onFailed(job, error);
  } catch (callbackError) {
    // The job has already failed for good; a broken callback must not crash the worker.
    console.error(`onFailed for job ${job.id} in queue ${job.queue} threw`, callbackError);
  }
}
