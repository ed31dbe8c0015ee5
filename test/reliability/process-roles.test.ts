import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../support/api-client.ts';
import { cardDetails, type Charge, type Page } from '../support/payments.ts';
import { redisServerAvailable, startRedisServer, type RedisServer } from '../support/redis-server.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.ts';
import {
  removeDataDir,
  runCli,
  startService,
  type AccountKeys,
  type ServiceProcess,
} from '../support/service-process.ts';
import { startWebhookReceiverThread, type WebhookReceiverThread } from '../support/webhook-receiver-thread.ts';
import { allEvents, createEndpoint, deliveriesOf, eventIdOf } from '../support/webhooks.ts';
import { scale, suiteTimeoutMs } from './scale.ts';

if (!redisServerAvailable()) {
  console.warn('\n*** redis-server is not on PATH: the separate-process roles test is SKIPPED. ***\n');
}
const describeWithRedis = redisServerAvailable() ? describe : describe.skip;

type Role = 'api1' | 'api2' | 'projector' | 'worker';
const SERVICE_ROLE: Record<Role, string> = { api1: 'api', api2: 'api', projector: 'projector', worker: 'worker' };
/** The order of the kills in a round: each role once, the two APIs apart. */
const KILL_ORDER: Role[] = ['api1', 'projector', 'worker', 'api2'];
const ROUNDS = Math.max(1, Math.round(scale.killCycles / 4));
const WRITES_BETWEEN_KILLS = Math.ceil(scale.writesPerCycle / 3);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The distributed topology on one host: two `api` processes behind a round-robin proxy, one
 * `projector` and one `worker`, all on one set of embedded files and one Redis (BullMQ, shared
 * rate limits). Clients charge cards with idempotency keys through the proxy while each role in
 * turn is killed with SIGKILL and started again, and an operator rebuilds the read models from
 * the CLI while all four run. Afterwards: every acknowledged charge reads back, no idempotency key
 * charged twice, every charge event delivered to the webhook receiver, and no delivery repeated
 * except one cut short by the worker's kill (at least once, docs/webhooks.md). The receiver
 * answers from a thread of its own, as a merchant's server would: this thread is held for
 * seconds at a time (the card data scan after each kill, the CLI's rebuild), and attempts it left
 * unanswered would time out and be sent again, rightly.
 */
describeWithRedis(`separate api, projector and worker processes under kill -9 (${ROUNDS} × 4 kills)`, function () {
  // Four process starts per round and a rebuild under load: twice the suite's usual allowance.
  this.timeout(2 * suiteTimeoutMs);
  let redis: RedisServer | null = null;
  let proxy: RoundRobinProxy | null = null;
  let receiver: WebhookReceiverThread | null = null;
  const processes = new Map<Role, ServiceProcess>();
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-roles-'));

  after(async () => {
    for (const process of processes.values()) await process.stop();
    await proxy?.close();
    await receiver?.close();
    await redis?.stop();
    removeDataDir(dataDir);
  });

  it('loses no acknowledged charge, charges no key twice and delivers every webhook', async () => {
    redis = await startRedisServer();
    const env = {
      REDIS_URL: redis!.url,
      // Shared by every process, as the distributed profile requires.
      VAULT_KEY: randomBytes(32).toString('hex'),
      FINGERPRINT_KEY: randomBytes(32).toString('hex'),
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      SCHEDULER_INTERVAL_MS: '250',
      WEBHOOK_RETRY_DELAYS: '200,500,1000,2000,4000,8000',
      WEBHOOK_TIMEOUT_MS: '3000',
    };
    const start = async (role: Role): Promise<ServiceProcess> => {
      const started = await startService({ dataDir, env: { ...env, SERVICE_ROLE: SERVICE_ROLE[role] } });
      processes.set(role, started);
      if (role === 'api1' || role === 'api2') proxy?.setTarget(role, started.baseUrl);
      return started;
    };
    for (const role of ['projector', 'worker', 'api1', 'api2'] as const) await start(role);
    proxy = await startRoundRobinProxy({
      api1: processes.get('api1')!.baseUrl,
      api2: processes.get('api2')!.baseUrl,
    });

    const created = await runCli(['accounts', 'create', '--name', 'Roles', '--json'], dataDir, env);
    expect(created.code, created.stderr).to.equal(0);
    const keys = JSON.parse(created.stdout.split('\n')[0]!) as AccountKeys;
    const api = new ApiClient(proxy.url, keys.testSecretKey);
    // The keys the CLI printed work at once through either API process.
    for (const role of ['api1', 'api2'] as const)
      expect((await new ApiClient(processes.get(role)!.baseUrl, keys.testSecretKey).get('/charges')).status).to.equal(
        200,
      );
    // On a thread of its own: the card data scans after each kill and the CLI's rebuild hold this
    // thread for seconds, and a receiver here would leave attempts unanswered meanwhile.
    receiver = await startWebhookReceiverThread();
    const endpoint = await createEndpoint(api, receiver.url);

    const acknowledged = new Map<string, Charge>();
    const sentKeys: string[] = [];
    const answers = new Map<string, number>();
    let staleReads = 0;
    const stale: string[] = [];
    let readsChecked = 0;
    let writing = true;
    /** From just before each kill of the worker until it was dead: attempts sent then may go out again. */
    const workerKills: { from: number; dead: number }[] = [];
    const kills: string[] = [];
    /** Keys never answered 200 in all their tries, with the last answer. */
    const neverAnswered = new Map<string, string>();

    /** A charge sent again with its key until it is answered 200, as a client of a flaky network does. */
    const charge = async (key: string, amount: number): Promise<Charge | null> => {
      for (let attempt = 0; attempt < 100; attempt++) {
        try {
          const answer = await api.post<Charge>('/charges', {
            json: { amount, currency: 'EUR', card: cardDetails('4242424242424242'), metadata: { key } },
            headers: { 'idempotency-key': key },
          });
          answers.set(String(answer.status), (answers.get(String(answer.status)) ?? 0) + 1);
          if (answer.status === 200) return answer.body;
          neverAnswered.set(key, `${answer.status} at ${Date.now()}: ${JSON.stringify(answer.body).slice(0, 200)}`);
        } catch (error) {
          answers.set('network', (answers.get('network') ?? 0) + 1);
          neverAnswered.set(key, `no answer at ${Date.now()}: ${(error as Error).message}`);
        }
        await sleep(150);
      }
      return null;
    };

    /** Reads the charge straight from each API process: both must show what was acknowledged. */
    const readThroughEither = async (acked: Charge): Promise<void> => {
      for (const role of ['api1', 'api2'] as const) {
        for (let attempt = 0; attempt < 50; attempt++) {
          const reader = new ApiClient(processes.get(role)!.baseUrl, keys.testSecretKey);
          const read = await reader.get<Charge>(`/charges/${acked.id}`).catch(() => null);
          // Not answering (killed, restarting, 503 while catching up) is not a stale read: ask again.
          if (read === null || read.status >= 500) {
            await sleep(100);
            continue;
          }
          readsChecked++;
          if (read.status !== 200 || JSON.stringify(read.body) !== JSON.stringify(acked)) {
            staleReads++;
            stale.push(`${role} ${read.status} at ${Date.now()}: ${JSON.stringify(read.body).slice(0, 200)}`);
          }
          break;
        }
      }
    };

    const writers = Array.from({ length: scale.writers }, async (_, writer) => {
      for (let i = 0; writing; i++) {
        const key = `roles-${writer}-${i}`;
        sentKeys.push(key);
        const acked = await charge(key, 100 + i);
        if (!acked) continue;
        neverAnswered.delete(key);
        acknowledged.set(key, acked);
        await readThroughEither(acked);
      }
    });

    const waitForWrites = async (count: number) => {
      const target = acknowledged.size + count;
      while (acknowledged.size < target) await sleep(20);
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const role of KILL_ORDER) {
        await waitForWrites(WRITES_BETWEEN_KILLS);
        const from = Date.now();
        await processes.get(role)!.kill();
        if (role === 'worker') workerKills.push({ from, dead: Date.now() });
        kills.push(`${role}@${from}`);
        await start(role);
      }
    }
    // An operator's rebuild of every read model while all four processes run and clients write.
    await waitForWrites(WRITES_BETWEEN_KILLS);
    const rebuildStarted = Date.now();
    const rebuild = await runCli(['projections', 'rebuild', '--all'], dataDir, env);
    const rebuildSeconds = (Date.now() - rebuildStarted) / 1000;
    expect(rebuild.code, rebuild.stderr).to.equal(0);
    await waitForWrites(WRITES_BETWEEN_KILLS);
    writing = false;
    await Promise.all(writers);

    // Every acknowledged charge reads back through the proxy, as it was answered.
    let lost = 0;
    for (const acked of acknowledged.values()) {
      const read = await api.get<Charge>(`/charges/${acked.id}`);
      if (read.status !== 200 || JSON.stringify(read.body) !== JSON.stringify(acked)) lost++;
    }
    // No key charged twice, acknowledged or not.
    const chargesByKey = new Map<string, number>();
    let startingAfterId: string | undefined;
    for (;;) {
      const page = await api.get<Page<Charge>>('/charges', {
        query: { limit: '100', ...(startingAfterId ? { startingAfterId } : {}) },
      });
      expect(page.status).to.equal(200);
      for (const listed of page.body.list) {
        const key = (listed.metadata as Record<string, string>).key!;
        chargesByKey.set(key, (chargesByKey.get(key) ?? 0) + 1);
      }
      if (!page.body.hasMore) break;
      startingAfterId = page.body.list.at(-1)!.id;
    }
    const doubled = [...chargesByKey.values()].filter((count) => count > 1).length;

    // Every charge event reaches the receiver; a repeat only for an attempt the worker's kill cut short.
    const chargeEvents = [...(await allEvents(api)).values()].filter((event) => /^CHARGE_/.test(event.type));
    const deliveredIds = () => new Set(receiver!.received.map(eventIdOf));
    const deadline = Date.now() + 60_000;
    // One set per look: built per event, the look took minutes at the soak scale.
    const undelivered = () => {
      const delivered = deliveredIds();
      return chargeEvents.filter((event) => !delivered.has(event.id));
    };
    while (undelivered().length > 0 && Date.now() < deadline) await sleep(200);
    const missing = undelivered().length;
    const receipts = new Map<string, number[]>();
    for (const webhook of receiver.received) {
      const id = eventIdOf(webhook);
      receipts.set(id, [...(receipts.get(id) ?? []), webhook.receivedAt]);
    }
    const repeated = [...receipts].filter(([, times]) => times.length > 1);
    const cutShortByKill = (times: number[]) =>
      times.length === 2 && workerKills.some(({ from, dead }) => times[0]! <= dead && times[1]! >= from);
    const repeatedOtherwise = repeated.filter(([, times]) => !cutShortByKill(times));
    if (staleReads > 0)
      console.log(`      stale reads: ${stale.join('; ')}; kills ${kills.join(', ')}; rebuild ${rebuildStarted}`);
    if (neverAnswered.size > 0)
      console.log(
        `      never answered 200: ${[...neverAnswered].map(([key, last]) => `${key}: ${last}`).join('; ')}; kills ${kills.join(', ')}`,
      );
    if (repeatedOtherwise.length > 0) {
      // Each one with the attempts its delivery recorded: a recorded retry, or one attempt sent twice.
      const deliveries = new Map(
        (await deliveriesOf(api, endpoint.id)).map((delivery) => [delivery.eventId, delivery]),
      );
      const described = repeatedOtherwise.map(([eventId, times]) => {
        const delivery = deliveries.get(eventId);
        const attempts = delivery?.attempts.map(
          (attempt) => `${attempt.attempt}@${attempt.created}:${attempt.statusCode ?? attempt.error}`,
        );
        return `${eventId} (${delivery?.id}) received at ${times.join(', ')}, attempts ${attempts?.join(' ')}`;
      });
      console.log(
        `      repeated deliveries outside a worker kill: ${described.join('; ')}; kills ${kills.join(', ')}; rebuild ${rebuildStarted}`,
      );
    }

    console.log(
      `      roles: ${ROUNDS * 4} kills (api, projector, worker, api), ${sentKeys.length} charges sent, ` +
        `${acknowledged.size} acknowledged, ${neverAnswered.size} never answered 200 in 100 tries, ${lost} lost, ${doubled} keys charged twice; ` +
        `reads-your-writes: ${readsChecked} reads through either api, ${staleReads} stale; ` +
        `webhooks: ${chargeEvents.length} charge events, ${receipts.size} delivered, ${missing} missing, ` +
        `${repeated.length} repeated (${repeated.length - repeatedOtherwise.length} cut short by a worker kill); ` +
        `rebuild from the CLI under load: ${rebuildSeconds.toFixed(1)} s; answers: ${JSON.stringify(Object.fromEntries(answers))}`,
    );
    expect(lost, 'acknowledged charges lost').to.equal(0);
    expect(neverAnswered.size, 'charges whose retries never completed').to.equal(0);
    expect(doubled, 'idempotency keys charged twice').to.equal(0);
    expect(staleReads, 'reads that did not show an acknowledged charge').to.equal(0);
    expect(missing, 'charge events never delivered').to.equal(0);
    expect(repeatedOtherwise.length, 'webhooks delivered twice outside a worker kill').to.equal(0);
    expect(acknowledged.size).to.be.at.least(ROUNDS * 4 * WRITES_BETWEEN_KILLS);
  });
});
