import { expect } from 'chai';
import { redisServerAvailable, startRedisServer, type RedisServer } from '../support/redis-server.ts';
import { useService } from '../support/use-service.ts';
import { freePort, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { eventGroups } from '../support/event-groups.ts';
import {
  allEvents,
  everyEventDelivered,
  createEndpoint,
  eventIdOf,
  signatureVerifies,
  waitForDeliveries,
} from '../support/webhooks.ts';

if (!redisServerAvailable()) {
  console.warn('\n*** redis-server is not on PATH: the webhook deliveries over BullMQ tests are SKIPPED. ***\n');
}
const describeWithRedis = redisServerAvailable() ? describe : describe.skip;

const EVENTS = 12;
const RETRY_DELAYS = [200, 400, 800];

describeWithRedis('webhook deliveries over BullMQ on a real Redis', function () {
  this.timeout(60_000);
  const redisServers: RedisServer[] = [];
  // Each test starts the service itself, on the Redis it starts; stopped before that Redis is.
  // The receivers' clocks measure the retry schedule: the service gets a process of its own, so
  // that its work does not hold up the receivers' event loop and skew their clocks.
  const { api, service, start } = useService({ startedBy: 'test', ownProcess: true });
  let receiver: WebhookReceiver;

  async function redis(): Promise<RedisServer> {
    const started = await startRedisServer();
    if (!started) throw new Error('redis-server disappeared from PATH');
    redisServers.push(started);
    return started;
  }

  const envFor = (server: RedisServer, retryDelays: string) => ({
    REDIS_URL: server.url,
    WEBHOOK_RETRY_DELAYS: retryDelays,
    WEBHOOK_TIMEOUT_MS: '2000',
    SCHEDULER_INTERVAL_MS: '100',
  });

  afterEach(async () => {
    await receiver?.close();
    for (const server of redisServers.splice(0)) await server.stop();
  });

  it('delivers every event group through a stop and restart in the middle of deliveries, losing nothing', async () => {
    const server = await redis();
    const env = envFor(server, '200,400,800,1600');
    // Slow, and failing each event's first attempt: at the stop, attempts are running and retries are waiting in Redis.
    const seen = new Set<string>();
    receiver = await startWebhookReceiver();
    receiver.respondWith((request) => {
      const id = eventIdOf(request);
      if (seen.has(id)) return { status: 200, afterMs: 250 };
      seen.add(id);
      return { status: 500, afterMs: 250 };
    });
    await start({ env });
    const endpoint = await createEndpoint(api, receiver);
    for (const group of eventGroups) await group.perform(api);
    const events = await allEvents(api);
    for (const group of eventGroups) {
      for (const type of group.types)
        expect(
          [...events.values()].map((event) => event.type),
          `${group.group}: ${type}`,
        ).to.include(type);
    }

    await receiver.waitFor((received) => received.length >= 3, 20_000, 'the first attempts');
    expect(await service.stop(), 'graceful stop').to.equal(0);
    const deliveredAtStop = new Set(receiver.received.filter((webhook) => webhook.answered === 200).map(eventIdOf));
    expect(deliveredAtStop.size, 'stopped in the middle of the deliveries').to.be.below(events.size);

    await start({ env });
    const deliveries = await waitForDeliveries(api, endpoint.id, everyEventDelivered(events), 30_000);

    expect(new Set(deliveries.map((d) => d.eventId))).to.deep.equal(new Set(events.keys()));
    for (const delivery of deliveries) {
      expect(
        delivery.attempts.map((attempt) => attempt.statusCode),
        delivery.eventType,
      ).to.deep.equal([500, 200]);
    }
    const delivered = receiver.received.filter((webhook) => webhook.answered === 200);
    expect(new Set(delivered.map(eventIdOf))).to.deep.equal(new Set(events.keys()));
    for (const webhook of receiver.received) {
      const id = eventIdOf(webhook);
      expect(webhook.body, 'exactly GET /events/{id}').to.equal(JSON.stringify((await api.get(`/events/${id}`)).body));
      expect(signatureVerifies(endpoint.secret, webhook)).to.equal(true);
    }
  });

  it('retries on the configured schedule', async () => {
    const server = await redis();
    receiver = await startWebhookReceiver();
    receiver.respondWith((_request, index) => (index < 2 ? 500 : 200));
    await start({ env: envFor(server, RETRY_DELAYS.join(',')) });
    const endpoint = await createEndpoint(api, receiver);
    await api.post('/customers', { json: { email: 'schedule@example.com' } });

    await receiver.waitFor((received) => received.length >= 3);
    const arrivals = receiver.received.map((webhook) => webhook.receivedAt);
    RETRY_DELAYS.slice(0, 2).forEach((delay, index) => {
      expect(arrivals[index + 1]! - arrivals[index]!, `wait before retry ${index + 1}`).to.be.within(
        delay - 30,
        delay + 1_000,
      );
    });
    const [delivery] = await waitForDeliveries(api, endpoint.id, (list) => list[0]?.status === 'delivered');
    expect(delivery!.attempts.map((attempt) => attempt.statusCode)).to.deep.equal([500, 500, 200]);
  });

  it('finds every delivery again when Redis is lost with its jobs', async () => {
    const first = await redis();
    // Long retries: when Redis goes, every delivery has a retry waiting in it.
    const delays = '1500,1500,1500,1500,1500,1500';
    receiver = await startWebhookReceiver({ listening: false, port: await freePort() });
    await start({ env: envFor(first, delays) });
    const endpoint = await createEndpoint(api, receiver);
    for (let i = 0; i < EVENTS; i++) await api.post('/customers', { json: { email: `lost-redis-${i}@example.com` } });
    await waitForDeliveries(
      api,
      endpoint.id,
      (list) => list.length === EVENTS && list.every((d) => d.attempts.length >= 1),
    );
    await service.stop();
    await first.kill();

    // A new, empty Redis: the retries that were waiting in the old one are gone.
    const second = await redis();
    await receiver.listen();
    await start({ env: envFor(second, delays) });
    const deliveries = await waitForDeliveries(
      api,
      endpoint.id,
      (list) => list.length === EVENTS && list.every((d) => d.status === 'delivered'),
      30_000,
    );

    expect(new Set(receiver.received.map(eventIdOf))).to.deep.equal(new Set(deliveries.map((d) => d.eventId)));
    for (const delivery of deliveries) {
      expect(delivery.attempts.at(-1)).to.include({ statusCode: 200 });
      for (const attempt of delivery.attempts.slice(0, -1))
        expect(attempt).to.include({ statusCode: null, error: 'connection refused' });
    }
  });
});
