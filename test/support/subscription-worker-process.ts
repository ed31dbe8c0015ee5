/**
 * A worker-role process for the BullMQ kill test, run from its build (`build-service.ts`) with the
 * service's environment (DATA_DIR, REDIS_URL): the real Worker with the real job processors and
 * due-work sources, on BullMQ with short claims (1 s) so that a killed worker's job comes back
 * quickly. With FAULT_HANG_AFTER_EVENT=<type> it stops for good right after recording an event of
 * that type and says so on stdout, so that the test can SIGKILL it at exactly that point: a crash
 * we cannot cause otherwise.
 */
import { loadConfig } from '../../packages/config/environment.ts';
import { BullMqJobQueue } from '../../packages/jobs/bullmq-job-queue.ts';
import { createLogger } from '../../packages/observability/logger.ts';
import { openPlatform } from '../../services/platform.ts';
import { dueWorkSources, jobProcessors } from '../../services/worker/job-processors.ts';
import { Worker } from '../../services/worker/worker.ts';

const config = loadConfig();
if (!config.redisUrl) throw new Error('REDIS_URL is required');
const opened = await openPlatform(config);
const hangAfter = process.env.FAULT_HANG_AFTER_EVENT;
if (hangAfter) {
  const append = opened.events.appendToStream.bind(opened.events);
  opened.events.appendToStream = async (streamId, events, options) => {
    const result = await append(streamId, events, options);
    if (events.some((event) => event.type === hangAfter)) {
      process.stdout.write(`HANGING after ${hangAfter} in ${streamId}\n`);
      await new Promise(() => undefined);
    }
    return result;
  };
}
const jobs = new BullMqJobQueue(config.redisUrl, { prefix: 'payments', lockDurationMs: 1_000, stalledIntervalMs: 200 });
const platform = { ...opened, jobs };
await platform.readModels.start();
const worker = new Worker(platform, createLogger(config.logLevel), jobProcessors(platform), dueWorkSources(platform));
worker.start();
process.stdout.write('WORKER READY\n');
process.once('SIGTERM', () => {
  // A signal listener cannot be awaited; the process exits at the end of this shutdown.
  void (async () => {
    await worker.stop();
    await jobs.close();
    await opened.close();
    process.exit(0);
  })();
});
