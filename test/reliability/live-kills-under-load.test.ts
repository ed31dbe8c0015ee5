import { expect } from 'chai';
import { addProcessor } from '../support/account-processors.ts';
import { ApiClient, type ApiResponse } from '../support/api-client.ts';
import { cardDetails, createOtherAccount, type Charge, type Page, type Refund } from '../support/payments.ts';
import { removeDataDir, startService, type ServiceProcess } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';
import { scale, suiteTimeoutMs } from './scale.ts';

const RATE_LIMITS = { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' };
/** How long after a (re)start the next kill may come: a random moment in this window. */
const KILL_AFTER_MS = { min: 300, max: 2_000 };
/** Each writer's payments in turn: a charge captured at once, an authorization captured later, a charge refunded in part. */
const KINDS = ['charge', 'authorize-capture', 'charge-refund'] as const;
type Kind = (typeof KINDS)[number];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number): number => sorted[Math.max(0, Math.ceil(sorted.length * p) - 1)]!;

/** What the merchant's client was told: the charge, and the capture or refund when one was answered. */
interface Acknowledged {
  key: string;
  kind: Kind;
  charge: Charge;
  captured: boolean;
  refund: Refund | null;
}

/**
 * Live mode under random kills: this service (its own process) sends its account's live-mode
 * payments through the Shift4 adapter to a second instance of the service in test mode (the
 * peer), while clients charge, capture and refund with Idempotency-Keys, sending each request
 * again with its key until it is answered. The service is killed with SIGKILL at random moments
 * and started again. Afterwards every pending charge is settled, every acknowledged charge exists
 * once on each side, no intent is charged twice at the peer (counted there), and every answered
 * capture and refund happened once at the peer.
 */
describe(`live-mode payments through a processor under kill -9 (${scale.liveKills} random kills)`, function () {
  this.timeout(suiteTimeoutMs);
  const { api, service, start } = useService({
    ownProcess: true,
    env: { SCHEDULER_INTERVAL_MS: '200', ...RATE_LIMITS },
  });
  let peer: ServiceProcess;
  let peerApi: ApiClient;

  before('start the peer', async () => {
    peer = await startService({ env: RATE_LIMITS });
    peerApi = new ApiClient(peer.baseUrl, peer.keys!.testSecretKey);
  });
  after('stop the peer', async () => {
    await peer.stop();
    removeDataDir(peer.dataDir);
  });

  /** Every object of a list endpoint, newest first. */
  async function everything<T extends { id: string }>(client: ApiClient, path: string): Promise<T[]> {
    const found: T[] = [];
    for (;;) {
      const query: Record<string, string> = {
        limit: '100',
        ...(found.length ? { startingAfterId: found.at(-1)!.id } : {}),
      };
      const page = await client.get<Page<T>>(path, { query });
      expect(page.status, JSON.stringify(page.body)).to.equal(200);
      found.push(...page.body.list);
      if (!page.body.hasMore || page.body.list.length === 0) return found;
    }
  }

  it('settles every payment, charges no intent twice at the processor and loses no acknowledged one', async () => {
    const { keys } = await createOtherAccount(api, service.dataDir, 'Live under kills');
    await addProcessor(service.dataDir, keys.id, {
      kind: 'shift4',
      url: peer.baseUrl,
      secretKey: peer.keys!.testSecretKey,
      timeoutMs: 3000,
    });
    const live = api.withKey(keys.liveSecretKey);

    const answers = new Map<string, number>();
    const unexpected: string[] = [];
    /** Requests sent and not yet answered (or failed): how many each kill cut short. */
    let inFlight = 0;
    /** Requests that went unanswered at least once and were answered on a later try. */
    let answeredAfterRetry = 0;
    /** Sends a request again with its Idempotency-Key until it is answered 200, as a client of a flaky network does. */
    async function untilAnswered<T>(send: () => Promise<ApiResponse<T>>, what: string): Promise<T | null> {
      // A retry may wait out a killed run's pending record (5 s) or an in-progress duplicate (409 after 30 s).
      const giveUpAt = Date.now() + 120_000;
      for (let attempt = 0; Date.now() < giveUpAt; attempt++) {
        let status: string;
        inFlight++;
        try {
          const answer = await send();
          if (answer.status === 200) {
            answers.set('200', (answers.get('200') ?? 0) + 1);
            if (attempt > 0) answeredAfterRetry++;
            return answer.body;
          }
          status = String(answer.status);
          // A client error other than "the same key is still being worked on" will not change on a retry.
          if (answer.status < 500 && answer.status !== 409 && answer.status !== 429) {
            answers.set(status, (answers.get(status) ?? 0) + 1);
            unexpected.push(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
            return null;
          }
        } catch {
          status = 'no answer';
        } finally {
          inFlight--;
        }
        answers.set(status, (answers.get(status) ?? 0) + 1);
        await sleep(100);
      }
      unexpected.push(`${what}: not answered 200 within 120 s`);
      return null;
    }
    /** Our charge once no longer pending, read through restarts. */
    async function settled(chargeId: string, timeoutMs: number): Promise<Charge | null> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const read = await live.get<Charge>(`/charges/${chargeId}`).catch(() => null);
        if (read?.status === 200 && read.body.status !== 'pending') return read.body;
        await sleep(200);
      }
      return null;
    }

    const acknowledged: Acknowledged[] = [];
    const latencies: number[] = [];
    let sent = 0;
    let pendingWhenAnswered = 0;
    let writing = true;
    const writers = Array.from({ length: scale.writers }, async (_, writer) => {
      for (let i = 0; writing; i++) {
        const key = `live-kill-${writer}-${i}`;
        const kind = KINDS[i % KINDS.length]!;
        sent++;
        const began = Date.now();
        const charge = await untilAnswered(
          () =>
            live.post<Charge>('/charges', {
              json: {
                amount: 1000 + i,
                currency: 'EUR',
                card: cardDetails('4242424242424242'),
                captured: kind !== 'authorize-capture',
                metadata: { key },
              },
              headers: { 'idempotency-key': key },
            }),
          `charge ${key}`,
        );
        if (!charge) continue;
        latencies.push(Date.now() - began);
        const entry: Acknowledged = { key, kind, charge, captured: charge.captured, refund: null };
        acknowledged.push(entry);
        if (charge.status === 'pending') pendingWhenAnswered++;
        if (kind === 'charge') continue;
        // A capture or refund needs the charge's outcome.
        const outcome = charge.status === 'pending' ? await settled(charge.id, 60_000) : charge;
        if (outcome?.status !== 'successful') continue;
        if (kind === 'authorize-capture') {
          const captured = await untilAnswered(
            () =>
              live.post<Charge>(`/charges/${charge.id}/capture`, { headers: { 'idempotency-key': `${key}-capture` } }),
            `capture ${key}`,
          );
          if (captured) entry.captured = captured.captured;
        } else {
          entry.refund = await untilAnswered(
            () =>
              live.post<Refund>('/refunds', {
                json: { chargeId: charge.id, amount: 300 },
                headers: { 'idempotency-key': `${key}-refund` },
              }),
            `refund ${key}`,
          );
        }
      }
    });

    /**
     * A random while, and until the service has acknowledged more payments than there are writers
     * since `from` (at most a minute): a loaded machine's slow start-ups and answers still leave
     * every kill under load.
     */
    async function underLoad(from: number, ms: number): Promise<void> {
      await sleep(ms);
      const deadline = Date.now() + 60_000;
      while (acknowledged.length - from <= scale.writers && Date.now() < deadline) await sleep(50);
    }

    // Kills at random moments, each once the service has served for a random while.
    const kills: number[] = [];
    const cutShort: number[] = [];
    const loadStarted = Date.now();
    for (let kill = 0; kill < scale.liveKills; kill++) {
      await underLoad(acknowledged.length, KILL_AFTER_MS.min + Math.random() * (KILL_AFTER_MS.max - KILL_AFTER_MS.min));
      kills.push(Date.now() - loadStarted);
      cutShort.push(inFlight);
      await service.kill();
      await start();
    }
    // Some load after the last restart too.
    await underLoad(acknowledged.length, KILL_AFTER_MS.max);
    writing = false;
    await Promise.all(writers);

    // Every pending charge settles (the due-work scheduler asks the processor).
    let unsettled = 0;
    const settleBy = Date.now() + 60_000;
    for (const entry of acknowledged) {
      const outcome = await settled(entry.charge.id, Math.max(1, settleBy - Date.now()));
      if (outcome) entry.charge = outcome;
      else unsettled++;
    }

    // This side: every acknowledged charge, once per key.
    const ours = await everything<Charge>(live, '/charges');
    const oursById = new Map(ours.map((charge) => [charge.id, charge]));
    const keysHere = new Map<string, number>();
    for (const charge of ours) keysHere.set(charge.metadata.key!, (keysHere.get(charge.metadata.key!) ?? 0) + 1);
    const doubledKeys = [...keysHere.values()].filter((count) => count > 1).length;
    const missingHere = acknowledged.filter((entry) => !oursById.has(entry.charge.id)).length;

    // The peer: one charge for each of ours (its reference), none for an intent twice, none unknown here.
    const atPeer = await everything<Charge>(peerApi, '/charges');
    const byReference = new Map<string, Charge[]>();
    for (const charge of atPeer) {
      const reference = charge.metadata.reference ?? '(none)';
      byReference.set(reference, [...(byReference.get(reference) ?? []), charge]);
    }
    const chargedTwiceAtPeer = [...byReference.values()].filter((charges) => charges.length > 1).length;
    const missingAtPeer = acknowledged.filter((entry) => !byReference.has(entry.charge.id)).length;
    const unknownHere = [...byReference.keys()].filter((reference) => !oursById.has(reference)).length;
    // Both sides tell the same story of each charge: outcome, capture and refunds (each refund once).
    const differing: string[] = [];
    let capturesMissing = 0;
    let refundsMissing = 0;
    let refundsDoubled = 0;
    for (const entry of acknowledged) {
      const here = oursById.get(entry.charge.id);
      const [there] = byReference.get(entry.charge.id) ?? [];
      if (!here || !there) continue;
      if (
        here.status !== there.status ||
        here.captured !== there.captured ||
        here.refunds.length !== there.refunds.length
      )
        differing.push(
          `${entry.key}: here ${here.status}/${here.captured}/${here.refunds.length} refunds, ` +
            `peer ${there.status}/${there.captured}/${there.refunds.length} refunds`,
        );
      if (entry.kind === 'authorize-capture' && entry.captured && !there.captured) capturesMissing++;
      if (entry.refund) {
        const refunded = there.refunds.filter((refund) => refund.metadata.reference === entry.refund!.id).length;
        if (refunded === 0) refundsMissing++;
        if (refunded > 1) refundsDoubled++;
      }
    }

    latencies.sort((a, b) => a - b);
    console.log(
      `      live kills [${scale.name}]: ${kills.length} kills at ${kills.join(', ')} ms (requests in flight ${cutShort.join(', ')}), ` +
        `${scale.writers} writers, ${answeredAfterRetry} requests answered only on a retry, ` +
        `${sent} charges sent, ${acknowledged.length} acknowledged (${pendingWhenAnswered} pending when answered, ` +
        `${unsettled} never settled), ${acknowledged.filter((entry) => entry.kind === 'authorize-capture' && entry.captured).length} captures and ` +
        `${acknowledged.filter((entry) => entry.refund).length} refunds acknowledged; ` +
        `here: ${ours.length} charges, missing ${missingHere}, doubled keys ${doubledKeys}; ` +
        `peer: ${atPeer.length} charges, missing ${missingAtPeer}, intents charged twice ${chargedTwiceAtPeer}, ` +
        `unknown here ${unknownHere}, captures missing ${capturesMissing}, refunds missing ${refundsMissing}, ` +
        `refunds doubled ${refundsDoubled}, differing ${differing.length}; ` +
        `charge answered after p50 ${latencies.length ? percentile(latencies, 0.5) : NaN} ms, ` +
        `p99 ${latencies.length ? percentile(latencies, 0.99) : NaN} ms (retries included); ` +
        `answers ${JSON.stringify(Object.fromEntries(answers))}`,
    );
    expect(unexpected, 'answers other than 200 that a retry does not change').to.deep.equal([]);
    expect({
      unsettled,
      missingHere,
      doubledKeys,
      missingAtPeer,
      chargedTwiceAtPeer,
      unknownHere,
      capturesMissing,
      refundsMissing,
      refundsDoubled,
    }).to.deep.equal({
      unsettled: 0,
      missingHere: 0,
      doubledKeys: 0,
      missingAtPeer: 0,
      chargedTwiceAtPeer: 0,
      unknownHere: 0,
      capturesMissing: 0,
      refundsMissing: 0,
      refundsDoubled: 0,
    });
    expect(differing.slice(0, 10), `${differing.length} charges differ between the two sides`).to.deep.equal([]);
    expect(acknowledged.every((entry) => entry.charge.status === 'successful')).to.equal(true);
    // Kills landed under load: more payments than writers were made.
    expect(acknowledged.length).to.be.above(scale.writers * (kills.length + 1));
  });
});
