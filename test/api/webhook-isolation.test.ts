import { expect } from 'chai';
import { createOtherAccount, type Customer } from '../support/payments.ts';
import { redisServerAvailable, startRedisServer, type RedisServer } from '../support/redis-server.ts';
import { useService } from '../support/use-service.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { eventually } from '../support/eventually.ts';
import {
  allEvents,
  createEndpoint,
  deliveriesOf,
  eventIdOf,
  tallyDeliveries,
  waitForDeliveries,
  type WebhookEndpoint,
} from '../support/webhooks.ts';

const TIMEOUT_MS = 2_000;
const CUSTOMERS = 20;

/**
 * Endpoints that never answer, in the healthy endpoint's own account and in another one, with
 * quick retries so that their attempts keep coming: the healthy endpoint still gets every event
 * within a second (p99 of the time from the API's answer to the webhook's arrival), exactly once,
 * signed; and no endpoint ever has more than its share of attempts in flight. Run with the
 * in-process job queue and with BullMQ on a real Redis.
 */
describe('webhook endpoints are isolated from each other', function () {
  this.timeout(90_000);
  // The receivers' clocks measure the service's latency and concurrency: the service gets a process
  // of its own, so that its work does not hold up the receivers' event loop and skew their clocks.
  const { api: shop, service, start } = useService({ startedBy: 'test', ownProcess: true });
  let redis: RedisServer | null = null;
  const receivers: WebhookReceiver[] = [];

  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
    await redis?.stop();
    redis = null;
  });

  async function receiver(): Promise<WebhookReceiver> {
    const started = await startWebhookReceiver();
    receivers.push(started);
    return started;
  }

  /** The most attempts one endpoint (URL path) of a hanging receiver had open at once. */
  function mostInFlight(received: ReceivedWebhook[]): Map<string, number> {
    const most = new Map<string, number>();
    for (const webhook of received) {
      // Each attempt stays open until the service gives up on it, WEBHOOK_TIMEOUT_MS after it started.
      const open = received.filter(
        (other) =>
          other.path === webhook.path &&
          other.receivedAt <= webhook.receivedAt &&
          other.receivedAt > webhook.receivedAt - (TIMEOUT_MS - 100),
      ).length;
      most.set(webhook.path, Math.max(most.get(webhook.path) ?? 0, open));
    }
    return most;
  }

  async function healthyDespiteHangingEndpoints(env: Record<string, string>): Promise<void> {
    const healthy = await receiver();
    const hanging = await receiver();
    hanging.respondWith(() => 'hang');
    await start({
      env: {
        WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
        WEBHOOK_RETRY_DELAYS: '100,100,100,100,100,100,100,100',
        SCHEDULER_INTERVAL_MS: '100',
        ...env,
      },
    });
    const { api: otherShop } = await createOtherAccount(shop, service.dataDir, 'Other shop');
    const endpoint = await createEndpoint(shop, healthy);
    for (const n of [1, 2]) await createEndpoint(shop, `${hanging.url}/shop-${n}`);
    for (const n of [1, 2, 3]) await createEndpoint(otherShop, `${hanging.url}/other-${n}`);

    const answeredAt = new Map<string, number>();
    for (let i = 0; i < CUSTOMERS; i++) {
      await otherShop.post('/customers', { json: { email: `other-${i}@example.com` } });
      const created = await shop.post<Customer>('/customers', { json: { email: `shop-${i}@example.com` } });
      expect(created.status).to.equal(200);
      answeredAt.set(created.body.id, Date.now());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const events = await allEvents(shop);
    await healthy.waitFor(
      (received) => new Set(received.map(eventIdOf)).size >= events.size,
      20_000,
      'every event at the healthy endpoint',
    );

    const latencies = healthy.received
      .map((webhook) => {
        const event = JSON.parse(webhook.body) as { type: string; data: { id: string } };
        const answered = event.type === 'CUSTOMER_CREATED' ? answeredAt.get(event.data.id) : undefined;
        return answered === undefined ? null : webhook.receivedAt - answered;
      })
      .filter((latency): latency is number => latency !== null)
      .sort((a, b) => a - b);
    expect(latencies).to.have.length(CUSTOMERS);
    const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1]!;
    if (process.env.SHOW_LATENCIES) console.log(`healthy endpoint latencies (ms): ${latencies.join(', ')}`);
    expect(p99, `healthy endpoint delivery latencies (ms): ${latencies.join(', ')}`).to.be.below(1_000);

    const tally = tallyDeliveries(healthy.received, events.keys(), endpoint.secret);
    expect(tally).to.deep.equal({ missing: [], duplicates: [], unexpected: [], badSignatures: 0 });

    // The hanging endpoints kept trying (they were busy the whole time), never beyond their share.
    const inFlight = mostInFlight(hanging.received);
    expect([...inFlight.keys()].sort()).to.deep.equal([
      '/hooks/other-1',
      '/hooks/other-2',
      '/hooks/other-3',
      '/hooks/shop-1',
      '/hooks/shop-2',
    ]);
    for (const [path, most] of inFlight) expect(most, path).to.be.within(2, 4);
  }

  it('with the in-process job queue: a hanging endpoint delays only itself', async () => {
    await healthyDespiteHangingEndpoints({});
  });

  (redisServerAvailable() ? it : it.skip)('with BullMQ on Redis: a hanging endpoint delays only itself', async () => {
    redis = (await startRedisServer())!;
    await healthyDespiteHangingEndpoints({ REDIS_URL: redis.url });
  });

  it('disables an endpoint after a run of deliveries failed for good; its owner enables it again', async () => {
    const failing = await receiver();
    failing.respondWith(() => 500);
    await start({
      env: { WEBHOOK_RETRY_DELAYS: '100', WEBHOOK_DISABLE_AFTER_FAILED_DELIVERIES: '3', SCHEDULER_INTERVAL_MS: '100' },
    });
    const api = shop;
    const endpoint = await createEndpoint(api, failing);
    for (let i = 0; i < 3; i++) await api.post('/customers', { json: { email: `failing-${i}@example.com` } });

    await eventually(
      async () => (await api.get<WebhookEndpoint>(`/webhook-endpoints/${endpoint.id}`)).body,
      (read) => read.enabled === false,
      20_000,
    );
    const failed = await deliveriesOf(api, endpoint.id);
    expect(failed.map((delivery) => [delivery.status, delivery.attempts.length])).to.deep.equal([
      ['failed', 2],
      ['failed', 2],
      ['failed', 2],
    ]);
    // Disabled: later events are not sent to it.
    await api.post('/customers', { json: { email: 'while-disabled@example.com' } });

    failing.respondWith(() => 200);
    const enabled = await api.post<WebhookEndpoint>(`/webhook-endpoints/${endpoint.id}`, { json: { enabled: true } });
    expect(enabled.body.enabled).to.equal(true);
    const after = await api.post<Customer>('/customers', { json: { email: 'after-enabling@example.com' } });
    const deliveries = await waitForDeliveries(api, endpoint.id, (list) => list.some((d) => d.status === 'delivered'));
    expect(deliveries).to.have.length(4);
    const [latest] = deliveries;
    expect(latest).to.include({ status: 'delivered' });
    expect(JSON.parse(failing.received.at(-1)!.body)).to.have.nested.property('data.id', after.body.id);
    expect((await api.get<WebhookEndpoint>(`/webhook-endpoints/${endpoint.id}`)).body.enabled).to.equal(true);
  });
});
