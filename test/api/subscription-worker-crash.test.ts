import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import { BullMqJobQueue } from '../../packages/jobs/bullmq-job-queue.ts';
import { ApiClient } from '../support/api-client.ts';
import { testProgram } from '../support/build-service.ts';
import { cardDetails, eventsOf } from '../support/payments.ts';
import { redisServerAvailable, startRedisServer, type RedisServer } from '../support/redis-server.ts';
import {
  removeDataDir,
  runCli,
  startService,
  type AccountKeys,
  type ServiceProcess,
} from '../support/service-process.ts';
import {
  chargesOf,
  createPlan,
  getSubscription,
  waitUntil,
  type Plan,
  type Subscription,
} from '../support/subscriptions.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const describeWithRedis = redisServerAvailable() ? describe : describe.skip;

/**
 * The distributed profile's jobs on a real redis-server: API and projector as their own processes,
 * and a worker process that is SIGKILLed in the middle of a subscription's renewal (here its first
 * paid period, at the end of a trial). After a new worker starts, the period has exactly one charge.
 */
describeWithRedis('subscription renewals survive a killed BullMQ worker', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let dataDir: string;
  let apiProcess: ServiceProcess;
  let projector: ServiceProcess;
  let api: ApiClient;
  let plan: Plan;
  const workers: WorkerProcess[] = [];

  before(async () => {
    redis = (await startRedisServer())!;
    dataDir = mkdtempSync(join(tmpdir(), 'payments-crash-'));
    const created = await runCli(['accounts', 'create', '--name', 'Crash shop', '--json'], dataDir);
    expect(created.code, created.stderr).to.equal(0);
    const keys = JSON.parse(created.stdout) as AccountKeys;
    [apiProcess, projector] = await Promise.all([
      startService({ dataDir, env: { SERVICE_ROLE: 'api', REDIS_URL: redis.url } }),
      startService({ dataDir, env: { SERVICE_ROLE: 'projector' } }),
    ]);
    api = new ApiClient(apiProcess.baseUrl, keys.testSecretKey);
    await waitUntil(async () => (await api.get('/plans')).status === 200, 'the account to be projected');
    plan = await createPlan(api, { amount: 2500 });
  });

  after(async () => {
    for (const worker of workers) await worker.kill();
    await apiProcess?.stop();
    await projector?.stop();
    await redis?.stop();
    removeDataDir(dataDir);
  });

  /** A subscription whose trial ends in two seconds: its first paid period then falls due on real time. */
  async function subscriptionDueSoon(): Promise<{ customerId: string; subscription: Subscription }> {
    const customer = (
      await api.post<{ id: string }>('/customers', {
        json: { email: 'crash@example.com', card: cardDetails('4242424242424242') },
      })
    ).body;
    const trialEnd = Math.floor(Date.now() / 1000) + 2;
    const subscription = (
      await api.post<Subscription>(`/customers/${customer.id}/subscriptions`, { json: { planId: plan.id, trialEnd } })
    ).body;
    expect(subscription.status).to.equal('trialing');
    return { customerId: customer.id, subscription };
  }

  async function domainEvents(objectId: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
    const shown = await runCli(['streams', 'show', objectId, '--json'], dataDir);
    expect(shown.code, shown.stderr).to.equal(0);
    return shown.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
  }

  /** Waits until the subscription is active and no subscription or capture job is left in Redis. */
  async function settled(subscriptionId: string): Promise<void> {
    await waitUntil(
      async () => (await getSubscription(api, subscriptionId)).status === 'active',
      'the renewal to be finished by the new worker',
      30_000,
    );
    const queue = new BullMqJobQueue(redis.url, { prefix: 'payments' });
    try {
      for (const name of ['subscriptions', 'subscription-captures']) {
        await waitUntil(
          async () => {
            const counts = await queue.counts(name);
            expect(counts.failed, `failed ${name} jobs`).to.equal(0);
            return counts.active + counts.waiting + counts.delayed === 0 && counts.completed > 0;
          },
          `the ${name} jobs (the killed worker's one again) to be run`,
          30_000,
        );
      }
    } finally {
      await queue.close();
    }
  }

  for (const killPoint of ['ChargeSucceeded', 'SubscriptionPaymentStarted'] as const) {
    const when =
      killPoint === 'ChargeSucceeded'
        ? 'after charging and before recording the outcome'
        : 'after recording the charge as started and before charging';
    it(`a worker killed ${when} is followed by one that leaves exactly one charge for the period`, async () => {
      const { customerId, subscription } = await subscriptionDueSoon();
      const doomed = startWorker(redis.url, dataDir, { FAULT_HANG_AFTER_EVENT: killPoint });
      workers.push(doomed);
      await doomed.said(`HANGING after ${killPoint}`);
      await doomed.kill();

      // Killed mid-renewal: the period has started, its charge is made (or not yet), the outcome is not recorded.
      const expectedBefore = killPoint === 'ChargeSucceeded' ? 1 : 0;
      await waitUntil(
        async () => (await chargesOf(api, customerId, subscription.id)).length === expectedBefore,
        'the killed worker’s charge to be readable',
      );
      await waitUntil(
        async () => (await getSubscription(api, subscription.id)).currentPeriodStart === subscription.trialEnd,
        'the new period to be readable',
      );
      expect((await getSubscription(api, subscription.id)).status).to.equal('trialing');

      const survivor = startWorker(redis.url, dataDir, {});
      workers.push(survivor);
      await survivor.said('WORKER READY');
      await settled(subscription.id);
      await survivor.stop();

      // The projector runs in its own process: the capture becomes readable a moment after it is made.
      await waitUntil(
        async () => (await chargesOf(api, customerId, subscription.id))[0]?.captured === true,
        'the capture to be readable',
      );
      const charges = await chargesOf(api, customerId, subscription.id);
      expect(charges).to.have.length(1);
      expect(charges[0]).to.include({ amount: 2500, status: 'successful', captured: true, type: 'first_recurring' });
      expect(charges[0]!.created).to.be.at.least(subscription.trialEnd!);
      const recovered = await getSubscription(api, subscription.id);
      expect(recovered).to.include({ status: 'active', currentPeriodStart: subscription.trialEnd });

      const stream = await domainEvents(subscription.id);
      const started = stream.filter((event) => event.type === 'SubscriptionPaymentStarted');
      expect(started).to.have.length(1);
      expect(started[0]!.data.chargeId).to.equal(charges[0]!.id);
      expect(stream.filter((event) => event.type === 'SubscriptionPaymentSucceeded')).to.have.length(1);
      expect(stream.filter((event) => event.type === 'SubscriptionPeriodStarted')).to.have.length(1);
      expect((await eventsOf(api, charges[0]!.id)).filter((event) => event.type === 'CHARGE_SUCCEEDED')).to.have.length(
        1,
      );
    });
  }
});

interface WorkerProcess {
  said(text: string): Promise<void>;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

function startWorker(redisUrl: string, dataDir: string, env: Record<string, string>): WorkerProcess {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [testProgram('subscription-worker-process')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl,
      SCHEDULER_INTERVAL_MS: '200',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return {
    said: (text) =>
      new Promise((resolveSaid, reject) => {
        const check = () => {
          if (output.includes(text)) {
            listeners.delete(check);
            resolveSaid();
          }
        };
        listeners.add(check);
        check();
        // `exited` never rejects; it only turns an early exit into this wait's failure.
        void exited.then(() => reject(new Error(`worker exited before saying "${text}":\n${output}`)));
      }),
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}
