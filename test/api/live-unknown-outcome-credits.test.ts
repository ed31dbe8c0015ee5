import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { eventually } from '../support/eventually.ts';
import { faultyProxy } from '../support/faulty-peers.ts';
import { cardDetails, type Page } from '../support/payments.ts';
import { useServiceWithShift4Peer } from '../support/shift4-peer.ts';

interface Credit {
  id: string;
  amount: number;
  status: 'pending' | 'successful' | 'failed';
  failureCode?: string;
  metadata: Record<string, string>;
}

/**
 * Live credits whose processor's answer is lost (a timeout, a kill -9 of this service after the
 * call) stay `pending` and are settled by the worker's lookup at the processor, never sent twice:
 * counted at the peer (a second instance of this service in test mode) through a proxy that fails
 * as told. Refunds: live-unknown-outcome-refunds.test.ts.
 */
describe('live credits whose outcome is unknown (a second instance as the Shift4 peer)', function () {
  this.timeout(180_000);
  const shift4 = useServiceWithShift4Peer();
  const { service, start, chargedAccount } = shift4;

  /** The peer's credits that carry this reference. */
  const peerCredits = async (reference: string) =>
    (await shift4.peerApi.get<Page<Credit>>('/credits', { query: { limit: '100' } })).body.list.filter(
      (credit) => credit.metadata.reference === reference,
    );

  const settledCredit = (live: ApiClient, creditId: string) =>
    eventually(
      async () => (await live.get<Credit>(`/credits/${creditId}`)).body,
      (credit) => credit.status !== 'pending',
      30_000,
    );

  const credit = (live: ApiClient, headers: Record<string, string> = {}) =>
    live.post<Credit>('/credits', {
      json: { amount: 750, currency: 'EUR', card: cardDetails('5555555555554444') },
      headers,
    });

  it('records a credit pending when the processor sends it but its answer is lost, then settles it by lookup, once', async () => {
    const proxy = await faultyProxy(() => shift4.peer.baseUrl, 'pass');
    try {
      const { live } = await chargedAccount('Credit answer lost', proxy.url);
      proxy.mode = 'hang-after';
      const pending = await credit(live);
      expect(pending.status, JSON.stringify(pending.body)).to.equal(200);
      expect(pending.body.status).to.equal('pending');
      proxy.mode = 'pass';
      expect(await settledCredit(live, pending.body.id)).to.include({ status: 'successful', amount: 750 });
      expect(await peerCredits(pending.body.id)).to.have.length(1);
      expect(proxy.forwarded.filter((request) => request === 'POST /credits')).to.have.length(1);
    } finally {
      await proxy.close();
    }
  });

  it('settles a credit the processor never received as failed', async () => {
    const proxy = await faultyProxy(() => shift4.peer.baseUrl, 'pass');
    try {
      const { live } = await chargedAccount('Credit request lost', proxy.url);
      proxy.mode = 'hang-before';
      const pending = await credit(live);
      expect(pending.body.status).to.equal('pending');
      proxy.mode = 'pass';
      expect(await settledCredit(live, pending.body.id)).to.include({
        status: 'failed',
        failureCode: 'processing_error',
      });
      expect(await peerCredits(pending.body.id)).to.deep.equal([]);
    } finally {
      await proxy.close();
    }
  });

  it('never sends a credit twice when the service is killed (kill -9) after the processor sent it', async () => {
    const proxy = await faultyProxy(() => shift4.peer.baseUrl, 'pass');
    try {
      const { live } = await chargedAccount('Credit killed', proxy.url);
      await service.stop();
      await start({ env: { FAULT_INJECTION: 'crash-live:credit.after-network-call' } });
      const key = `live-credit-${Date.now()}`;
      expect(await credit(live, { 'idempotency-key': key }).catch((error: unknown) => error)).to.be.instanceOf(Error);
      expect(service.output()).to.contain('FAULT INJECTION: crash at credit.after-network-call');
      await service.kill();
      await start();
      let retry = await credit(live, { 'idempotency-key': key });
      for (let i = 0; i < 40 && retry.status === 409; i++) retry = await credit(live, { 'idempotency-key': key });
      expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
      expect(retry.body.status).to.equal('successful');
      expect(await peerCredits(retry.body.id)).to.have.length(1);
      expect(proxy.forwarded.filter((request) => request === 'POST /credits')).to.have.length(1);
    } finally {
      await proxy.close();
    }
  });
});
