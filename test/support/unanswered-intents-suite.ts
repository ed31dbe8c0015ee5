import { expect } from 'chai';
import { addProcessor } from './account-processors.ts';
import { ApiClient } from './api-client.ts';
import { eventually } from './eventually.ts';
import { closedPort } from './faulty-peers.ts';
import { findLocalstripe, startLocalstripe } from './localstripe.ts';
import {
  cardDetails,
  createOtherAccount,
  type ApiError,
  type Charge,
  type Page,
  type PublicEvent,
} from './payments.ts';
import { removeDataDir, runCli, startService, type ServiceProcess } from './service-process.ts';
import { useService } from './use-service.ts';

interface Credit {
  id: string;
  amount: number;
  status: 'pending' | 'successful' | 'failed';
  metadata: Record<string, string>;
}

/** A processor peer: its API for the adapter, and how many payments it holds under a reference. */
interface Peer {
  kind: 'shift4' | 'stripe';
  url: string;
  secretKey: string;
  /** The references (this service's charge and credit ids) of every payment the peer holds, one per payment. */
  references(): Promise<string[]>;
  stop(): Promise<void>;
}

/** A second instance of this service in test mode: the Shift4 API. */
async function shift4Peer(): Promise<Peer> {
  const peer: ServiceProcess = await startService();
  const api = new ApiClient(peer.baseUrl, peer.keys!.testSecretKey);
  const allowed = await runCli(['accounts', 'settings', peer.keys!.id, '--credits', 'allowed'], peer.dataDir);
  expect(allowed.code, allowed.stderr).to.equal(0);
  const all = async <T extends { metadata: Record<string, string> }>(path: string) => {
    const found: string[] = [];
    let startingAfterId: string | undefined;
    for (;;) {
      const page = (
        await api.get<Page<T & { id: string }>>(path, {
          query: { limit: '100', ...(startingAfterId ? { startingAfterId } : {}) },
        })
      ).body;
      found.push(...page.list.flatMap((object) => object.metadata.reference ?? []));
      if (!page.hasMore) return found;
      startingAfterId = page.list.at(-1)!.id;
    }
  };
  return {
    kind: 'shift4',
    url: peer.baseUrl,
    secretKey: peer.keys!.testSecretKey,
    references: async () => [...(await all<Charge>('/charges')), ...(await all<Credit>('/credits'))],
    async stop() {
      await peer.stop();
      removeDataDir(peer.dataDir);
    },
  };
}

/** localstripe: the Stripe API (payment intents; Stripe makes no card credits). */
async function stripePeer(): Promise<Peer | { missing: string }> {
  const found = findLocalstripe();
  if ('missing' in found) return found;
  const localstripe = await startLocalstripe(found);
  return {
    kind: 'stripe',
    url: localstripe.url,
    secretKey: localstripe.secretKey,
    async references() {
      const response = await fetch(`${localstripe.url}/v1/payment_intents?limit=1000`, {
        headers: { authorization: `Bearer ${localstripe.secretKey}` },
      });
      expect(response.status).to.equal(200);
      const intents = ((await response.json()) as { data: { metadata: Record<string, string> }[] }).data;
      return intents.flatMap((intent) => intent.metadata.reference ?? []);
    },
    stop: () => localstripe.stop(),
  };
}

interface ExportedEvent {
  type: string;
  data: { chargeId?: string; creditId?: string; closableAt?: string };
  metadata: { occurredAt: string };
}

/** How long the processors of these tests keep an idempotency key: the intent closes only after it. */
const IDEMPOTENCY_WINDOW_MS = 6000;

/**
 * A live charge or credit whose request is killed (kill -9) between its recorded intent and the
 * processor's answer, and that the merchant never retries: the worker looks it up at the
 * processor and records the charge (or credit) the processor made, once, or closes the intent as
 * never made once the processor's idempotency window is over. A retry afterwards answers what the
 * lookup settled, or, for a closed intent, makes the payment once. The tests of one adapter, in a
 * test file of their own (live-unanswered-intents-<kind>.test.ts): the two files wait for lookups
 * side by side in two mocha workers.
 */
export function describeUnansweredIntents(kind: 'shift4' | 'stripe'): void {
  describe('live payments whose request died between the intent and the answer, never retried', function () {
    this.timeout(240_000);
    const { api, service, start } = useService({ ownProcess: true, env: { SCHEDULER_INTERVAL_MS: '200' } });

    describe(`through the ${kind === 'shift4' ? 'Shift4' : 'Stripe'} adapter`, () => {
      let peer: Peer;

      before(async function () {
        const started = kind === 'shift4' ? await shift4Peer() : await stripePeer();
        if ('missing' in started) {
          console.warn(
            `\n*** localstripe cannot run here (${started.missing}): the Stripe unanswered-intent tests are SKIPPED. ***\n`,
          );
          this.skip();
        }
        peer = started;
      });
      after(async () => {
        await peer?.stop();
      });

      /** A fresh live account sending to the peer (1 s timeout: looked up 2 s after the intent). */
      async function liveAccount(name: string, url = peer.url) {
        const { keys } = await createOtherAccount(api, service.dataDir, name);
        await addProcessor(service.dataDir, keys.id, {
          kind: kind,
          url,
          secretKey: peer.secretKey,
          timeoutMs: 1000,
          idempotencyWindowMs: IDEMPOTENCY_WINDOW_MS,
        });
        const credits = await runCli(['accounts', 'settings', keys.id, '--credits', 'allowed'], service.dataDir);
        expect(credits.code, credits.stderr).to.equal(0);
        return { accountId: keys.id, live: api.withKey(keys.liveSecretKey) };
      }

      /** Sends the request with the service armed to die at `point`, then restarts it without the fault. */
      async function killedAt(point: string, send: () => Promise<unknown>) {
        await service.stop();
        await start({ env: { FAULT_INJECTION: `crash-live:${point}` } });
        expect(await send().catch((error: unknown) => error)).to.be.instanceOf(Error);
        expect(service.output()).to.contain(`FAULT INJECTION: crash at ${point}`);
        await service.kill();
        await start();
      }

      const countOf = (references: string[], reference: string) =>
        references.filter((found) => found === reference).length;

      /** The account's events as an operator exports them. */
      async function exported(accountId: string): Promise<ExportedEvent[]> {
        const run = await runCli(['audit', 'export', '--account', accountId], service.dataDir);
        expect(run.code, run.stderr).to.equal(0);
        return run.stdout
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as ExportedEvent);
      }

      /** The event types `streams show <id>` prints for a charge or credit id. */
      async function shownTypes(objectId: string): Promise<string[]> {
        const run = await runCli(['streams', 'show', objectId, '--json'], service.dataDir);
        expect(run.code, run.stderr).to.equal(0);
        return run.stdout
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => (JSON.parse(line) as { type: string }).type);
      }

      const charge = (live: ApiClient, key: string) =>
        live.post<Charge>('/charges', {
          json: { amount: 2500, currency: 'EUR', card: cardDetails('4242424242424242') },
          headers: { 'idempotency-key': key },
        });

      it('records the charge the processor made when the service died after its answer (charge.after-network-call)', async () => {
        const { live } = await liveAccount(`${kind} charge answered, then killed`);
        const key = `unanswered-after-${kind}-${Date.now()}`;
        await killedAt('charge.after-network-call', () => charge(live, key));
        const charges = await eventually(
          async () => (await live.get<Page<Charge>>('/charges')).body.list,
          (list) => list.length > 0 && list[0]!.status !== ('pending' as Charge['status']),
          30_000,
        );
        expect(charges).to.have.length(1);
        expect(charges[0]).to.include({ status: 'successful', amount: 2500, currency: 'EUR', captured: true });
        const chargeId = charges[0]!.id;
        expect(countOf(await peer.references(), chargeId)).to.equal(1);
        expect(await shownTypes(chargeId)).to.deep.equal(['ChargeAuthorizationStarted', 'ChargeSucceeded']);

        // The merchant's retry, later, answers the charge the lookup recorded: never a second one.
        const retry = await charge(live, key);
        expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
        expect(retry.body).to.include({ id: chargeId, status: 'successful' });
        expect(countOf(await peer.references(), chargeId)).to.equal(1);
        expect((await live.get<Page<Charge>>('/charges')).body.list).to.have.length(1);
      });

      it('records the charge the processor declined as failed with its code when the service died after its answer', async () => {
        const { live } = await liveAccount(`${kind} charge declined, then killed`);
        const key = `unanswered-declined-${kind}-${Date.now()}`;
        const declinedCharge = () =>
          live.post<ApiError>('/charges', {
            json: { amount: 700, currency: 'EUR', card: cardDetails('4000000000000341') },
            headers: { 'idempotency-key': key },
          });
        await killedAt('charge.after-network-call', declinedCharge);
        const [failed] = await eventually(
          async () => (await live.get<Page<Charge>>('/charges')).body.list,
          (list) => list.length > 0,
          30_000,
        );
        expect(failed).to.include({ status: 'failed', failureCode: 'card_declined' });
        expect(failed!.failureIssuerDeclineCode, "the processor's own code").to.equal(
          kind === 'shift4' ? '05' : 'card_declined',
        );
        expect(countOf(await peer.references(), failed!.id)).to.equal(1);
        const events = await eventually(
          async () => (await live.get<Page<PublicEvent>>('/events')).body.list,
          (list) => list.length > 0,
          10_000,
        );
        expect(events.map((event) => event.type)).to.deep.equal(['CHARGE_FAILED']);
        // The retry answers the decline the lookup recorded, and sends nothing.
        const retry = await declinedCharge();
        expect(retry.status, JSON.stringify(retry.body)).to.equal(402);
        expect(retry.body.error).to.include({ code: 'card_declined', chargeId: failed!.id });
        expect(countOf(await peer.references(), failed!.id)).to.equal(1);
      });

      it('closes the intent of a charge the processor never received, after its idempotency window (charge.before-network-call)', async () => {
        const { accountId, live } = await liveAccount(`${kind} charge killed before sending`);
        const key = `unanswered-before-${kind}-${Date.now()}`;
        const referencesBefore = await peer.references();
        await killedAt('charge.before-network-call', () => charge(live, key));
        const events = await eventually(
          () => exported(accountId),
          (found) => found.some((event) => event.type === 'ChargeAuthorizationClosed'),
          30_000,
        );
        const started = events.find((event) => event.type === 'ChargeAuthorizationStarted')!;
        const closed = events.find((event) => event.type === 'ChargeAuthorizationClosed')!;
        const chargeId = closed.data.chargeId!;
        // The time from which it may close counts from the time the intent records, exactly.
        expect(Date.parse(started.data.closableAt!) - Date.parse(started.metadata.occurredAt)).to.equal(
          IDEMPOTENCY_WINDOW_MS,
        );
        // Never closed while the processor could still take it: only once its idempotency window is over.
        expect(Date.parse(closed.metadata.occurredAt) - Date.parse(started.metadata.occurredAt)).to.be.at.least(
          IDEMPOTENCY_WINDOW_MS,
        );
        // Looked up and not found while the window was open (no lookup then, on a machine slow enough
        // that the restarted worker's first lookup came after the window: closed at that one), then closed.
        const lookups = await shownTypes(chargeId);
        expect(lookups.at(0)).to.equal('ChargeAuthorizationStarted');
        expect(lookups.at(-1)).to.equal('ChargeAuthorizationClosed');
        expect(lookups.slice(1, -1).filter((type) => type !== 'ChargeAuthorizationNotFound')).to.deep.equal([]);
        for (const noted of events.filter((event) => event.type === 'ChargeAuthorizationNotFound'))
          expect(Date.parse(noted.metadata.occurredAt)).to.be.below(Date.parse(started.data.closableAt!));
        // Nothing was charged: no charge here, none at the processor.
        expect((await live.get<Page<Charge>>('/charges')).body.list).to.deep.equal([]);
        expect((await live.get(`/charges/${chargeId}`)).status).to.equal(404);
        expect(await peer.references()).to.deep.equal(referencesBefore);

        // The merchant's retry makes the charge, once.
        const retry = await charge(live, key);
        expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
        expect(retry.body).to.include({ id: chargeId, status: 'successful' });
        expect(countOf(await peer.references(), chargeId)).to.equal(1);
        expect((await shownTypes(chargeId)).slice(lookups.length)).to.deep.equal([
          'ChargeAuthorizationStarted',
          'ChargeSucceeded',
        ]);
      });

      it('closes the intent at once when no processor received the charge (connection refused: 502)', async () => {
        const { accountId, live } = await liveAccount(`${kind} unreachable`, await closedPort());
        const refused = await charge(live, `unanswered-unreachable-${kind}-${Date.now()}`);
        expect(refused.status, JSON.stringify(refused.body)).to.equal(502);
        const events = await exported(accountId);
        expect(events.filter((event) => event.type.startsWith('Charge')).map((event) => event.type)).to.deep.equal([
          'ChargeAuthorizationStarted',
          'ChargeAuthorizationClosed',
        ]);
        expect((await live.get<Page<Charge>>('/charges')).body.list).to.deep.equal([]);
      });

      if (kind === 'shift4') {
        // Stripe makes no card credits: credits go to Shift4 processors only.
        const credit = (live: ApiClient, key: string) =>
          live.post<Credit>('/credits', {
            json: { amount: 750, currency: 'EUR', card: cardDetails('5555555555554444') },
            headers: { 'idempotency-key': key },
          });

        it('records the credit the processor sent when the service died after its answer (credit.after-network-call)', async () => {
          const { live } = await liveAccount('credit answered, then killed');
          const key = `unanswered-credit-after-${Date.now()}`;
          await killedAt('credit.after-network-call', () => credit(live, key));
          const credits = await eventually(
            async () => (await live.get<Page<Credit>>('/credits')).body.list,
            (list) => list.length > 0,
            30_000,
          );
          expect(credits).to.have.length(1);
          expect(credits[0]).to.include({ status: 'successful', amount: 750 });
          const creditId = credits[0]!.id;
          expect(countOf(await peer.references(), creditId)).to.equal(1);
          expect(await shownTypes(creditId)).to.deep.equal(['CreditTransferStarted', 'CreditSucceeded']);
          const retry = await credit(live, key);
          expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
          expect(retry.body).to.include({ id: creditId, status: 'successful' });
          expect(countOf(await peer.references(), creditId)).to.equal(1);
        });

        it('closes the intent of a credit the processor never received (credit.before-network-call), and a retry sends it once', async () => {
          const { accountId, live } = await liveAccount('credit killed before sending');
          const key = `unanswered-credit-before-${Date.now()}`;
          const referencesBefore = await peer.references();
          await killedAt('credit.before-network-call', () => credit(live, key));
          const events = await eventually(
            () => exported(accountId),
            (found) => found.some((event) => event.type === 'CreditTransferClosed'),
            30_000,
          );
          const creditId = events.find((event) => event.type === 'CreditTransferClosed')!.data.creditId!;
          expect((await live.get<Page<Credit>>('/credits')).body.list).to.deep.equal([]);
          expect(await peer.references()).to.deep.equal(referencesBefore);
          const retry = await credit(live, key);
          expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
          expect(retry.body).to.include({ id: creditId, status: 'successful' });
          expect(countOf(await peer.references(), creditId)).to.equal(1);
        });
      }
    });
  });
}
