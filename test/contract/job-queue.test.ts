import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { expect } from 'chai';
import sinon from 'sinon';
import { BullMqJobQueue } from '../../packages/jobs/bullmq-job-queue.ts';
import { InProcessJobQueue, type Clock } from '../../packages/jobs/in-process-job-queue.ts';
import type { Job } from '../../packages/jobs/job-queue.ts';
import { redisServerAvailable, startRedisServer, type RedisServer } from '../support/redis-server.ts';
import { describeJobQueueContract } from './job-queue.contract.ts';

describeJobQueueContract('in-process', async () => new InProcessJobQueue());

describe('InProcessJobQueue on a fake clock', function () {
  let clock: sinon.SinonFakeTimers;
  let fakeClock: Clock;
  let jobs: InProcessJobQueue;

  beforeEach(function () {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    fakeClock = {
      now: () => clock.now,
      setTimeout: (callback, ms) => clock.setTimeout(callback, ms),
      clearTimeout: (timer) => clock.clearTimeout(timer as ReturnType<typeof clock.setTimeout>),
    };
  });

  afterEach(async function () {
    await jobs.close();
    clock.restore();
  });

  it('waits out long delays and backoffs on the clock it is given', async function () {
    jobs = new InProcessJobQueue({ clock: fakeClock });
    const attempts: number[] = [];
    jobs.process('expiries', async (job) => {
      attempts.push(job.attempt);
      throw new Error('acquirer unavailable');
    });

    await jobs.enqueue(
      'expiries',
      'expire-authorization',
      {},
      {
        delayMs: 7 * 24 * 60 * 60_000,
        attempts: 2,
        backoff: { type: 'fixed', delayMs: 60 * 60_000 },
      },
    );
    await clock.tickAsync(7 * 24 * 60 * 60_000 - 1);
    expect(attempts).to.deep.equal([]);
    await clock.tickAsync(1);
    expect(attempts).to.deep.equal([1]);
    await clock.tickAsync(60 * 60_000);
    expect(attempts).to.deep.equal([1, 2]);
  });

  it('frees a completed job id once the retention window has passed', async function () {
    jobs = new InProcessJobQueue({ clock: fakeClock, completedRetentionMs: 60_000 });
    let runs = 0;
    jobs.process('captures', async () => {
      runs++;
    });

    await jobs.enqueue('captures', 'capture', {}, { jobId: 'capture-ch_1' });
    await clock.tickAsync(0);
    expect(runs).to.equal(1);

    await clock.tickAsync(59_999);
    expect((await jobs.enqueue('captures', 'capture', {}, { jobId: 'capture-ch_1' })).deduplicated).to.equal(true);

    await clock.tickAsync(1);
    expect((await jobs.counts('captures')).completed).to.equal(0);
    expect((await jobs.enqueue('captures', 'capture', {}, { jobId: 'capture-ch_1' })).deduplicated).to.equal(false);
    await clock.tickAsync(0);
    expect(runs).to.equal(2);
  });
});

if (!redisServerAvailable()) {
  console.warn(
    '\n*** redis-server is not on PATH: the BullMQ job queue tests are SKIPPED. ' +
      'Install it (e.g. apt-get install redis-server) to run them. ***\n',
  );
}
const describeWithRedis = redisServerAvailable() ? describe : describe.skip;

describeWithRedis('BullMqJobQueue on a real redis-server', function () {
  let redis: RedisServer;
  /** Every JobQueue gets its own key prefix, so tests never see each other's jobs. */
  const freshPrefix = () => `test-${randomUUID()}`;

  before(async function () {
    const started = await startRedisServer();
    if (!started) throw new Error('redis-server disappeared from PATH');
    redis = started;
  });

  after(async function () {
    await redis?.stop();
  });

  describeJobQueueContract('BullMQ', async () => new BullMqJobQueue(redis.url, { prefix: freshPrefix() }));

  it('takes dozens of enqueues made before its connection is ready without a "memory leak" warning', async function () {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const jobs = new BullMqJobQueue(redis.url, { prefix: freshPrefix() });
    try {
      // As a worker's first scan does: every due delivery at once, on a connection still opening.
      const enqueued = await Promise.all(
        Array.from({ length: 40 }, (_, i) => jobs.enqueue('deliveries', 'deliver', { i }, { jobId: `delivery-${i}` })),
      );
      expect(enqueued.filter((result) => !result.deduplicated)).to.have.length(40);
      expect((await jobs.counts('deliveries')).waiting).to.equal(40);
      // Process warnings are emitted on the next tick.
      await new Promise((resolveTick) => setImmediate(resolveTick));
      expect(warnings).to.deep.equal([]);
    } finally {
      process.off('warning', onWarning);
      await jobs.close();
    }
  });

  describe('across processes', function () {
    it('lets another instance on the same Redis process what this one enqueued', async function () {
      const prefix = freshPrefix();
      const api = new BullMqJobQueue(redis.url, { prefix });
      const worker = new BullMqJobQueue(redis.url, { prefix });
      try {
        const processed = new Promise<Job>((resolve) => {
          worker.process('receipts', async (job) => resolve(job));
        });

        const receipt = { jobId: 'receipt:ch_1' };
        await api.enqueue('receipts', 'send-receipt', { chargeId: 'ch_1' }, receipt);

        expect(await processed).to.deep.include({
          id: 'receipt:ch_1',
          name: 'send-receipt',
          data: { chargeId: 'ch_1' },
        });
        expect((await api.enqueue('receipts', 'send-receipt', {}, receipt)).deduplicated).to.equal(true);
      } finally {
        await api.close();
        await worker.close();
      }
    });

    it('gives a job whose worker process was killed mid-job to another worker', async function () {
      const prefix = freshPrefix();
      const doomed = startHangingWorker(redis.url, prefix, 'settlements');
      const api = new BullMqJobQueue(redis.url, { prefix });
      const survivor = new BullMqJobQueue(redis.url, { prefix, stalledIntervalMs: 200 });
      try {
        await api.enqueue('settlements', 'settle', { batch: 7 }, { jobId: 'batch:7' });
        expect(await doomed.jobStarted).to.include({ id: 'batch:7' });
        await doomed.kill();

        const recovered = await new Promise<Job>((resolve) => {
          survivor.process('settlements', async (job) => resolve(job));
        });

        expect(recovered).to.deep.include({ id: 'batch:7', name: 'settle', data: { batch: 7 } });
      } finally {
        await doomed.kill();
        await api.close();
        await survivor.close();
      }
    });
  });

  describe('when the claim of a running job lapses', function () {
    /** Blocks the event loop as a starved process does: no lock is renewed meanwhile. */
    const starve = (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until);
    };
    const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
    /**
     * Short locks, checked often, so that a starvation of 2.5 s lets one lapse and the job go back;
     * not so short that a loaded machine's ordinary lag lets the second hand-out lapse as well.
     */
    const shortClaims = { lockDurationMs: 1_000, stalledIntervalMs: 200 };
    const lapsedClaims = (errors: Error[]) => errors.filter((error) => /renew lock|Missing lock/.test(error.message));

    it('does not start a second run of the attempt while the first still runs in this process', async function () {
      const errors: Error[] = [];
      const jobs = new BullMqJobQueue(redis.url, {
        prefix: freshPrefix(),
        ...shortClaims,
        onError: (error) => void errors.push(error),
      });
      try {
        let runs = 0;
        let running = 0;
        let deliveries = 0;
        jobs.process(
          'webhooks',
          async () => {
            runs++;
            running++;
            if (runs === 1) {
              starve(2_500);
              // Time for the lapsed job to go back to the queue and be taken again by a free slot.
              await sleep(3_000);
            }
            deliveries++;
            running--;
          },
          { concurrency: 4 },
        );

        await jobs.enqueue('webhooks', 'deliver', {}, { jobId: 'webhook:we_1:evt_1:1' });

        await waitUntil(async () => (await jobs.counts('webhooks')).completed === 1, 'the job to complete');
        await waitUntil(() => running === 0, 'every run to end');
        expect(lapsedClaims(errors), 'the claim lapsed').to.have.length.above(0);
        expect({ runs, deliveries }).to.deep.equal({ runs: 1, deliveries: 1 });
        expect(await jobs.counts('webhooks')).to.include({ completed: 1, failed: 0, waiting: 0, active: 0 });
      } finally {
        await jobs.close();
      }
    });

    it('tells a run whose job another process has taken that it no longer holds it', async function () {
      const prefix = freshPrefix();
      const errors: Error[] = [];
      const starved = new BullMqJobQueue(redis.url, {
        prefix,
        ...shortClaims,
        onError: (error) => void errors.push(error),
      });
      const other = new BullMqJobQueue(redis.url, {
        prefix,
        ...shortClaims,
        onError: (error) => void errors.push(error),
      });
      try {
        let deliveries = 0;
        let claimedBeforeStarving: boolean | undefined;
        let claimedAfterTakenOver: boolean | undefined;
        let takenOver!: () => void;
        const otherRunStarted = new Promise<void>((resolve) => (takenOver = resolve));
        starved.process('webhooks', async (_job, run) => {
          claimedBeforeStarving = await run.stillClaimed();
          starve(2_500);
          await otherRunStarted;
          claimedAfterTakenOver = await run.stillClaimed();
          if (claimedAfterTakenOver) deliveries++;
        });
        await starved.enqueue('webhooks', 'deliver', {}, { jobId: 'webhook:we_1:evt_2:1' });
        await waitUntil(() => claimedBeforeStarving !== undefined, 'the first run to start');
        other.process('webhooks', async (_job, run) => {
          takenOver();
          if (await run.stillClaimed()) deliveries++;
        });

        await waitUntil(() => claimedAfterTakenOver !== undefined, 'the first run to ask again');
        await waitUntil(async () => (await other.counts('webhooks')).completed === 1, 'the job to complete');
        expect({ claimedBeforeStarving, claimedAfterTakenOver, deliveries }).to.deep.equal({
          claimedBeforeStarving: true,
          claimedAfterTakenOver: false,
          deliveries: 1,
        });
      } finally {
        await starved.close();
        await other.close();
      }
    });
  });

  describe('when Redis has never been reachable', function () {
    it('fails the first enqueue with the connection error instead of waiting for Redis', async function () {
      const nobodyListens = await startRedisServer();
      if (!nobodyListens) throw new Error('redis-server disappeared from PATH');
      await nobodyListens.stop();
      const jobs = new BullMqJobQueue(nobodyListens.url, { prefix: freshPrefix(), onError: () => undefined });
      try {
        const startedAt = Date.now();
        const error = await jobs.enqueue('refunds', 'refund', {}).then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(error).to.be.instanceOf(Error);
        expect((error as Error).message).to.match(/Redis is unreachable: .*ECONNREFUSED/);
        expect(Date.now() - startedAt).to.be.below(2_000);
        // Still failing at once while the connection keeps trying.
        const again = await jobs.enqueue('refunds', 'refund', {}).then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(again).to.be.instanceOf(Error);
      } finally {
        await jobs.close();
      }
    });
  });

  describe('when Redis is lost', function () {
    it('fails enqueues at once, also one in flight as Redis goes, and still closes once the running job has finished', async function () {
      const lostRedis = await startRedisServer();
      if (!lostRedis) throw new Error('redis-server disappeared from PATH');
      // Connection errors are expected here, and BullMQ reports each reconnection attempt.
      const jobs = new BullMqJobQueue(lostRedis.url, { prefix: freshPrefix(), onError: () => undefined });
      try {
        let finished = false;
        const started = new Promise<void>((resolve) => {
          jobs.process('refunds', async () => {
            resolve();
            await new Promise((settle) => setTimeout(settle, 500));
            finished = true;
          });
        });
        await jobs.enqueue('refunds', 'refund', {});
        await started;

        // An enqueue still unanswered when Redis goes: a frozen server takes no more commands.
        lostRedis.freeze();
        const inFlightError = jobs.enqueue('refunds', 'refund', {}).then(
          () => undefined,
          (error: unknown) => error,
        );
        await new Promise((settle) => setTimeout(settle, 100));
        await lostRedis.kill();
        const killedAt = Date.now();
        expect(await inFlightError).to.be.instanceOf(Error);
        expect(Date.now() - killedAt).to.be.below(1_000);

        const enqueueStartedAt = Date.now();
        const enqueueError = await jobs.enqueue('refunds', 'refund', {}).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(enqueueError).to.be.instanceOf(Error);
        expect(Date.now() - enqueueStartedAt).to.be.below(1_000);

        const closeStartedAt = Date.now();
        await jobs.close();
        expect(finished).to.equal(true);
        expect(Date.now() - closeStartedAt).to.be.below(5_000);
      } finally {
        await jobs.close();
        await lostRedis.stop();
      }
    });
  });
});

async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A separate node process whose worker takes one job and never finishes it, holding a short lock
 * (1 s) that only lapses once the process is killed. It checks for stalled jobs as often as the
 * survivor does, since the last check's interval throttles every worker of the queue.
 */
function startHangingWorker(redisUrl: string, prefix: string, queue: string) {
  const adapter = new URL('../../packages/jobs/bullmq-job-queue.ts', import.meta.url).href;
  const script = `
    const { BullMqJobQueue } = await import(${JSON.stringify(adapter)});
    const jobs = new BullMqJobQueue(${JSON.stringify(redisUrl)}, {
      prefix: ${JSON.stringify(prefix)}, lockDurationMs: 1000, stalledIntervalMs: 200,
    });
    jobs.process(${JSON.stringify(queue)}, async (job) => {
      process.stdout.write(JSON.stringify(job) + '\\n');
      await new Promise(() => {});
    });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const jobStarted = new Promise<Job>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as Job));
    // `exited` never rejects; it only turns an early exit into this wait's failure.
    void exited.then(() => reject(new Error('the worker process exited before taking the job')));
  });
  // Only the test awaits it; a test that fails early must not leave an unhandled rejection.
  jobStarted.catch(() => undefined);
  return {
    jobStarted,
    async kill(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
