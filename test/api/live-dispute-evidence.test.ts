import { expect } from 'chai';
import { addProcessor } from '../support/account-processors.ts';
import { ApiClient } from '../support/api-client.ts';
import { eventually } from '../support/eventually.ts';
import { faultyProxy } from '../support/faulty-peers.ts';
import {
  cardDetails,
  createOtherAccount,
  type ApiError,
  type Charge,
  type Page,
  type PublicEvent,
} from '../support/payments.ts';
import { removeDataDir, startService, type ServiceProcess } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';
import { createEndpoint } from '../support/webhooks.ts';

interface Dispute {
  id: string;
  status: string;
  evidence: Record<string, string> | null;
  evidenceDetails: { hasEvidence: boolean; submissionCount: number };
}

type DisputedCharge = Charge & { disputed: boolean; dispute?: Dispute };

/**
 * Evidence for the dispute of a live charge goes to the Shift4 processor that holds the charge (a
 * second instance of this service, in test mode, as the peer), and is recorded here only once the
 * processor took it; the processor decides and its notification brings the decision here.
 */
describe('evidence for a dispute of a live charge, sent to its Shift4 processor', function () {
  this.timeout(180_000);
  const { api, service } = useService({ env: { SCHEDULER_INTERVAL_MS: '200' } });
  let peer: ServiceProcess;
  let peerApi: ApiClient;

  before('start the peer, whose disputes open and are decided quickly', async () => {
    peer = await startService({
      env: {
        SCHEDULER_INTERVAL_MS: '200',
        NETWORK_DISPUTE_DELAY_MS: '300',
        NETWORK_DISPUTE_DECISION_DELAY_MS: '300',
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
   * A live account here whose processor is its own account at the peer, reached through a proxy
   * that can fail on demand, with the peer's notifications sent to this service.
   */
  async function disputedLiveCharge(
    name: string,
    notified = ['CHARGE_DISPUTE_CREATED', 'CHARGE_DISPUTE_WON', 'CHARGE_DISPUTE_LOST'],
  ) {
    const { keys: atPeer, api: peerAccount } = await createOtherAccount(peerApi, peer.dataDir, `${name} at the peer`);
    const { keys } = await createOtherAccount(api, service.dataDir, name);
    const proxy = await faultyProxy(() => peer.baseUrl, 'pass');
    const added = await addProcessor(service.dataDir, keys.id, {
      kind: 'shift4',
      url: proxy.url,
      secretKey: atPeer.testSecretKey,
      timeoutMs: 2000,
      json: true,
    });
    const { processorId } = added.processors[0]!;
    await createEndpoint(peerAccount, `${service.baseUrl}/processor-events/${keys.id}/${processorId}`, {
      events: notified,
    });
    const live = api.withKey(keys.liveSecretKey);
    const paid = await live.post<Charge & ApiError>('/charges', {
      json: { amount: 2000, currency: 'EUR', card: cardDetails('4242000000000018') },
    });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
    const peerCharges = (await peerAccount.get<Page<Charge>>('/charges')).body.list;
    const peerChargeId = peerCharges.find((candidate) => candidate.metadata.reference === paid.body.id)!.id;
    const disputed = await eventually(
      async () => (await live.get<DisputedCharge>(`/charges/${paid.body.id}`)).body,
      (current) => current.disputed,
      30_000,
    );
    const peerDispute = async () => (await peerAccount.get<DisputedCharge>(`/charges/${peerChargeId}`)).body.dispute!;
    return {
      live,
      liveKey: keys.liveSecretKey,
      peerAccount,
      proxy,
      chargeId: paid.body.id,
      dispute: disputed.dispute!,
      peerDispute,
    };
  }

  const disputeEvents = async (live: ApiClient) =>
    (await live.get<Page<PublicEvent>>('/events', { query: { limit: '100' } })).body.list
      .map((event) => event.type)
      .filter((type) => type.startsWith('CHARGE_DISPUTE'))
      .sort();

  it('sends the evidence to the processor, records it once taken, and the processor’s decision follows', async () => {
    const { live, proxy, chargeId, dispute, peerDispute } = await disputedLiveCharge('Evidence taken');
    try {
      const evidence = { customerName: 'Jane Payer', uncategorizedText: 'winning_evidence' };
      const submitted = await live.post<Dispute & ApiError>(`/disputes/${dispute.id}`, { json: { evidence } });
      expect(submitted.status, JSON.stringify(submitted.body)).to.equal(200);
      expect(submitted.body).to.deep.include({ status: 'CHARGEBACK_NEW', evidence });
      expect(submitted.body.evidenceDetails).to.deep.equal({ hasEvidence: true, submissionCount: 1 });

      // The processor holds the same evidence, sent once.
      const there = await peerDispute();
      expect(there.evidence).to.deep.equal(evidence);
      expect(proxy.forwarded.filter((request) => request.startsWith('POST /disputes/'))).to.have.length(1);

      // The processor decides (its rule: winning_evidence wins) and says so: won here too.
      const won = await eventually(
        async () => (await live.get<DisputedCharge>(`/charges/${chargeId}`)).body.dispute!,
        (current) => current.status !== 'CHARGEBACK_NEW',
        30_000,
      );
      expect(won.status).to.equal('CHARGEBACK_REPRESENTED_SUCCESSFULLY');
      expect((await peerDispute()).status).to.equal('CHARGEBACK_REPRESENTED_SUCCESSFULLY');
      expect(await disputeEvents(live)).to.deep.equal([
        'CHARGE_DISPUTE_CREATED',
        'CHARGE_DISPUTE_FUNDS_RESTORED',
        'CHARGE_DISPUTE_FUNDS_WITHDRAWN',
        'CHARGE_DISPUTE_UPDATED',
        'CHARGE_DISPUTE_UPDATED',
        'CHARGE_DISPUTE_WON',
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('records nothing when the processor refuses the evidence or does not answer; a retry with the same evidence after a lost answer is recorded once', async () => {
    // The processor's decision is not sent here, so that the dispute stays open for the retry.
    const opened = ['CHARGE_DISPUTE_CREATED'];
    const { live, liveKey, proxy, chargeId, dispute, peerDispute } = await disputedLiveCharge(
      'Evidence refused',
      opened,
    );
    try {
      const before = await disputeEvents(live);
      const unchanged = async () => {
        const current = (await live.get<Dispute>(`/disputes/${dispute.id}`)).body;
        expect(current).to.include({ status: 'CHARGEBACK_NEW', evidence: null });
        expect(await disputeEvents(live)).to.deep.equal(before);
      };

      // An uploaded file of this service cannot go to the processor: 400 before anything is sent.
      const form = new FormData();
      form.append('purpose', 'dispute_evidence');
      form.append('file', new Blob([Buffer.from('the signed delivery note')]), 'delivery.pdf');
      const uploaded = await fetch(`${service.baseUrl}/files`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${liveKey}:`).toString('base64')}`,
          'x-forwarded-proto': 'https',
        },
        body: form,
      });
      const file = (await uploaded.json()) as { id: string };
      expect(uploaded.status, JSON.stringify(file)).to.equal(200);
      const naming = await live.post<ApiError>(`/disputes/${dispute.id}`, {
        json: { evidence: { shippingDocumentation: file.id } },
      });
      expect(naming.status, JSON.stringify(naming.body)).to.equal(400);
      expect(naming.body.error.message).to.match(/evidence\[shippingDocumentation\] names an uploaded file/);
      expect(proxy.requests.filter((request) => request.startsWith('POST /disputes/'))).to.deep.equal([]);
      await unchanged();

      // The processor cannot be reached in time: nothing sent, nothing recorded.
      proxy.mode = 'hang-before';
      const unanswered = await live.post<ApiError>(`/disputes/${dispute.id}`, {
        json: { evidence: { customerName: 'Jane Payer' } },
      });
      expect(unanswered.status, JSON.stringify(unanswered.body)).to.equal(502);
      expect(unanswered.body.error.type).to.equal('gateway_error');
      expect(unanswered.body.error.message).to.match(/nothing was recorded/);
      await unchanged();

      // The processor takes it but its answer is lost (500 from the proxy): 502 here, nothing recorded…
      proxy.mode = 'fail';
      proxy.failing = (request) => request.startsWith('POST /disputes/');
      const evidence = { productDescription: 'A blue teapot', uncategorizedText: 'receipt no. 77' };
      const lost = await live.post<ApiError>(`/disputes/${dispute.id}`, { json: { evidence } });
      expect(lost.status, JSON.stringify(lost.body)).to.equal(502);
      expect(lost.body.error.message).to.match(/Retry the request with the same evidence/);
      await unchanged();
      expect((await peerDispute()).evidence).to.deep.equal(evidence);

      // … and the retry with the same evidence finds it taken and records it, without a second submission there.
      proxy.mode = 'pass';
      const retried = await live.post<Dispute & ApiError>(`/disputes/${dispute.id}`, { json: { evidence } });
      expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
      expect(retried.body.evidence).to.deep.equal(evidence);
      expect((await peerDispute()).evidenceDetails.submissionCount).to.equal(1);

      // A dispute already answered at the processor (by the merchant there) refuses other evidence: 502, nothing recorded.
      const other = await disputedLiveCharge('Evidence given at the processor', opened);
      try {
        const atProcessor = await other.peerAccount.post(`/disputes/${(await other.peerDispute()).id}`, {
          json: { evidence: { customerName: 'Given there' } },
        });
        expect(atProcessor.status).to.equal(200);
        const refused = await other.live.post<ApiError>(`/disputes/${other.dispute.id}`, {
          json: { evidence: { customerName: 'Given here' } },
        });
        expect(refused.status, JSON.stringify(refused.body)).to.equal(502);
        expect(refused.body.error.message).to.match(
          /did not take the evidence; nothing was recorded.*already been submitted/,
        );
        expect((await other.live.get<Dispute>(`/disputes/${other.dispute.id}`)).body.evidence).to.equal(null);
      } finally {
        await other.proxy.close();
      }
      expect((await live.get<DisputedCharge>(`/charges/${chargeId}`)).body.dispute!.evidence).to.deep.equal(evidence);
    } finally {
      await proxy.close();
    }
  });
});
