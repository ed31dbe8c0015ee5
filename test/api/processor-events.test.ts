import { expect } from 'chai';
import { addProcessor } from '../support/account-processors.ts';
import { ApiClient } from '../support/api-client.ts';
import { findSecrets } from '../support/card-data-scan.ts';
import { faultyProxy } from '../support/faulty-peers.ts';
import { eventually } from '../support/eventually.ts';
import {
  cardDetails,
  createOtherAccount,
  type ApiError,
  type Charge,
  type Page,
  type PublicEvent,
} from '../support/payments.ts';
import { removeDataDir, runCli, startService, type ServiceProcess } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';
import { createEndpoint, deliveriesOf, waitForDeliveries, type WebhookDelivery } from '../support/webhooks.ts';

interface Dispute {
  id: string;
  status: string;
  reason: string;
  amount: number;
}

/**
 * Refunds and disputes made at a live charge's Shift4 processor reach this service through the
 * processor's webhook: the peer (a second instance of this service, in test mode) sends its
 * notifications to this service's processor-events endpoint, which fetches each event back from
 * the peer before recording anything.
 */
describe('processor events from a Shift4 processor (a second instance as the peer)', function () {
  this.timeout(180_000);
  const { api, service } = useService({ env: { SCHEDULER_INTERVAL_MS: '200' } });
  let peer: ServiceProcess;
  let peerApi: ApiClient;
  let cliOutput = '';
  const processorKeys: string[] = [];

  before('start the peer, whose disputes open quickly', async () => {
    peer = await startService({
      env: {
        SCHEDULER_INTERVAL_MS: '200',
        NETWORK_DISPUTE_DELAY_MS: '300',
        NETWORK_DISPUTE_DECISION_DELAY_MS: '300',
        // A notification this service could not verify yet is sent again soon.
        WEBHOOK_RETRY_DELAYS: '300,300,300,300,300',
      },
    });
    peerApi = new ApiClient(peer.baseUrl, peer.keys!.testSecretKey);
  });
  after('stop the peer', async () => {
    await peer.stop();
    removeDataDir(peer.dataDir);
  });

  /**
   * A fresh account of this service whose live mode sends to its own account at the peer, with the
   * peer's webhook pointed at this service's processor-events endpoint; and a live webhook endpoint
   * of the merchant here (a public address: live mode sends nowhere else).
   */
  async function liveAccount(name: string, processorUrl?: string) {
    const { keys: atPeer, api: peerAccount } = await createOtherAccount(peerApi, peer.dataDir, `${name} at the peer`);
    const { keys } = await createOtherAccount(api, service.dataDir, name);
    // A lost refund answer is looked up by the worker only 12 s after the request.
    const added = await addProcessor(service.dataDir, keys.id, {
      kind: 'shift4',
      url: processorUrl ?? peer.baseUrl,
      secretKey: atPeer.testSecretKey,
      timeoutMs: 6000,
      json: true,
    });
    cliOutput += added.output;
    processorKeys.push(atPeer.testSecretKey);
    const { processorId } = added.processors[0]!;
    const address = `${service.baseUrl}/processor-events/${keys.id}/${processorId}`;
    const peerEndpoint = await createEndpoint(peerAccount, address, {
      events: ['CHARGE_REFUNDED', 'CHARGE_DISPUTE_CREATED', 'CHARGE_DISPUTE_WON', 'CHARGE_DISPUTE_LOST'],
    });
    const live = api.withKey(keys.liveSecretKey);
    const merchantEndpoint = await createEndpoint(live, 'https://1.1.1.1/payments-hooks');
    return { id: keys.id, processorId, address, live, peerAccount, peerEndpoint, merchantEndpoint };
  }

  const charge = (live: ApiClient, number: string) =>
    live.post<Charge & ApiError>('/charges', { json: { amount: 2000, currency: 'EUR', card: cardDetails(number) } });

  /** The peer's charge this service made for one of its charges (by the reference in its metadata). */
  async function atPeer(peerAccount: ApiClient, chargeId: string): Promise<Charge> {
    const page = await peerAccount.get<Page<Charge>>('/charges', { query: { limit: '100' } });
    const found = page.body.list.filter((candidate) => candidate.metadata.reference === chargeId);
    expect(found).to.have.length(1);
    return found[0]!;
  }

  /** Every live event of the account here (a notification that records nothing leaves it as it was). */
  async function liveEvents(live: ApiClient): Promise<PublicEvent[]> {
    return (await live.get<Page<PublicEvent>>('/events', { query: { limit: '100' } })).body.list;
  }

  /** Waits until the peer delivered every notification to this service and it answered 200. */
  const allDelivered = (peerAccount: ApiClient, endpointId: string, count: number) =>
    waitForDeliveries(
      peerAccount,
      endpointId,
      (list) => list.length >= count && list.every((delivery) => delivery.status === 'delivered'),
      30_000,
    );

  const typesOf = (deliveries: WebhookDelivery[]) => deliveries.map((delivery) => delivery.eventType).sort();

  it('records a dispute opened and won at the processor once each, with its webhooks to the merchant', async () => {
    const { live, peerAccount, peerEndpoint, merchantEndpoint } = await liveAccount('Disputed at the processor');
    const paid = await charge(live, '4242000000000018');
    expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
    const peerCharge = await atPeer(peerAccount, paid.body.id);

    const disputed = await eventually(
      async () => (await live.get<Charge & { disputed: boolean; dispute?: Dispute }>(`/charges/${paid.body.id}`)).body,
      (current) => current.disputed,
      30_000,
    );
    const peerDispute = (await peerAccount.get<Charge & { dispute: Dispute }>(`/charges/${peerCharge.id}`)).body
      .dispute;
    expect(disputed.dispute).to.deep.include({
      status: peerDispute.status,
      reason: peerDispute.reason,
      amount: 2000,
    });
    const disputes = (await live.get<Page<Dispute>>('/disputes')).body.list;
    expect(disputes.map((dispute) => dispute.id)).to.deep.equal([disputed.dispute!.id]);

    // The peer sent CHARGE_DISPUTE_CREATED (and this service answered it 200); sent again by hand, it records nothing.
    const delivered = await allDelivered(peerAccount, peerEndpoint.id, 1);
    expect(typesOf(delivered)).to.deep.equal(['CHARGE_DISPUTE_CREATED']);
    const before = await liveEvents(live);
    const again = await fetch(`${service.baseUrl}${new URL(peerEndpoint.url).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: delivered[0]!.eventId }),
    });
    expect(again.status).to.equal(200);
    expect(await liveEvents(live)).to.deep.equal(before);
    expect(before.filter((event) => event.type === 'CHARGE_DISPUTE_CREATED')).to.have.length(1);

    // The merchant contests it at the processor and wins there: the dispute is won here too, once.
    const contested = await peerAccount.post(`/disputes/${peerDispute.id}`, {
      json: { evidence: { uncategorizedText: 'winning_evidence' } },
    });
    expect(contested.status, JSON.stringify(contested.body)).to.equal(200);
    const won = await eventually(
      async () => (await live.get<Charge & { dispute: Dispute }>(`/charges/${paid.body.id}`)).body,
      (current) => current.dispute.status !== 'CHARGEBACK_NEW',
      30_000,
    );
    expect(won.dispute).to.include({ id: disputed.dispute!.id, status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY' });
    expect(typesOf(await allDelivered(peerAccount, peerEndpoint.id, 2))).to.deep.equal([
      'CHARGE_DISPUTE_CREATED',
      'CHARGE_DISPUTE_WON',
    ]);
    const types = (await liveEvents(live)).map((event) => event.type);
    expect(types.filter((type) => type === 'CHARGE_DISPUTE_WON')).to.have.length(1);

    // The merchant's endpoint gets the dispute's events, once each.
    const toMerchant = await waitForDeliveries(live, merchantEndpoint.id, (list) =>
      ['CHARGE_DISPUTE_CREATED', 'CHARGE_DISPUTE_WON'].every((type) => list.some((d) => d.eventType === type)),
    );
    for (const type of ['CHARGE_DISPUTE_CREATED', 'CHARGE_DISPUTE_WON'])
      expect(
        toMerchant.filter((delivery) => delivery.eventType === type),
        type,
      ).to.have.length(1);
  });

  it('records a refund made at the processor once, and none for a refund made here', async () => {
    const { live, peerAccount, peerEndpoint, merchantEndpoint } = await liveAccount('Refunded at the processor');
    const paid = await charge(live, '4242424242424242');
    expect(paid.status).to.equal(200);
    const peerCharge = await atPeer(peerAccount, paid.body.id);

    const there = await peerAccount.post<{ id: string }>('/refunds', {
      json: { chargeId: peerCharge.id, amount: 300 },
    });
    expect(there.status).to.equal(200);
    const refunded = await eventually(
      async () => (await live.get<Charge>(`/charges/${paid.body.id}`)).body,
      (current) => current.refunds.length === 1,
      30_000,
    );
    expect(refunded.refunds.map((refund) => [refund.amount, refund.status])).to.deep.equal([[300, 'successful']]);
    expect(refunded.refunded).to.equal(false);

    // A refund made here reaches the peer, whose notification reports both refunds: nothing new here.
    const here = await live.post<{ id: string; status: string }>('/refunds', {
      json: { chargeId: paid.body.id, amount: 500 },
    });
    expect(here.status).to.equal(200);
    await allDelivered(peerAccount, peerEndpoint.id, 2);
    const after = (await live.get<Charge>(`/charges/${paid.body.id}`)).body;
    expect(after.refunds.map((refund) => refund.amount).sort()).to.deep.equal([300, 500]);
    const events = await liveEvents(live);
    expect(events.filter((event) => event.type === 'CHARGE_REFUNDED')).to.have.length(2);
    const refundsAtPeer = (await peerAccount.get<Charge>(`/charges/${peerCharge.id}`)).body.refunds;
    expect(refundsAtPeer.map((refund) => refund.amount)).to.deep.equal([300, 500]);

    const toMerchant = await waitForDeliveries(
      live,
      merchantEndpoint.id,
      (list) => list.filter((delivery) => delivery.eventType === 'CHARGE_REFUNDED').length === 2,
    );
    expect(toMerchant.filter((delivery) => delivery.eventType === 'CHARGE_REFUNDED')).to.have.length(2);
  });

  it("settles a refund whose answer was lost by the processor's notification of it", async () => {
    const proxy = await faultyProxy(() => peer.baseUrl, 'pass');
    try {
      const { live, peerAccount, peerEndpoint } = await liveAccount('Refund answer lost', proxy.url);
      const paid = await charge(live, '4242424242424242');
      proxy.mode = 'hang-after';
      const pending = await live.post<{ id: string; status: string }>('/refunds', {
        json: { chargeId: paid.body.id, amount: 400 },
      });
      expect(pending.body.status).to.equal('pending');
      proxy.mode = 'pass';
      await allDelivered(peerAccount, peerEndpoint.id, 1);
      const refund = (await live.get<{ status: string }>(`/refunds/${pending.body.id}`)).body;
      expect(refund.status).to.equal('successful');
      // Settled by the notification, not by the worker's lookup (due later).
      const shown = await runCli(['streams', 'show', paid.body.id, '--json'], service.dataDir);
      const settledBy = shown.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; actor: string })
        .filter((event) => event.type === 'RefundSettled')
        .map((event) => event.actor);
      expect(settledBy).to.have.length(1);
      expect(settledBy[0]).to.match(/^system:processor:proc_/);
      expect(
        (await peerAccount.get<Charge>(`/charges/${(await atPeer(peerAccount, paid.body.id)).id}`)).body.refunds,
      ).to.have.length(1);
    } finally {
      await proxy.close();
    }
  });

  it('refuses forged notifications and records nothing', async () => {
    const { id, live, address, peerAccount, peerEndpoint } = await liveAccount('Forged notifications');
    const paid = await charge(live, '4242424242424242');
    const peerCharge = await atPeer(peerAccount, paid.body.id);
    const before = await liveEvents(live);
    const post = (body: string, to = address) =>
      fetch(to, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

    // An event id the processor does not know, a body without one, and not JSON at all.
    const forged = JSON.stringify({
      id: 'event_forged0000000000000000',
      type: 'CHARGE_REFUNDED',
      data: { ...peerCharge, refunds: [{ id: 're_forged', amount: 2000, currency: 'EUR', status: 'successful' }] },
    });
    for (const body of [forged, JSON.stringify({ type: 'CHARGE_REFUNDED' }), 'not json']) {
      const refused = await post(body);
      expect(refused.status, body).to.equal(400);
      const envelope = (await refused.json()) as ApiError;
      expect(envelope.error.type).to.equal('invalid_request');
      expect(envelope.error.message).to.match(/^The notification was refused/);
    }

    // A genuine event of another account at the processor: its id is unknown to this account's key.
    const { api: stranger } = await createOtherAccount(peerApi, peer.dataDir, 'Stranger at the peer');
    const strangers = await stranger.post<Charge>('/charges', {
      json: { amount: 100, currency: 'EUR', card: cardDetails('4242424242424242') },
    });
    await stranger.post('/refunds', { json: { chargeId: strangers.body.id } });
    const strangerEvent = (await stranger.get<Page<PublicEvent>>('/events', { query: { limit: '1' } })).body.list[0]!;
    expect(strangerEvent.type).to.equal('CHARGE_REFUNDED');
    expect((await post(JSON.stringify({ id: strangerEvent.id }))).status).to.equal(400);

    // An address that names no processor of the account.
    expect((await post(forged, `${service.baseUrl}/processor-events/${id}/proc_unknown000000`)).status).to.equal(404);
    expect((await post(forged, `${service.baseUrl}/processor-events/acct_unknown000000/proc_x`)).status).to.equal(404);

    expect(await liveEvents(live)).to.deep.equal(before);
    expect((await live.get<Charge>(`/charges/${paid.body.id}`)).body.refunds).to.deep.equal([]);
    expect(await deliveriesOf(peerAccount, peerEndpoint.id)).to.deep.equal([]);
  });

  it('keeps the processor keys out of data files, logs and CLI output', () => {
    expect(processorKeys).to.not.deep.equal([]);
    expect(findSecrets(service.dataDir, service.output() + cliOutput, processorKeys)).to.deep.equal([]);
  });
});
