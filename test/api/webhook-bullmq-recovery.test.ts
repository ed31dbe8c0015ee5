import { expect } from 'chai';
import {
  redisServerAvailable,
  startRedisServer,
  startRedisServerOn,
  type RedisServer,
} from '../support/redis-server.ts';
import { useService } from '../support/use-service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import {
  allEvents,
  everyEventDelivered,
  createEndpoint,
  eventIdOf,
  tallyDeliveries,
  waitForDeliveries,
} from '../support/webhooks.ts';

const describeWithRedis = redisServerAvailable() ? describe : describe.skip;

/** How long after an endpoint's answer a worker under load may still be reading it and recording the attempt. */
const ANSWER_RECORDING_MS = 1_000;

/**
 * The distributed profile's webhooks on a real Redis when things die: a service (and so its
 * worker) killed with SIGKILL while its attempts wait for a slow endpoint, and Redis itself killed
 * and brought back empty. A receiver that verifies signatures counts missing and duplicate
 * deliveries: nothing is missing, duplicates are only the attempts the kill cut short or caught as
 * they were answered, deliveries resume within seconds, and the logs say what happened once, as
 * JSON.
 */
describeWithRedis('webhook deliveries over BullMQ recover promptly', function () {
  this.timeout(90_000);
  const { api, service, start } = useService({ startedBy: 'test', ownProcess: true });
  const redisServers: RedisServer[] = [];
  let receiver: WebhookReceiver | null = null;

  afterEach(async () => {
    await receiver?.close();
    for (const server of redisServers.splice(0)) await server.stop();
  });

  const envFor = (redis: RedisServer) => ({
    REDIS_URL: redis.url,
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_RETRY_DELAYS: '500,1000,2000,2000',
    SCHEDULER_INTERVAL_MS: '200',
  });

  it('resumes the deliveries of a killed worker within seconds of its restart, losing none', async () => {
    const redis = (await startRedisServer())!;
    redisServers.push(redis);
    receiver = await startWebhookReceiver();
    receiver.respondWith(() => ({ status: 200, afterMs: 1_500 }));
    await start({ env: envFor(redis) });
    const endpoint = await createEndpoint(api, receiver);
    for (let i = 0; i < 8; i++) await api.post('/customers', { json: { email: `killed-worker-${i}@example.com` } });

    // Killed while attempts wait for the slow endpoint: their jobs stay claimed in Redis.
    await receiver.waitFor(
      (received) => received.filter((webhook) => webhook.answered === 'no answer').length >= 3,
      20_000,
      'attempts in flight',
    );
    const killedAt = Date.now();
    await service.kill();
    const cutShort = new Set(receiver.received.filter((webhook) => webhook.answered === 'no answer').map(eventIdOf));
    // Besides those, an attempt answered so shortly before the kill that the worker may not have
    // read the answer or recorded it yet: it is sent again too.
    const mayArriveTwice = new Set([
      ...cutShort,
      ...receiver.received
        .filter((webhook) => webhook.answeredAt !== undefined && webhook.answeredAt >= killedAt - ANSWER_RECORDING_MS)
        .map(eventIdOf),
    ]);

    await start({ env: envFor(redis) });
    const restartedAt = Date.now();
    const events = await allEvents(api);
    await waitForDeliveries(api, endpoint.id, everyEventDelivered(events), 30_000);

    const resumedAfterMs = [...cutShort].map((eventId) => {
      const again = receiver!.received.find(
        (webhook) => eventIdOf(webhook) === eventId && webhook.receivedAt >= restartedAt,
      );
      return again ? again.receivedAt - restartedAt : Infinity;
    });
    if (process.env.SHOW_LATENCIES) console.log(`cut-short attempts made again after (ms): ${resumedAfterMs}`);
    for (const delay of resumedAfterMs)
      expect(delay, 'a cut-short attempt made again after the restart').to.be.below(8_000);

    const tally = tallyDeliveries(receiver.received, events.keys(), endpoint.secret);
    expect(tally.missing).to.deep.equal([]);
    expect(tally.unexpected).to.deep.equal([]);
    expect(tally.badSignatures).to.equal(0);
    // At least once: only the attempts the kill cut short (or caught as their answer came) may have arrived twice.
    for (const duplicate of tally.duplicates) expect(mayArriveTwice).to.include(duplicate);
  });

  it('sends an event once when its worker, stopped while the endpoint was answering, lost the lock of the attempt', async () => {
    const redis = (await startRedisServer())!;
    redisServers.push(redis);
    receiver = await startWebhookReceiver();
    // The first request is answered late, so that its attempt is still going on when the worker runs again.
    receiver.respondWith((_webhook, count) => (count === 0 ? { status: 200, afterMs: 14_000 } : 200));
    await start({ env: { ...envFor(redis), WEBHOOK_TIMEOUT_MS: '20000' } });
    const endpoint = await createEndpoint(api, receiver);
    await api.post('/customers', { json: { email: 'stopped-worker@example.com' } });
    await receiver.waitFor((received) => received.length === 1, 20_000, 'the attempt to reach the endpoint');

    // Stopped past its lock (5 s), as a starved process is: once it runs again, its own check for
    // lapsed locks hands the job back to the queue, and so to this worker while the attempt goes on.
    service.signal('SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    service.signal('SIGCONT');

    const events = await allEvents(api);
    await waitForDeliveries(api, endpoint.id, everyEventDelivered(events), 30_000);
    const tally = tallyDeliveries(receiver.received, events.keys(), endpoint.secret);
    expect(tally).to.deep.include({ missing: [], unexpected: [], badSignatures: 0, duplicates: [] });
    expect(receiver.received).to.have.length(events.size);
  });

  it('says once that Redis is lost, loses no delivery, and recovers silently when it is back', async () => {
    const redis = (await startRedisServer())!;
    redisServers.push(redis);
    receiver = await startWebhookReceiver();
    await start({ env: envFor(redis) });
    const endpoint = await createEndpoint(api, receiver);
    for (let i = 0; i < 4; i++) await api.post('/customers', { json: { email: `before-${i}@example.com` } });
    await waitForDeliveries(
      api,
      endpoint.id,
      (list) => list.length === 4 && list.every((d) => d.status === 'delivered'),
    );
    const logsBefore = service.output().length;

    redisServers.splice(redisServers.indexOf(redis), 1);
    await redis.kill();
    // The API keeps taking requests promptly; their webhooks wait for Redis.
    for (let i = 0; i < 4; i++) {
      const startedAt = Date.now();
      const created = await api.post('/customers', { json: { email: `during-${i}@example.com` } });
      expect(created.status).to.equal(200);
      expect(Date.now() - startedAt, 'answered without waiting for Redis').to.be.below(2_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    redisServers.push(await startRedisServerOn(redis.port));

    const events = await allEvents(api);
    expect(events.size).to.equal(8);
    await waitForDeliveries(
      api,
      endpoint.id,
      (list) => list.length === 8 && list.every((delivery) => delivery.status === 'delivered'),
      30_000,
    );
    const tally = tallyDeliveries(receiver.received, events.keys(), endpoint.secret);
    expect(tally).to.deep.include({ missing: [], unexpected: [], badSignatures: 0 });
    if (process.env.SHOW_LATENCIES) console.log(`duplicates after the Redis outage: ${tally.duplicates.length}`);

    // Give stragglers (reconnections, late errors) a moment to show in the logs.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const lines = service
      .output()
      .slice(logsBefore)
      .split('\n')
      .filter((line) => line.trim() !== '');
    const entries = lines.map((line) => {
      try {
        return JSON.parse(line) as { level: string; message: string };
      } catch {
        throw new Error(`a log line that is not JSON: ${line}`);
      }
    });
    const outage = entries.filter((entry) => entry.level !== 'http' && entry.level !== 'info');
    expect(outage.map((entry) => `${entry.level}: ${entry.message}`)).to.deep.equal([
      'warn: Redis unreachable; jobs wait in the state they were in, and rate limits fall back to each process; retrying',
    ]);
    expect(entries.filter((entry) => entry.message === 'Redis reachable again')).to.have.length(1);
  });
});
