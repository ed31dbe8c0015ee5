import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import type { FaultPoint } from '../../packages/config/fault-injection.ts';
import type { AuthorizationOutcome } from '../../packages/network/card-network.ts';
import type { ApiClient, ApiResponse } from '../support/api-client.ts';
import { cardDetails, eventsOf, type Charge, type Page } from '../support/payments.ts';
import { useCrashingService } from '../support/crashing-service.ts';

/**
 * A merchant's retrying client against a service killed (SIGKILL, through the FAULT_INJECTION
 * test hook) at each point of a charge: before the card network is asked, after it answered,
 * after the outcome is in the log, after the read models show it. The service restarts on the
 * same data directory and the client sends the same request with the same Idempotency-Key:
 * exactly one charge, one authorization, one public event, and every later retry answers exactly
 * as the retry did. (Customers, and answers given before a crash: idempotency-crash-customers.)
 */
describe('idempotent charges across a crash of the service', function () {
  this.timeout(90_000);
  const service = useCrashingService();
  afterEach(() => service.stop());

  /** What the simulated card network remembers of the authorization with this reference (its journal in the events file). */
  function networkAuthorization(reference: string): AuthorizationOutcome | null {
    const events = new Database(join(service.dataDir, 'events.sqlite'), { readonly: true });
    try {
      const outcome = events
        .prepare<[string, string], string>('SELECT outcome FROM network_journal WHERE journal = ? AND id = ?')
        .pluck()
        .get('authorizations', `test:${reference}`);
      return outcome === undefined ? null : (JSON.parse(outcome) as AuthorizationOutcome);
    } finally {
      events.close();
    }
  }

  const chargeRequest = (api: ApiClient, key: string, marker: string, number = '4242424242424242') =>
    api.post<Charge>('/charges', {
      json: { amount: 1250, currency: 'EUR', description: marker, card: cardDetails(number) },
      headers: { 'idempotency-key': key },
    });

  async function chargesMarked(api: ApiClient, marker: string): Promise<Charge[]> {
    const page = await api.get<Page<Charge>>('/charges', { query: { limit: '100' } });
    return page.body.list.filter((charge) => charge.description === marker);
  }

  /** Exactly one charge, one authorization, one outcome, one public event; a further retry replays. */
  async function expectOneCharge(
    api: ApiClient,
    key: string,
    marker: string,
    retry: ApiResponse<Charge | { error: { chargeId?: string } }>,
    outcome: 'succeeded' | 'failed',
    number = '4242424242424242',
  ): Promise<string> {
    const chargeId =
      outcome === 'succeeded'
        ? (retry.body as Charge).id
        : (retry.body as { error: { chargeId: string } }).error.chargeId;
    expect(chargeId).to.match(/^char_/);
    const charges = await chargesMarked(api, marker);
    expect(charges.map((charge) => charge.id)).to.deep.equal([chargeId]);

    const recorded = await service.stream(`charge-${chargeId}`);
    const results = recorded.filter((event) => event.type === 'ChargeSucceeded' || event.type === 'ChargeFailed');
    expect(results.map((event) => event.type)).to.deep.equal([
      outcome === 'succeeded' ? 'ChargeSucceeded' : 'ChargeFailed',
    ]);
    expect(results[0]!.metadata.idempotencyKey).to.equal(key);
    const intents = await service.stream(`chargeAuthorization-${chargeId}`);
    expect(intents.map((event) => event.type)).to.deep.equal(['ChargeAuthorizationStarted']);
    // The charge holds the answer the network keeps for its reference. (Killed right after the network answered, the
    // answer was lost with the process before its commit; the retry asked again and got the same answer.)
    const authorization = networkAuthorization(chargeId);
    expect(authorization, 'the network remembers its answer for this charge').not.to.equal(null);
    expect(results[0]!.data.networkTransactionId).to.equal(authorization!.transactionId);

    const publicType = outcome === 'succeeded' ? 'CHARGE_SUCCEEDED' : 'CHARGE_FAILED';
    expect((await eventsOf(api, chargeId)).filter((event) => event.type === publicType)).to.have.length(1);

    const again = await chargeRequest(api, key, marker, number);
    expect(again.status).to.equal(retry.status);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(retry.body);
    return chargeId;
  }

  const chargeCrashPoints: FaultPoint[] = [
    'charge.before-network-call',
    'charge.after-network-call',
    'charge.after-append',
    'request.after-projection',
  ];
  for (const point of chargeCrashPoints) {
    it(`a charge killed at ${point} is made exactly once when retried`, async () => {
      const key = `order-${point}`;
      const marker = `crash ${point}`;
      await service.crashAt(point, (api) => chargeRequest(api, key, marker));
      const api = await service.start();
      const retry = await chargeRequest(api, key, marker);
      expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
      expect(retry.body).to.include({ amount: 1250, currency: 'EUR', status: 'successful', captured: true });
      await expectOneCharge(api, key, marker, retry, 'succeeded');
      expect((await api.get<Charge>(`/charges/${retry.body.id}`)).body).to.deep.equal(retry.body);
    });
  }

  it('a declined charge killed after the network answered is declined once, with the same answer on retry', async () => {
    const key = 'order-declined';
    const marker = 'crash declined';
    await service.crashAt('charge.after-network-call', (api) => chargeRequest(api, key, marker, '4000000000000002'));
    const api = await service.start();
    const retry = await chargeRequest(api, key, marker, '4000000000000002');
    expect(retry.status).to.equal(402);
    expect(retry.body).to.have.nested.property('error.code', 'card_declined');
    await expectOneCharge(api, key, marker, retry, 'failed', '4000000000000002');
  });
});
