/**
 * The Jobs port's contract, run against every adapter. Each test gets a fresh, empty JobQueue
 * from `open` and closes it afterwards. Delays are kept small; timings are checked loosely.
 */
import { expect } from 'chai';
import type * as jobsPort from '../../packages/jobs/job-queue.ts';
import { JobPostponed, type Backoff, type Job, type JobQueue } from '../../packages/jobs/job-queue.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Time to wait before concluding that something did not happen. */
const quietPeriodMs = 250;

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

function gapsBetween(times: number[]): number[] {
  return times.slice(1).map((time, index) => time - (times[index] as number));
}

export function describeJobQueueContract(adapterName: string, open: () => Promise<JobQueue>): void {
  describe(`JobQueue contract: ${adapterName}`, function () {
    let jobs: JobQueue;

    beforeEach(async function () {
      jobs = await open();
    });

    afterEach(async function () {
      await jobs.close();
    });

    describe('processing', function () {
      it('hands a job to the worker with its id, queue, name and data', async function () {
        const seen: Job[] = [];
        jobs.process('receipts', async (job) => {
          seen.push(job);
        });

        const result = await jobs.enqueue('receipts', 'send-receipt', { chargeId: 'ch_1', amount: 499 });

        await waitFor(() => seen.length === 1, 'the job to be processed');
        expect(result.deduplicated).to.equal(false);
        expect(seen[0]).to.deep.equal({
          id: result.jobId,
          queue: 'receipts',
          name: 'send-receipt',
          data: { chargeId: 'ch_1', amount: 499 },
          attempt: 1,
          maxAttempts: 1,
        });
      });

      it('keeps jobs enqueued before any worker until one starts', async function () {
        for (const chargeId of ['ch_1', 'ch_2', 'ch_3']) await jobs.enqueue('receipts', 'send-receipt', { chargeId });
        expect((await jobs.counts('receipts')).waiting).to.equal(3);

        const processed: string[] = [];
        jobs.process<{ chargeId: string }>('receipts', async (job) => {
          processed.push(job.data.chargeId);
        });

        await waitFor(() => processed.length === 3, 'the three jobs to be processed');
        expect([...processed].sort()).to.deep.equal(['ch_1', 'ch_2', 'ch_3']);
      });

      it('keeps queues apart', async function () {
        const receipts: string[] = [];
        jobs.process('receipts', async (job) => {
          receipts.push(job.name);
        });

        await jobs.enqueue('webhooks', 'deliver', {});
        await jobs.enqueue('receipts', 'send-receipt', {});

        await waitFor(() => receipts.length === 1, 'the receipt job');
        await sleep(quietPeriodMs);
        expect(receipts).to.deep.equal(['send-receipt']);
        expect((await jobs.counts('webhooks')).waiting).to.equal(1);
      });
    });

    describe('deduplication by job id', function () {
      it('ignores a second enqueue of a waiting job id and reports it', async function () {
        const first = await jobs.enqueue('captures', 'capture', { amount: 100 }, { jobId: 'capture-ch_1' });
        const second = await jobs.enqueue('captures', 'capture', { amount: 999 }, { jobId: 'capture-ch_1' });
        expect(first).to.deep.equal({ jobId: 'capture-ch_1', deduplicated: false });
        expect(second).to.deep.equal({ jobId: 'capture-ch_1', deduplicated: true });

        const seen: Job[] = [];
        jobs.process('captures', async (job) => {
          seen.push(job);
        });
        await waitFor(() => seen.length === 1, 'the job to be processed');
        await sleep(quietPeriodMs);
        expect(seen).to.have.length(1);
        expect(seen[0]?.data).to.deep.equal({ amount: 100 });
      });

      it('ignores a delayed job id enqueued again', async function () {
        await jobs.enqueue('captures', 'capture', {}, { jobId: 'capture-ch_2', delayMs: 60_000 });
        const again = await jobs.enqueue('captures', 'capture', {}, { jobId: 'capture-ch_2' });
        expect(again.deduplicated).to.equal(true);
        expect(await jobs.counts('captures')).to.include({ waiting: 0, delayed: 1 });
      });

      it('ignores an active job id enqueued again', async function () {
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let runs = 0;
        jobs.process('captures', async () => {
          runs++;
          await released;
        });
        await jobs.enqueue('captures', 'capture', {}, { jobId: 'capture-ch_3' });
        await waitFor(() => runs === 1, 'the job to start');

        const again = await jobs.enqueue('captures', 'capture', {}, { jobId: 'capture-ch_3' });
        release();

        expect(again.deduplicated).to.equal(true);
        await waitFor(async () => (await jobs.counts('captures')).completed === 1, 'the job to complete');
        await sleep(quietPeriodMs);
        expect(runs).to.equal(1);
      });

      it('ignores a job id that completed within the retention window', async function () {
        let runs = 0;
        jobs.process('captures', async () => {
          runs++;
        });
        await jobs.enqueue('captures', 'capture', {}, { jobId: 'capture-ch_4' });
        await waitFor(async () => (await jobs.counts('captures')).completed === 1, 'the job to complete');

        const again = await jobs.enqueue('captures', 'capture', {}, { jobId: 'capture-ch_4' });

        expect(again.deduplicated).to.equal(true);
        await sleep(quietPeriodMs);
        expect(runs).to.equal(1);
      });

      it('runs a job id again once its previous job has failed for good', async function () {
        const seen: unknown[] = [];
        let failures = 0;
        jobs.process<{ succeed: boolean }>(
          'captures',
          async (job) => {
            seen.push(job.data);
            if (!job.data.succeed) throw new Error('acquirer unavailable');
          },
          { onFailed: () => void failures++ },
        );
        await jobs.enqueue('captures', 'capture', { succeed: false }, { jobId: 'capture-ch_5' });
        await waitFor(() => failures === 1, 'the first job to fail');

        const again = await jobs.enqueue('captures', 'capture', { succeed: true }, { jobId: 'capture-ch_5' });

        expect(again).to.deep.equal({ jobId: 'capture-ch_5', deduplicated: false });
        await waitFor(() => seen.length === 2, 'the job to run again');
        expect(seen).to.deep.equal([{ succeed: false }, { succeed: true }]);
      });

      it('takes any string as a job id and hands it back unchanged', async function () {
        const ids = ['42', '0', 'refund:re_1:full', 'a:b', 'a%3Ab', '%', 'ünïcødé id'];
        const seen: string[] = [];
        jobs.process('refunds', async (job) => {
          seen.push(job.id);
        });

        for (const jobId of ids) {
          expect(await jobs.enqueue('refunds', 'refund', {}, { jobId })).to.deep.equal({ jobId, deduplicated: false });
        }

        await waitFor(() => seen.length === ids.length, 'every job to be processed');
        expect([...seen].sort()).to.deep.equal([...ids].sort());
      });
    });

    describe('delays', function () {
      it('does not run a delayed job before its delay', async function () {
        const delayMs = 300;
        let ranAfterMs: number | undefined;
        const enqueuedAt = Date.now();
        jobs.process('expiries', async () => {
          ranAfterMs = Date.now() - enqueuedAt;
        });

        await jobs.enqueue('expiries', 'expire-authorization', {}, { delayMs });

        expect((await jobs.counts('expiries')).delayed).to.equal(1);
        await waitFor(() => ranAfterMs !== undefined, 'the delayed job to run');
        expect(ranAfterMs).to.be.at.least(delayMs * 0.9);
      });
    });

    describe('postponing', function () {
      it('runs a postponed job again after the delay, without counting an attempt or failing it', async function () {
        const runs: Array<{ attempt: number; at: number }> = [];
        let failures = 0;
        jobs.process(
          'webhooks',
          async (job) => {
            runs.push({ attempt: job.attempt, at: Date.now() });
            if (runs.length < 3) throw new JobPostponed(200);
          },
          { onFailed: () => void failures++ },
        );

        await jobs.enqueue('webhooks', 'deliver', {}, { jobId: 'postponed-1' });

        await waitFor(async () => (await jobs.counts('webhooks')).completed === 1, 'the job to complete');
        expect(runs.map((run) => run.attempt)).to.deep.equal([1, 1, 1]);
        for (const gap of gapsBetween(runs.map((run) => run.at))) expect(gap).to.be.at.least(180);
        expect(failures).to.equal(0);
        expect((await jobs.enqueue('webhooks', 'deliver', {}, { jobId: 'postponed-1' })).deduplicated).to.equal(true);
      });

      it('postpones also when the handler was loaded with another copy of the jobs port module', async function () {
        // As a dynamically imported adapter can see: the handler's JobPostponed is another class.
        const copy = (await import(
          `${new URL('../../packages/jobs/job-queue.ts', import.meta.url).href}?another-copy`
        )) as typeof jobsPort;
        expect(copy.JobPostponed).to.not.equal(JobPostponed);
        const runs: number[] = [];
        let failures = 0;
        jobs.process(
          'webhooks',
          async (job) => {
            runs.push(job.attempt);
            if (runs.length < 2) throw new copy.JobPostponed(100);
          },
          { onFailed: () => void failures++ },
        );

        await jobs.enqueue('webhooks', 'deliver', {}, { jobId: 'postponed-by-a-copy' });

        await waitFor(async () => (await jobs.counts('webhooks')).completed === 1, 'the job to complete');
        expect({ runs, failures, failed: (await jobs.counts('webhooks')).failed }).to.deep.equal({
          runs: [1, 1],
          failures: 0,
          failed: 0,
        });
      });

      it('frees the worker slot of a postponed job for the next one at once', async function () {
        const order: string[] = [];
        jobs.process('webhooks', async (job) => {
          const { name } = job.data as { name: string };
          order.push(name);
          if (name === 'busy' && order.filter((seen) => seen === 'busy').length === 1) throw new JobPostponed(300);
        });

        await jobs.enqueue('webhooks', 'deliver', { name: 'busy' });
        await jobs.enqueue('webhooks', 'deliver', { name: 'ready' });

        await waitFor(() => order.length === 3, 'both jobs to run');
        expect(order).to.deep.equal(['busy', 'ready', 'busy']);
      });
    });

    describe('retries', function () {
      it('retries a failing job up to its attempts, numbering each attempt', async function () {
        const attempts: Array<[number, number]> = [];
        let failures = 0;
        jobs.process(
          'webhooks',
          async (job) => {
            attempts.push([job.attempt, job.maxAttempts]);
            if (job.attempt < 3) throw new Error('endpoint returned 503');
          },
          { onFailed: () => void failures++ },
        );

        await jobs.enqueue('webhooks', 'deliver', {}, { attempts: 3 });

        await waitFor(async () => (await jobs.counts('webhooks')).completed === 1, 'the job to complete');
        expect(attempts).to.deep.equal([
          [1, 3],
          [2, 3],
          [3, 3],
        ]);
        expect(failures).to.equal(0);
      });

      it('does not retry a job enqueued without attempts', async function () {
        let runs = 0;
        let failures = 0;
        jobs.process(
          'webhooks',
          async () => {
            runs++;
            throw new Error('endpoint returned 503');
          },
          { onFailed: () => void failures++ },
        );

        await jobs.enqueue('webhooks', 'deliver', {});

        await waitFor(() => failures === 1, 'the job to fail');
        await sleep(quietPeriodMs);
        expect(runs).to.equal(1);
        expect(await jobs.counts('webhooks')).to.include({ failed: 1, waiting: 0, delayed: 0, active: 0 });
      });

      it('calls onFailed once, after the last attempt, with that attempt and the error', async function () {
        let runs = 0;
        const failed: Array<{ job: Job; error: Error; runsBefore: number }> = [];
        jobs.process(
          'webhooks',
          async () => {
            runs++;
            throw new Error(`endpoint returned 503 (run ${runs})`);
          },
          { onFailed: (job, error) => void failed.push({ job, error, runsBefore: runs }) },
        );

        const { jobId } = await jobs.enqueue('webhooks', 'deliver', { eventId: 'evt_1' }, { attempts: 3 });

        await waitFor(() => failed.length === 1, 'onFailed to be called');
        await sleep(quietPeriodMs);
        expect(failed).to.have.length(1);
        const [{ job, error, runsBefore }] = failed as [(typeof failed)[number]];
        expect(runsBefore).to.equal(3);
        expect(job).to.deep.equal({
          id: jobId,
          queue: 'webhooks',
          name: 'deliver',
          data: { eventId: 'evt_1' },
          attempt: 3,
          maxAttempts: 3,
        });
        expect(error).to.be.instanceOf(Error);
        expect(error.message).to.equal('endpoint returned 503 (run 3)');
        expect((await jobs.counts('webhooks')).failed).to.equal(1);
      });

      const backoffs: Array<{ backoff: Backoff; attempts: number; expectedGapsMs: number[] }> = [
        { backoff: { type: 'fixed', delayMs: 150 }, attempts: 3, expectedGapsMs: [150, 150] },
        { backoff: { type: 'exponential', delayMs: 60 }, attempts: 4, expectedGapsMs: [60, 120, 240] },
        // The last entry of a schedule repeats.
        { backoff: { type: 'schedule', delaysMs: [100, 250] }, attempts: 4, expectedGapsMs: [100, 250, 250] },
      ];
      for (const { backoff, attempts, expectedGapsMs } of backoffs) {
        it(`waits between attempts as a ${backoff.type} backoff says`, async function () {
          const startedAt: number[] = [];
          jobs.process('webhooks', async () => {
            startedAt.push(Date.now());
            throw new Error('endpoint returned 503');
          });

          await jobs.enqueue('webhooks', 'deliver', {}, { attempts, backoff });

          await waitFor(async () => (await jobs.counts('webhooks')).failed === 1, 'the job to fail for good');
          const gaps = gapsBetween(startedAt);
          expect(gaps).to.have.length(expectedGapsMs.length);
          gaps.forEach((gap, index) => {
            const expected = expectedGapsMs[index] as number;
            expect(gap, `gap ${index + 1} of ${gaps.join(', ')} ms`).to.be.within(expected * 0.9, expected + 1_000);
          });
        });
      }

      it('keeps each queue on its own schedule', async function () {
        const startedAt = new Map<string, number[]>();
        for (const queue of ['fast', 'slow']) {
          startedAt.set(queue, []);
          jobs.process(queue, async (job) => {
            startedAt.get(job.queue)?.push(Date.now());
            throw new Error('endpoint returned 503');
          });
        }

        await jobs.enqueue('fast', 'deliver', {}, { attempts: 2, backoff: { type: 'schedule', delaysMs: [50] } });
        await jobs.enqueue('slow', 'deliver', {}, { attempts: 2, backoff: { type: 'schedule', delaysMs: [400] } });

        await waitFor(async () => (await jobs.counts('slow')).failed === 1, 'the slow job to fail for good');
        const [fastGap] = gapsBetween(startedAt.get('fast') ?? []);
        const [slowGap] = gapsBetween(startedAt.get('slow') ?? []);
        expect(fastGap).to.be.within(45, 350);
        expect(slowGap).to.be.at.least(360);
      });
    });

    describe('concurrency', function () {
      async function maxParallelRuns(concurrency: number | undefined, jobCount: number): Promise<number> {
        let running = 0;
        let maxRunning = 0;
        let finished = 0;
        jobs.process(
          'settlements',
          async () => {
            running++;
            maxRunning = Math.max(maxRunning, running);
            await sleep(150);
            running--;
            finished++;
          },
          concurrency === undefined ? {} : { concurrency },
        );
        for (let index = 0; index < jobCount; index++) await jobs.enqueue('settlements', 'settle', { index });
        await waitFor(() => finished === jobCount, 'every job to finish');
        return maxRunning;
      }

      it('runs jobs in parallel up to the concurrency and not beyond', async function () {
        expect(await maxParallelRuns(3, 7)).to.equal(3);
      });

      it('runs one job at a time by default', async function () {
        expect(await maxParallelRuns(undefined, 3)).to.equal(1);
      });
    });

    describe('counts', function () {
      const none = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };

      it('counts jobs by state', async function () {
        await jobs.enqueue('payouts', 'pay', { succeed: true });
        await jobs.enqueue('payouts', 'pay', { succeed: false });
        await jobs.enqueue('payouts', 'pay', { succeed: true }, { delayMs: 60_000 });
        expect(await jobs.counts('payouts')).to.deep.equal({ ...none, waiting: 2, delayed: 1 });

        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let started = 0;
        jobs.process<{ succeed: boolean }>(
          'payouts',
          async (job) => {
            started++;
            await released;
            if (!job.data.succeed) throw new Error('bank rejected the payout');
          },
          { concurrency: 2 },
        );
        await waitFor(() => started === 2, 'both waiting jobs to start');
        expect(await jobs.counts('payouts')).to.deep.equal({ ...none, delayed: 1, active: 2 });

        release();
        await waitFor(async () => (await jobs.counts('payouts')).active === 0, 'both jobs to finish');
        expect(await jobs.counts('payouts')).to.deep.equal({ ...none, delayed: 1, completed: 1, failed: 1 });
      });

      it('counts an unknown queue as empty', async function () {
        expect(await jobs.counts('never-used')).to.deep.equal(none);
      });
    });

    describe('closing', function () {
      it('closing a worker waits for its running job, and later jobs wait for the next worker', async function () {
        let finished = 0;
        let started = 0;
        const worker = jobs.process('refunds', async () => {
          started++;
          await sleep(200);
          finished++;
        });
        await jobs.enqueue('refunds', 'refund', {});
        await waitFor(() => started === 1, 'the job to start');

        await worker.close();
        expect(finished).to.equal(1);

        await jobs.enqueue('refunds', 'refund', {});
        await sleep(quietPeriodMs);
        expect(started).to.equal(1);
        expect((await jobs.counts('refunds')).waiting).to.equal(1);

        let taken = 0;
        jobs.process('refunds', async () => {
          taken++;
        });
        await waitFor(() => taken === 1, 'the next worker to take the job');
      });

      it('closing the queue waits for running jobs', async function () {
        let started = false;
        let finished = false;
        jobs.process('refunds', async () => {
          started = true;
          await sleep(200);
          finished = true;
        });
        await jobs.enqueue('refunds', 'refund', {});
        await waitFor(() => started, 'the job to start');

        await jobs.close();

        expect(finished).to.equal(true);
      });

      it('refuses new work once closed', async function () {
        await jobs.close();
        let error: unknown;
        try {
          await jobs.enqueue('refunds', 'refund', {});
        } catch (thrown) {
          error = thrown;
        }
        expect(error).to.be.instanceOf(Error);
      });
    });
  });
}
