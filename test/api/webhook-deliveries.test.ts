import { expect } from 'chai';
import { eventGroups } from '../support/event-groups.ts';
import type { PublicEvent } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';
import { freePort, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import {
  allEvents,
  createEndpoint,
  deliveriesOf,
  eventIdOf,
  signatureVerifies,
  waitForDeliveries,
  type WebhookDelivery,
} from '../support/webhooks.ts';

const RETRY_DELAYS = [200, 400, 800];
const SERVICE_ENV = {
  WEBHOOK_RETRY_DELAYS: RETRY_DELAYS.join(','),
  WEBHOOK_TIMEOUT_MS: '1000',
  SCHEDULER_INTERVAL_MS: '100',
};

/** Timers and the loopback round trip: a retry may come this much earlier than its delay, counted from arrival. */
const EARLY_SLACK_MS = 30;
const LATE_SLACK_MS = 1_000;

describe('webhook deliveries (embedded profile, in-process jobs)', function () {
  this.timeout(60_000);
  // The receivers' clocks measure the retry schedule: the service gets a process of its own, so
  // that its work does not hold up the receivers' event loop and skew their clocks.
  const { api, service } = useService({ env: SERVICE_ENV, ownProcess: true });
  let receiver: WebhookReceiver;
  const endpoints: string[] = [];

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });

  afterEach(async () => {
    // Every test has its own endpoints: the next test's events must not go to them.
    for (const id of endpoints.splice(0)) await api.delete(`/webhook-endpoints/${id}`);
    await receiver.close();
  });

  async function endpointFor(target: WebhookReceiver, extra: Record<string, unknown> = {}) {
    const endpoint = await createEndpoint(api, target, extra);
    endpoints.push(endpoint.id);
    return endpoint;
  }

  it('sends every event of every group, exactly as GET /events/{id} shows it, signed with the endpoint secret', async () => {
    const before = await allEvents(api);
    const endpoint = await endpointFor(receiver);
    const onlySucceeded = await startWebhookReceiver();
    const disabled = await startWebhookReceiver();
    try {
      const narrow = await endpointFor(onlySucceeded, { events: ['CHARGE_SUCCEEDED'] });
      await endpointFor(disabled, { enabled: false });

      for (const group of eventGroups) await group.perform(api);

      const expected = [...(await allEvents(api)).values()].filter((event) => !before.has(event.id));
      for (const group of eventGroups) {
        for (const type of group.types)
          expect(
            expected.map((event) => event.type),
            `${group.group}: ${type}`,
          ).to.include(type);
      }
      await receiver.waitFor(
        (received) => new Set(received.map(eventIdOf)).size >= expected.length,
        20_000,
        `${expected.length} events`,
      );

      const received = new Map(receiver.received.map((webhook) => [eventIdOf(webhook), webhook]));
      for (const event of expected) {
        const webhook = received.get(event.id);
        expect(webhook, `${event.type} ${event.id} was delivered`).to.not.equal(undefined);
        const shown = await api.get<PublicEvent>(`/events/${event.id}`);
        expect(JSON.parse(webhook!.body), event.type).to.deep.equal(shown.body);
        expect(webhook!.body, 'the raw body is the JSON of GET /events/{id}').to.equal(JSON.stringify(shown.body));
        expect(webhook!.method).to.equal('POST');
        expect(webhook!.headers['content-type']).to.equal('application/json');
        expect(signatureVerifies(endpoint.secret, webhook!), `signature of ${event.type}`).to.equal(true);
        expect(signatureVerifies(narrow.secret, webhook!), 'another endpoint secret does not verify it').to.equal(
          false,
        );
      }
      // Nothing from before the endpoint existed, nothing twice.
      expect(receiver.received.every((webhook) => !before.has(eventIdOf(webhook)))).to.equal(true);
      expect(receiver.received).to.have.length(expected.length);

      const succeeded = expected.filter((event) => event.type === 'CHARGE_SUCCEEDED');
      await onlySucceeded.waitFor((got) => got.length >= succeeded.length);
      expect(onlySucceeded.received.map(eventIdOf).sort()).to.deep.equal(succeeded.map((event) => event.id).sort());
      expect(disabled.received).to.have.length(0);

      const deliveries = await waitForDeliveries(
        api,
        endpoint.id,
        (list) => list.length === expected.length && list.every((d) => d.status === 'delivered'),
      );
      for (const delivery of deliveries) {
        expect(delivery).to.include({
          objectType: 'webhookDelivery',
          endpointId: endpoint.id,
          status: 'delivered',
          nextAttemptAt: null,
        });
        expect(delivery.id).to.match(/^wd_/);
        expect(delivery.attempts).to.have.length(1);
        expect(delivery.attempts[0]).to.include({ attempt: 1, statusCode: 200, error: null });
      }
      expect(deliveries.map((delivery) => delivery.eventId).sort()).to.deep.equal(
        expected.map((event) => event.id).sort(),
      );
    } finally {
      await onlySucceeded.close();
      await disabled.close();
    }
  });

  it('retries a receiver that fails its first answers, on the configured schedule, recording every attempt', async () => {
    receiver.respondWith((_request, index) => (index < 2 ? 500 : 200));
    const endpoint = await endpointFor(receiver);
    const customer = (await api.post<{ id: string }>('/customers', { json: { email: 'flaky@example.com' } })).body;

    await receiver.waitFor((received) => received.length >= 3);
    const [first, second, third] = receiver.received;
    expect([first, second, third].map((webhook) => eventIdOf(webhook!))).to.deep.equal(
      Array(3).fill(eventIdOf(first!)),
    );
    expect(JSON.parse(first!.body)).to.deep.include({ type: 'CUSTOMER_CREATED' });
    expect((JSON.parse(first!.body) as PublicEvent<{ id: string }>).data.id).to.equal(customer.id);
    const gaps = [second!.receivedAt - first!.receivedAt, third!.receivedAt - second!.receivedAt];
    gaps.forEach((gap, index) =>
      expect(gap, `wait before retry ${index + 1}`).to.be.within(
        RETRY_DELAYS[index]! - EARLY_SLACK_MS,
        RETRY_DELAYS[index]! + LATE_SLACK_MS,
      ),
    );
    // Each attempt is signed afresh.
    for (const webhook of [first, second, third]) expect(signatureVerifies(endpoint.secret, webhook!)).to.equal(true);

    const [delivery] = await waitForDeliveries(api, endpoint.id, (list) => list[0]?.status === 'delivered');
    expect(delivery!.attempts.map((attempt) => [attempt.attempt, attempt.statusCode, attempt.error])).to.deep.equal([
      [1, 500, null],
      [2, 500, null],
      [3, 200, null],
    ]);
    for (const attempt of delivery!.attempts) expect(attempt.durationMs).to.be.a('number').at.least(0);
    // Auditors see each attempt as a domain event of the delivery's stream.
    const stream = await runCli(['streams', 'show', delivery!.id, '--json'], service.dataDir);
    const recorded = stream.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; actor: string; data: { attempt: number; outcome: string } });
    expect(recorded.map((event) => [event.type, event.data.attempt, event.data.outcome, event.actor])).to.deep.equal([
      ['WebhookDeliveryAttempted', 1, 'retrying', 'system:worker'],
      ['WebhookDeliveryAttempted', 2, 'retrying', 'system:worker'],
      ['WebhookDeliveryAttempted', 3, 'delivered', 'system:worker'],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received, 'no attempt after the delivery').to.have.length(3);
  });

  it('delivers to a receiver that is down, then up, recording the failed attempts', async () => {
    const down = await startWebhookReceiver({ listening: false, port: await freePort() });
    try {
      const endpoint = await endpointFor(down);
      await api.post('/customers', { json: { email: 'down-1@example.com' } });
      await api.post('/customers', { json: { email: 'down-2@example.com' } });
      await waitForDeliveries(
        api,
        endpoint.id,
        (list) => list.length === 2 && list.every((d) => d.attempts.length >= 2),
      );
      await down.listen();

      await down.waitFor((received) => received.length >= 2);
      const deliveries = await waitForDeliveries(api, endpoint.id, (list) =>
        list.every((d) => d.status === 'delivered'),
      );
      for (const delivery of deliveries) {
        const failed = delivery.attempts.slice(0, -1);
        expect(failed.length).to.be.at.least(2);
        for (const attempt of failed) expect(attempt).to.include({ statusCode: null, error: 'connection refused' });
        expect(delivery.attempts.at(-1)).to.include({ statusCode: 200, error: null });
      }
      expect(new Set(down.received.map(eventIdOf))).to.deep.equal(new Set(deliveries.map((d) => d.eventId)));
    } finally {
      await down.close();
    }
  });

  it('counts an answer later than WEBHOOK_TIMEOUT_MS as a failed attempt', async () => {
    receiver.respondWith((_request, index) => (index === 0 ? 'hang' : 204));
    const endpoint = await endpointFor(receiver);
    await api.post('/customers', { json: { email: 'slow@example.com' } });
    const [delivery] = await waitForDeliveries(api, endpoint.id, (list) => list[0]?.status === 'delivered');
    expect(delivery!.attempts.map((attempt) => [attempt.statusCode, attempt.error])).to.deep.equal([
      [null, 'no answer within 1000 ms'],
      [204, null],
    ]);
    expect(delivery!.attempts[0]!.durationMs).to.be.within(900, 2_000);
  });

  it('gives up once the retry schedule is used up', async () => {
    receiver.respondWith(() => 503);
    const endpoint = await endpointFor(receiver);
    await api.post('/customers', { json: { email: 'never@example.com' } });
    const [delivery] = await waitForDeliveries(api, endpoint.id, (list) => list[0]?.status === 'failed');
    expect(delivery!.attempts.map((attempt) => attempt.statusCode)).to.deep.equal([503, 503, 503, 503]);
    expect(delivery!.nextAttemptAt).to.equal(null);
    expect((await deliveriesOf(api, endpoint.id, { status: 'failed' })).map((d) => d.id)).to.deep.equal([delivery!.id]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received).to.have.length(RETRY_DELAYS.length + 1);
  });

  it('gives every delivery back, attempts included, when its read model is rebuilt, and sends nothing again', async () => {
    receiver.respondWith((_request, index) => (index === 0 ? 500 : 200));
    const endpoint = await endpointFor(receiver);
    for (let i = 0; i < 3; i++) await api.post('/customers', { json: { email: `rebuild-${i}@example.com` } });
    const delivered = await waitForDeliveries(
      api,
      endpoint.id,
      (list) => list.length === 3 && list.every((d) => d.status === 'delivered'),
    );
    const sent = receiver.received.length;

    const rebuild = await runCli(['projections', 'rebuild', 'webhook-deliveries'], service.dataDir);
    expect(rebuild.code, rebuild.stderr).to.equal(0);
    expect(await deliveriesOf(api, endpoint.id)).to.deep.equal(delivered);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).to.have.length(sent);
  });

  it('cancels the pending deliveries of an endpoint that is disabled or deleted', async () => {
    // The first answers (failures) are held back until the endpoints are changed, so no retry can
    // come first; then they come at once, well within WEBHOOK_TIMEOUT_MS however slow the changes were.
    let endpointsChanged!: () => void;
    const slowFailure = { status: 500, when: new Promise<void>((resolve) => (endpointsChanged = resolve)) };
    receiver.respondWith(() => slowFailure);
    const toDisable = await endpointFor(receiver);
    const other = await startWebhookReceiver();
    other.respondWith(() => slowFailure);
    try {
      const toDelete = await endpointFor(other);
      await api.post('/customers', { json: { email: 'canceled@example.com' } });
      await receiver.waitFor((received) => received.length === 1);
      await other.waitFor((received) => received.length === 1);
      expect((await api.post(`/webhook-endpoints/${toDisable.id}`, { json: { enabled: false } })).status).to.equal(200);
      expect((await api.delete(`/webhook-endpoints/${toDelete.id}`)).status).to.equal(200);
      endpointsChanged();

      const [disabledDelivery] = await waitForDeliveries(api, toDisable.id, (list) => list[0]?.status === 'canceled');
      const [deletedDelivery] = await waitForDeliveries(api, toDelete.id, (list) => list[0]?.status === 'canceled');
      for (const delivery of [disabledDelivery, deletedDelivery] as WebhookDelivery[]) {
        expect(delivery.attempts.map((attempt) => attempt.statusCode)).to.deep.equal([500]);
        expect(delivery.nextAttemptAt).to.equal(null);
      }
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(receiver.received).to.have.length(1);
      expect(other.received).to.have.length(1);
    } finally {
      endpointsChanged();
      await other.close();
    }
  });
});

describe('webhook deliveries across a killed service (embedded profile)', function () {
  this.timeout(60_000);
  // Long retries: at the restart every delivery is waiting for a retry that only the log knows of.
  const { api, service, start } = useService({
    ownProcess: true,
    env: { ...SERVICE_ENV, WEBHOOK_RETRY_DELAYS: '1500,1500,1500,1500,1500,1500' },
  });

  it('finds the deliveries of a kill -9 again after the restart: the in-process queue is lost, nothing else', async () => {
    const receiver = await startWebhookReceiver({ listening: false, port: await freePort() });
    try {
      const endpoint = await createEndpoint(api, receiver);
      for (let i = 0; i < 5; i++) await api.post('/customers', { json: { email: `killed-${i}@example.com` } });
      await waitForDeliveries(
        api,
        endpoint.id,
        (list) => list.length === 5 && list.every((d) => d.attempts.length === 1),
      );
      await service.kill();

      await receiver.listen();
      await start();
      const deliveries = await waitForDeliveries(api, endpoint.id, (list) =>
        list.every((d) => d.status === 'delivered'),
      );
      expect(new Set(receiver.received.map(eventIdOf))).to.deep.equal(new Set(deliveries.map((d) => d.eventId)));
      for (const delivery of deliveries)
        expect(delivery.attempts.map((attempt) => attempt.statusCode)).to.deep.equal([null, 200]);
    } finally {
      await receiver.close();
    }
  });
});
