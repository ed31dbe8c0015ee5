import { expect } from 'chai';
import { addProcessor } from '../support/account-processors.ts';
import { ApiClient } from '../support/api-client.ts';
import { findSecrets } from '../support/card-data-scan.ts';
import { closedPort, faultyProxy } from '../support/faulty-peers.ts';
import { cardDetails, createOtherAccount, type ApiError, type Charge, type Page } from '../support/payments.ts';
import { removeDataDir, runCli, startService, type ServiceProcess } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

interface PeerCredit {
  id: string;
  amount: number;
  status: string;
  metadata: Record<string, string>;
}

/**
 * Live mode through the Shift4 adapter: this service (live keys) sends its payments to a second
 * instance of itself in test mode (the peer), configured as the account's processor. Every
 * scenario counts the objects on both sides.
 */
describe('live mode through a Shift4 processor (a second instance as the peer)', function () {
  this.timeout(180_000);
  const { api, service, start } = useService({ ownProcess: true, env: { SCHEDULER_INTERVAL_MS: '200' } });
  let peer: ServiceProcess;
  let peerApi: ApiClient;
  let cliOutput = '';

  before('start the peer and let it send credits', async () => {
    peer = await startService();
    peerApi = new ApiClient(peer.baseUrl, peer.keys!.testSecretKey);
    const allowed = await runCli(['accounts', 'settings', peer.keys!.id, '--credits', 'allowed'], peer.dataDir);
    expect(allowed.code, allowed.stderr).to.equal(0);
  });
  after('stop the peer', async () => {
    await peer.stop();
    removeDataDir(peer.dataDir);
  });

  /** A fresh account of this service whose live mode sends to the given processor URLs, in that order. */
  async function liveAccount(
    name: string,
    ...urls: string[]
  ): Promise<{ id: string; live: ApiClient; test: ApiClient }> {
    return liveAccountAt(name, peer.keys!.testSecretKey, ...urls);
  }

  /** The same, with the secret key of another account at the processor. */
  async function liveAccountAt(
    name: string,
    processorKey: string,
    ...urls: string[]
  ): Promise<{ id: string; live: ApiClient; test: ApiClient }> {
    const { keys, api: test } = await createOtherAccount(api, service.dataDir, name);
    const settings = await runCli(['accounts', 'settings', keys.id, '--credits', 'allowed'], service.dataDir);
    expect(settings.code, settings.stderr).to.equal(0);
    for (const url of urls) {
      const added = await addProcessor(service.dataDir, keys.id, {
        kind: 'shift4',
        url,
        secretKey: processorKey,
        timeoutMs: 1500,
      });
      cliOutput += added.output;
    }
    return { id: keys.id, live: api.withKey(keys.liveSecretKey), test };
  }

  /** The peer's charges that carry this reference: the charges this service made there for it. */
  async function peerCharges(reference: string): Promise<Charge[]> {
    const page = await peerApi.get<Page<Charge>>('/charges', { query: { limit: '100' } });
    return page.body.list.filter((charge) => charge.metadata.reference === reference);
  }
  const peerChargeCount = async () =>
    (await peerApi.get<Page<Charge>>('/charges', { query: { limit: '100' } })).body.list.length;

  const charge = (live: ApiClient, number = '4242424242424242', extra: Record<string, unknown> = {}) =>
    live.post<Charge & ApiError>('/charges', {
      json: { amount: 2000, currency: 'EUR', card: cardDetails(number), ...extra },
    });

  async function settled(live: ApiClient, chargeId: string): Promise<Charge> {
    for (let i = 0; i < 150; i++) {
      const current = (await live.get<Charge>(`/charges/${chargeId}`)).body;
      if (current.status !== 'pending') return current;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`${chargeId} stayed pending`);
  }

  it('charges, captures, refunds in part and in full, and credits at the processor, exactly once each', async () => {
    const { live } = await liveAccount('Live shop', peer.baseUrl);
    const authorized = await charge(live, '4242424242424242', { captured: false });
    expect(authorized.status, JSON.stringify(authorized.body)).to.equal(200);
    expect(authorized.body).to.include({ status: 'successful', captured: false, amount: 2000 });
    const [atPeer] = await peerCharges(authorized.body.id);
    expect(await peerCharges(authorized.body.id)).to.have.length(1);
    expect(atPeer).to.include({ amount: 2000, currency: 'EUR', captured: false, status: 'successful' });
    expect(atPeer!.card.last4).to.equal('4242');

    const captured = await live.post<Charge>(`/charges/${authorized.body.id}/capture`);
    expect(captured.status).to.equal(200);
    expect(captured.body.captured).to.equal(true);
    expect((await peerApi.get<Charge>(`/charges/${atPeer!.id}`)).body.captured).to.equal(true);

    const partial = await live.post<{ id: string; status: string }>('/refunds', {
      json: { chargeId: authorized.body.id, amount: 500 },
    });
    expect(partial.status).to.equal(200);
    expect(partial.body.status).to.equal('successful');
    const rest = await live.post<{ id: string; status: string }>('/refunds', {
      json: { chargeId: authorized.body.id },
    });
    expect(rest.status).to.equal(200);
    const peerRefunds = (await peerApi.get<Charge>(`/charges/${atPeer!.id}`)).body.refunds;
    expect(peerRefunds.map((refund) => [refund.amount, refund.metadata.reference])).to.deep.equal([
      [500, partial.body.id],
      [1500, rest.body.id],
    ]);
    expect((await live.get<Charge>(`/charges/${authorized.body.id}`)).body).to.include({ refunded: true });

    const credited = await live.post<{ id: string; status: string }>('/credits', {
      json: { amount: 750, currency: 'EUR', card: cardDetails('5555555555554444') },
    });
    expect(credited.status, JSON.stringify(credited.body)).to.equal(200);
    expect(credited.body.status).to.equal('successful');
    const peerCredits = (await peerApi.get<Page<PeerCredit>>('/credits', { query: { limit: '100' } })).body.list;
    expect(peerCredits.filter((credit) => credit.metadata.reference === credited.body.id)).to.have.length(1);

    // The charge's stream records the processor and its id; the public object keeps its shape.
    const shown = await runCli(['streams', 'show', authorized.body.id, '--json'], service.dataDir);
    const succeeded = shown.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> })
      .find((event) => event.type === 'ChargeSucceeded')!;
    expect(succeeded.data.networkTransactionId).to.equal(atPeer!.id);
    expect(succeeded.data.processorId).to.match(/^proc_/);
    expect(authorized.body).to.not.have.property('processorId');

    // The processor's key never shows in clear: data files, logs, CLI output.
    const found = findSecrets(service.dataDir, service.output() + cliOutput + shown.stdout, [peer.keys!.testSecretKey]);
    expect(found).to.deep.equal([]);
  });

  it('answers a decline with the spec code and keeps the processor code', async () => {
    const { live } = await liveAccount('Declines', peer.baseUrl);
    const declined = await charge(live, '4000000000009995');
    expect(declined.status).to.equal(402);
    expect(declined.body.error).to.include({ type: 'card_error', code: 'insufficient_funds', issuerDeclineCode: '51' });
    const recorded = (await live.get<Charge>(`/charges/${declined.body.error.chargeId}`)).body;
    expect(recorded).to.include({
      status: 'failed',
      failureCode: 'insufficient_funds',
      failureIssuerDeclineCode: '51',
    });
    expect((await peerCharges(declined.body.error.chargeId!)).map((c) => c.status)).to.deep.equal(['failed']);
  });

  it('fails over to the next processor when one refuses connections; without one, 502 and nothing recorded anywhere', async () => {
    const refusing = await closedPort();
    const { live } = await liveAccount('Failover', refusing, peer.baseUrl);
    const failedOver = await charge(live);
    expect(failedOver.status, JSON.stringify(failedOver.body)).to.equal(200);
    expect(await peerCharges(failedOver.body.id)).to.have.length(1);

    const { live: alone } = await liveAccount('No second processor', refusing);
    const before = await peerChargeCount();
    const refused = await charge(alone);
    expect(refused.status).to.equal(502);
    expect(refused.body.error.type).to.equal('gateway_error');
    expect(refused.body.error.message).to.match(/No processor could be reached; nothing was charged/);
    expect((await alone.get<Page<Charge>>('/charges')).body.list).to.deep.equal([]);
    expect(await peerChargeCount()).to.equal(before);
  });

  it('leaves a charge pending when the processor answers 500 or hangs after taking it, then settles it by lookup, never failing over', async () => {
    for (const mode of ['fail', 'hang-after'] as const) {
      const proxy = await faultyProxy(() => peer.baseUrl, mode);
      try {
        // A second processor that would take it: an unknown outcome must never reach it.
        const { live } = await liveAccount(`Unknown outcome ${mode}`, proxy.url, peer.baseUrl);
        const pending = await charge(live);
        expect(pending.status, JSON.stringify(pending.body)).to.equal(200);
        expect(pending.body).to.include({ status: 'pending', captured: false });
        expect(await peerCharges(pending.body.id), 'one charge at the peer, not two').to.have.length(1);
        proxy.mode = 'pass';
        const done = await settled(live, pending.body.id);
        expect(done).to.include({ status: 'successful', captured: true });
        expect(await peerCharges(pending.body.id)).to.have.length(1);
        const events = (await live.get<Page<{ type: string; data: { id: string } }>>('/events')).body.list;
        expect(events.filter((event) => event.data.id === pending.body.id).map((event) => event.type)).to.deep.equal([
          'CHARGE_SUCCEEDED',
        ]);
      } finally {
        await proxy.close();
      }
    }
  });

  it('settles a pending charge as failed when the processor never received it', async () => {
    const proxy = await faultyProxy(() => peer.baseUrl, 'hang-before');
    try {
      const { live } = await liveAccount('Lost request', proxy.url);
      const pending = await charge(live);
      expect(pending.body.status).to.equal('pending');
      proxy.mode = 'pass';
      const done = await settled(live, pending.body.id);
      expect(done).to.include({ status: 'failed', failureCode: 'processing_error' });
      expect(await peerCharges(pending.body.id)).to.deep.equal([]);
    } finally {
      await proxy.close();
    }
  });

  it('never makes two charges at the processor for one request when the service is killed (kill -9) around the call', async () => {
    // Killed when the request reaches the processor's door (never forwarded), and after the
    // processor took the charge but before its answer came back. The merchant retries with the
    // same Idempotency-Key once the service is back.
    for (const mode of ['hang-before', 'hang-after'] as const) {
      const proxy = await faultyProxy(() => peer.baseUrl, mode);
      try {
        const { live } = await liveAccount(`Killed ${mode}`, proxy.url);
        const key = `live-crash-${mode}-${Date.now()}`;
        const send = () =>
          live.post<Charge>('/charges', {
            json: { amount: 3100, currency: 'EUR', card: cardDetails('4242424242424242'), description: key },
            headers: { 'idempotency-key': key },
          });
        const before = await peerChargeCount();
        const cut = send().catch((error: unknown) => error);
        for (let i = 0; i < 200; i++) {
          const reached = mode === 'hang-before' ? proxy.requests.length > 0 : (await peerChargeCount()) > before;
          if (reached) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await service.kill();
        expect(await cut).to.be.instanceOf(Error);
        proxy.mode = 'pass';
        await start();
        let retry = await send();
        for (let i = 0; i < 40 && retry.status === 409; i++) retry = await send();
        expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
        expect(retry.body.status).to.equal('successful');
        expect(await peerCharges(retry.body.id), `${mode}: one charge at the peer`).to.have.length(1);
        expect(await peerChargeCount()).to.equal(before + 1);
        // The retry asked the processor what became of the charge before sending anything; the
        // charge was sent to it once in all.
        const posts = proxy.forwarded.filter((request) => request === 'POST /charges');
        expect(posts, mode).to.have.length(1);
        expect(proxy.forwarded.some((request) => request.startsWith('GET /charges?'))).to.equal(true);
        const ours = (await live.get<Page<Charge>>('/charges')).body.list;
        expect(ours.map((charge) => charge.id)).to.deep.equal([retry.body.id]);
      } finally {
        await proxy.close();
      }
    }
  });

  it('never makes two charges at the processor for one intent when the service dies at the crash points around the call', async () => {
    const proxy = await faultyProxy(() => peer.baseUrl, 'pass');
    try {
      const { live } = await liveAccount('Crash points', proxy.url);
      for (const point of ['charge.before-network-call', 'charge.after-network-call']) {
        await service.stop();
        await start({ env: { FAULT_INJECTION: `crash-live:${point}` } });
        const key = `live-crash-point-${point}-${Date.now()}`;
        const send = () =>
          live.post<Charge>('/charges', {
            json: { amount: 4100, currency: 'EUR', card: cardDetails('4242424242424242') },
            headers: { 'idempotency-key': key },
          });
        const before = await peerChargeCount();
        const postsBefore = proxy.forwarded.filter((request) => request === 'POST /charges').length;
        expect(await send().catch((error: unknown) => error)).to.be.instanceOf(Error);
        expect(service.output()).to.contain(`FAULT INJECTION: crash at ${point}`);
        await service.kill();
        await start();
        let retry = await send();
        for (let i = 0; i < 40 && retry.status === 409; i++) retry = await send();
        expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
        expect(retry.body.status).to.equal('successful');
        expect(await peerCharges(retry.body.id), point).to.have.length(1);
        expect(await peerChargeCount()).to.equal(before + 1);
        expect(proxy.forwarded.filter((request) => request === 'POST /charges').length - postsBefore, point).to.equal(
          1,
        );
      }
    } finally {
      await proxy.close();
    }
  });

  it('reconciles: no difference after live payments; a refund and a charge made only at the processor are listed, exit 1', async () => {
    const { keys: processorKeys, api: processorApi } = await createOtherAccount(
      new ApiClient(peer.baseUrl, peer.keys!.testSecretKey),
      peer.dataDir,
      'Processor account of one merchant',
    );
    const { id, live } = await liveAccountAt('Reconciled', processorKeys.testSecretKey, peer.baseUrl);
    const paid = await charge(live);
    expect(paid.status).to.equal(200);
    expect((await live.post('/refunds', { json: { chargeId: paid.body.id, amount: 500 } })).status).to.equal(200);
    const reconciled = (...extra: string[]) =>
      runCli(['reconcile', '--account', id, ...extra], service.dataDir).then((result) => {
        cliOutput += result.stdout + result.stderr;
        return result;
      });
    const clean = await reconciled();
    expect(clean.stdout.trim(), clean.stderr).to.equal('No differences');
    expect(clean.code).to.equal(0);

    const [atProcessor] = (await processorApi.get<Page<Charge>>('/charges')).body.list;
    expect(atProcessor!.metadata.reference).to.equal(paid.body.id);
    const onlyThere = await processorApi.post<{ id: string }>('/refunds', {
      json: { chargeId: atProcessor!.id, amount: 300 },
    });
    expect(onlyThere.status).to.equal(200);
    const chargeOnlyThere = await processorApi.post<Charge>('/charges', {
      json: { amount: 999, currency: 'EUR', card: cardDetails('4242424242424242') },
    });
    const found = await reconciled('--json', '--progress');
    expect(found.code, found.stderr).to.equal(1);
    const report = JSON.parse(found.stdout) as {
      differences: { kind: string; object: string; id: string | null; processorObjectId: string }[];
    };
    expect(
      report.differences.map(({ kind, object, id, processorObjectId }) => ({ kind, object, id, processorObjectId })),
    ).to.have.deep.members([
      { kind: 'refunded_differs', object: 'charge', id: paid.body.id, processorObjectId: atProcessor!.id },
      { kind: 'missing_here', object: 'refund', id: null, processorObjectId: onlyThere.body.id },
      { kind: 'missing_here', object: 'charge', id: null, processorObjectId: chargeOnlyThere.body.id },
    ]);
    const text = await reconciled();
    expect(text.code).to.equal(1);
    expect(text.stdout).to.match(/^missing_here\s+refund\s+-\s+processor=re_/m);
  });

  it('sends each charge and credit to the first processor that takes its currency and card brand; none takes it: 502 and nothing recorded', async () => {
    const visaInEuros = await faultyProxy(() => peer.baseUrl, 'pass');
    try {
      const { id, live } = await liveAccount('Routed by currency and brand');
      for (const [url, currencies, brands] of [
        [visaInEuros.url, 'EUR', 'Visa'],
        [peer.baseUrl, 'EUR,USD', 'Visa,MasterCard'],
      ] as const) {
        await addProcessor(service.dataDir, id, {
          kind: 'shift4',
          url,
          secretKey: peer.keys!.testSecretKey,
          currencies: currencies,
          brands: brands,
        });
      }
      const sentThroughFirst = (what: string) => visaInEuros.forwarded.filter((request) => request === what).length;

      const visaEuros = await charge(live, '4242424242424242');
      expect(visaEuros.status, JSON.stringify(visaEuros.body)).to.equal(200);
      expect(sentThroughFirst('POST /charges')).to.equal(1);

      const masterCardEuros = await charge(live, '5555555555554444');
      const visaDollars = await charge(live, '4242424242424242', { currency: 'USD' });
      const credit = await live.post<{ id: string; status: string }>('/credits', {
        json: { amount: 750, currency: 'EUR', card: cardDetails('5555555555554444') },
      });
      for (const answer of [masterCardEuros, visaDollars, credit])
        expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      // The first processor takes neither a MasterCard nor dollars: the second one made them.
      expect(sentThroughFirst('POST /charges')).to.equal(1);
      expect(sentThroughFirst('POST /credits')).to.equal(0);
      expect(await peerCharges(masterCardEuros.body.id)).to.have.length(1);
      expect(await peerCharges(visaDollars.body.id)).to.have.length(1);

      const before = await peerChargeCount();
      const amex = await charge(live, '378282246310005');
      expect(amex.status).to.equal(502);
      expect(amex.body.error.type).to.equal('gateway_error');
      expect(amex.body.error.message).to.equal(
        'No processor of this account takes EUR payments with American Express cards.',
      );
      expect((await live.get<Page<Charge>>('/charges')).body.list.map((made) => made.id)).to.have.members([
        visaEuros.body.id,
        masterCardEuros.body.id,
        visaDollars.body.id,
      ]);
      expect(await peerChargeCount()).to.equal(before);
    } finally {
      await visaInEuros.close();
    }
  });

  it('charges a card saved before a processor was added at a processor that keeps it, even when the newer one comes first', async () => {
    const older = await faultyProxy(() => peer.baseUrl, 'pass');
    const newer = await faultyProxy(() => peer.baseUrl, 'pass');
    try {
      const { id, live } = await liveAccount('Cards saved before a processor was added', older.url);
      const customer = await live.post<{ id: string; defaultCardId: string } & ApiError>('/customers', {
        json: { email: 'kept@example.com', card: cardDetails('4242424242424242') },
      });
      expect(customer.status, JSON.stringify(customer.body)).to.equal(200);
      // A second processor, added afterwards and made the most preferred.
      const added = await addProcessor(service.dataDir, id, {
        kind: 'shift4',
        url: newer.url,
        secretKey: peer.keys!.testSecretKey,
        json: true,
      });
      const { processors } = added;
      const idAt = (url: string) => processors.find((processor) => processor.url === url)!.processorId;
      const ordered = await runCli(
        ['accounts', 'processors', 'order', id, idAt(newer.url), idAt(older.url)],
        service.dataDir,
      );
      expect(ordered.code, ordered.stderr).to.equal(0);
      const charges = (proxy: typeof older) => proxy.forwarded.filter((request) => request === 'POST /charges').length;

      // The saved card goes without its CVC: only the older processor keeps a copy it can charge.
      const onFile = await live.post<Charge & ApiError>('/charges', {
        json: { amount: 1500, currency: 'EUR', customerId: customer.body.id },
      });
      expect(onFile.status, JSON.stringify(onFile.body)).to.equal(200);
      expect(onFile.body.status).to.equal('successful');
      expect([charges(newer), charges(older)]).to.deep.equal([0, 1]);
      expect(await peerCharges(onFile.body.id)).to.have.length(1);

      // New card details, CVC and all, go to the most preferred processor.
      const typed = await charge(live);
      expect(typed.status, JSON.stringify(typed.body)).to.equal(200);
      expect([charges(newer), charges(older)]).to.deep.equal([1, 1]);
    } finally {
      await Promise.all([older.close(), newer.close()]);
    }
  });

  it('keeps test mode offline: test-mode charges of an account with a processor never reach it', async () => {
    const { test } = await liveAccount('Test mode stays offline', peer.baseUrl);
    const before = await peerChargeCount();
    const testCharge = await test.post<Charge>('/charges', {
      json: { amount: 100, currency: 'EUR', card: cardDetails('4242424242424242') },
    });
    expect(testCharge.status).to.equal(200);
    expect(await peerChargeCount()).to.equal(before);
  });
});
