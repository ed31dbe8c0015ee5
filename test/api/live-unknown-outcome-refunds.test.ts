import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { eventually } from '../support/eventually.ts';
import { faultyProxy } from '../support/faulty-peers.ts';
import type { Charge, Page, PublicEvent, Refund } from '../support/payments.ts';
import { useServiceWithShift4Peer } from '../support/shift4-peer.ts';

type PendingRefund = Omit<Refund, 'status'> & { status: Refund['status'] | 'pending' };

/**
 * Live refunds whose processor's answer is lost (a timeout, a kill -9 of this service around the
 * call) stay `pending` and are settled by the worker's lookup at the processor, never refunded
 * twice: counted at the peer (a second instance of this service in test mode) through a proxy
 * that fails as told. Credits: live-unknown-outcome-credits.test.ts.
 */
describe('live refunds whose outcome is unknown (a second instance as the Shift4 peer)', function () {
  this.timeout(180_000);
  const shift4 = useServiceWithShift4Peer();
  const { service, start, chargedAccount } = shift4;

  /** The peer's refunds of its charge that carry this refund id as their reference. */
  const peerRefunds = async (peerChargeId: string, reference?: string) =>
    (await shift4.peerApi.get<Charge>(`/charges/${peerChargeId}`)).body.refunds.filter(
      (refund) => reference === undefined || refund.metadata.reference === reference,
    );

  const settled = (live: ApiClient, refundId: string) =>
    eventually(
      async () => (await live.get<PendingRefund>(`/refunds/${refundId}`)).body,
      (refund) => refund.status !== 'pending',
      30_000,
    );

  const refundEvents = async (live: ApiClient) =>
    (await live.get<Page<PublicEvent>>('/events', { query: { limit: '100' } })).body.list.filter(
      (event) => event.type === 'CHARGE_REFUNDED',
    );

  it('answers pending when the processor refunds but its answer is lost, then the lookup settles it, once', async () => {
    const proxy = await faultyProxy(() => shift4.peer.baseUrl, 'pass');
    try {
      const { live, chargeId, peerChargeId } = await chargedAccount('Refund answer lost', proxy.url);
      proxy.mode = 'hang-after';
      const pending = await live.post<PendingRefund>('/refunds', { json: { chargeId, amount: 700 } });
      expect(pending.status, JSON.stringify(pending.body)).to.equal(200);
      expect(pending.body.status).to.equal('pending');
      expect(await peerRefunds(peerChargeId, pending.body.id)).to.have.length(1);
      proxy.mode = 'pass';
      expect(await settled(live, pending.body.id)).to.include({ status: 'successful', amount: 700 });
      expect(await peerRefunds(peerChargeId)).to.have.length(1);
      expect(proxy.forwarded.filter((request) => request === 'POST /refunds')).to.have.length(1);
      expect(await refundEvents(live)).to.have.length(1);
    } finally {
      await proxy.close();
    }
  });

  it('settles a refund the processor never received as failed, and its amount is refundable again', async () => {
    const proxy = await faultyProxy(() => shift4.peer.baseUrl, 'pass');
    try {
      const { live, chargeId, peerChargeId } = await chargedAccount('Refund request lost', proxy.url);
      proxy.mode = 'hang-before';
      const pending = await live.post<PendingRefund>('/refunds', { json: { chargeId } });
      expect(pending.body.status).to.equal('pending');
      // Reserved meanwhile: nothing more can be refunded.
      expect((await live.post('/refunds', { json: { chargeId, amount: 100 } })).status).to.equal(400);
      proxy.mode = 'pass';
      expect(await settled(live, pending.body.id)).to.include({ status: 'failed' });
      expect(await peerRefunds(peerChargeId)).to.deep.equal([]);
      const again = await live.post<PendingRefund>('/refunds', { json: { chargeId } });
      expect(again.body).to.include({ status: 'successful', amount: 2000 });
      expect((await peerRefunds(peerChargeId)).map((refund) => refund.amount)).to.deep.equal([2000]);
    } finally {
      await proxy.close();
    }
  });

  it('never refunds twice when the service is killed (kill -9) around the refund call', async () => {
    const proxy = await faultyProxy(() => shift4.peer.baseUrl, 'pass');
    try {
      for (const [point, retried] of [
        ['refund.before-network-call', true],
        ['refund.after-network-call', true],
        ['refund.after-network-call', false],
      ] as const) {
        const what = `${point}${retried ? ', retried' : ', left to the worker'}`;
        // The lookup falls due twice the timeout after the request: a retry must come well before it
        // however slow the two restarts are on a loaded machine; a refund left to the worker waits for it.
        const timeoutMs = retried ? 30_000 : 5000;
        const { live, chargeId, peerChargeId } = await chargedAccount(`Killed at ${what}`, proxy.url, timeoutMs);
        await service.stop();
        await start({ env: { FAULT_INJECTION: `crash-live:${point}` } });
        const postsBefore = proxy.forwarded.filter((request) => request === 'POST /refunds').length;
        const key = `live-refund-${point}-${retried}-${Date.now()}`;
        const send = () =>
          live.post<PendingRefund>('/refunds', {
            json: { chargeId, amount: 900 },
            headers: { 'idempotency-key': key },
          });
        expect(await send().catch((error: unknown) => error), what).to.be.instanceOf(Error);
        expect(service.output()).to.contain(`FAULT INJECTION: crash at ${point}`);
        await service.kill();
        await start();
        const refund = (await live.get<Page<PendingRefund>>('/refunds', { query: { chargeId } })).body.list;
        expect(
          refund.map((r) => r.status),
          what,
        ).to.deep.equal(['pending']);
        if (retried) {
          let retry = await send();
          for (let i = 0; i < 40 && retry.status === 409; i++) retry = await send();
          expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
          expect(retry.body.id).to.equal(refund[0]!.id);
        }
        const done = await settled(live, refund[0]!.id);
        expect(done.status, what).to.equal('successful');
        expect(
          (await peerRefunds(peerChargeId)).map((r) => r.amount),
          what,
        ).to.deep.equal([900]);
        // Sent once in all: a retry asks what became of the refund before sending anything.
        const posts = proxy.forwarded.filter((request) => request === 'POST /refunds').length - postsBefore;
        expect(posts, what).to.equal(1);
      }
    } finally {
      await proxy.close();
    }
  });
});
