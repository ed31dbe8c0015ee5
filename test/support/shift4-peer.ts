import { expect } from 'chai';
import { addProcessor } from './account-processors.ts';
import { ApiClient } from './api-client.ts';
import { eventually } from './eventually.ts';
import { cardDetails, createOtherAccount, type Charge, type Page } from './payments.ts';
import { removeDataDir, runCli, startService, type ServiceProcess } from './service-process.ts';
import { useService, type ServiceFixture } from './use-service.ts';

export interface ServiceWithShift4Peer extends ServiceFixture {
  /** The peer: a second instance of this service in test mode, whose API is the Shift4 API. */
  readonly peer: ServiceProcess;
  /** A client of the peer with its default account's test secret key. */
  readonly peerApi: ApiClient;
  /**
   * A fresh live account of the service sending to the peer through `url` (the peer's or a proxy's)
   * with credits allowed, and a live charge made there: the client, the charge's id here and at the peer.
   */
  chargedAccount(
    name: string,
    url: string,
    timeoutMs?: number,
  ): Promise<{ live: ApiClient; chargeId: string; peerChargeId: string }>;
}

/**
 * The service of a describe block in a process of its own (the tests kill it), with a peer that
 * sends credits, started before the block's first test and stopped after its last. Call it in the
 * describe body.
 */
export function useServiceWithShift4Peer(): ServiceWithShift4Peer {
  const fixture = useService({ ownProcess: true, env: { SCHEDULER_INTERVAL_MS: '200' } });
  let peer: ServiceProcess | undefined;
  let peerApi: ApiClient | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useServiceWithShift4Peer(): the peer starts in a before hook');
    return value;
  };

  before('start the peer and let it send credits', async () => {
    peer = await startService();
    peerApi = new ApiClient(peer.baseUrl, peer.keys!.testSecretKey);
    const allowed = await runCli(['accounts', 'settings', peer.keys!.id, '--credits', 'allowed'], peer.dataDir);
    expect(allowed.code, allowed.stderr).to.equal(0);
  });
  after('stop the peer', async () => {
    if (!peer) return;
    await peer.stop();
    removeDataDir(peer.dataDir);
  });

  return {
    ...fixture,
    get peer() {
      return started(peer);
    },
    get peerApi() {
      return started(peerApi);
    },
    async chargedAccount(name, url, timeoutMs = 1500) {
      const { api, service } = fixture;
      const { keys } = await createOtherAccount(api, service.dataDir, name);
      await addProcessor(service.dataDir, keys.id, {
        kind: 'shift4',
        url,
        secretKey: started(peer).keys!.testSecretKey,
        timeoutMs,
      });
      const credits = await runCli(['accounts', 'settings', keys.id, '--credits', 'allowed'], service.dataDir);
      expect(credits.code, credits.stderr).to.equal(0);
      const live = api.withKey(keys.liveSecretKey);
      const paid = await live.post<Charge>('/charges', {
        json: { amount: 2000, currency: 'EUR', card: cardDetails('4242424242424242') },
      });
      expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
      // On a loaded machine the peer may answer past the timeout: the charge then waits, pending,
      // for its lookup (twice the timeout later), which finds it made at the peer.
      const charged = await eventually(
        async () => (await live.get<Charge>(`/charges/${paid.body.id}`)).body,
        (charge) => (charge.status as string) !== 'pending',
        30_000,
      );
      expect(charged.status, JSON.stringify(charged)).to.equal('successful');
      const page = await started(peerApi).get<Page<Charge>>('/charges', { query: { limit: '100' } });
      const atPeer = page.body.list.find((charge) => charge.metadata.reference === paid.body.id)!;
      return { live, chargeId: paid.body.id, peerChargeId: atPeer.id };
    },
  };
}
