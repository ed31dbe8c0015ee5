import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { useCrashingService } from '../support/crashing-service.ts';
import { runCli } from '../support/service-process.ts';
import { cardDetails, eventsOf, type Charge, type Customer, type Page } from '../support/payments.ts';

/**
 * The other half of idempotency-crash: a customer create killed after its events are in the log
 * and after the read models show it, retried with the same Idempotency-Key after a restart, makes
 * one customer; so do a refund, a credit (killed after the network sent the funds) and a webhook
 * endpoint create (its secret answered again); and an answer given before a kill -9 is the answer
 * the retry gets.
 */
describe('idempotent customer creates and given answers across a crash of the service', function () {
  this.timeout(90_000);
  const service = useCrashingService();
  afterEach(() => service.stop());

  const chargeRequest = (api: ApiClient, key: string, marker: string) =>
    api.post<Charge>('/charges', {
      json: { amount: 1250, currency: 'EUR', description: marker, card: cardDetails('4242424242424242') },
      headers: { 'idempotency-key': key },
    });

  async function chargesMarked(api: ApiClient, marker: string): Promise<Charge[]> {
    const page = await api.get<Page<Charge>>('/charges', { query: { limit: '100' } });
    return page.body.list.filter((charge) => charge.description === marker);
  }

  it('an answer that was given is the answer after a crash: the retry replays it', async () => {
    let api = await service.start();
    const first = await chargeRequest(api, 'order-answered', 'answered');
    expect(first.status).to.equal(200);
    await service.kill();
    api = await service.start();
    const retry = await chargeRequest(api, 'order-answered', 'answered');
    expect(retry.status).to.equal(200);
    expect(retry.headers.get('idempotent-replayed')).to.equal('true');
    expect(retry.body).to.deep.equal(first.body);
    expect(await chargesMarked(api, 'answered')).to.have.length(1);
  });

  const customerRequest = (api: ApiClient, key: string, email: string) =>
    api.post<Customer>('/customers', {
      json: { email, card: cardDetails('4242424242424242') },
      headers: { 'idempotency-key': key },
    });

  for (const point of ['customer.after-append', 'request.after-projection'] as const) {
    it(`a customer create killed at ${point} creates exactly one customer when retried`, async () => {
      const key = `customer-${point}`;
      const email = `crash-${point.replace(/\W/g, '-')}@example.com`;
      await service.crashAt(point, (api) => customerRequest(api, key, email));
      const api = await service.start();
      const retry = await customerRequest(api, key, email);
      expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
      expect(retry.body.email).to.equal(email);
      const found = await api.get<Page<Customer>>('/customers', { query: { email, limit: '100' } });
      expect(found.body.list.map((customer) => customer.id)).to.deep.equal([retry.body.id]);
      const created = (await service.stream(`customer-${retry.body.id}`)).filter(
        (event) => event.type === 'CustomerCreated',
      );
      expect(created).to.have.length(1);
      expect((await eventsOf(api, retry.body.id)).filter((event) => event.type === 'CUSTOMER_CREATED')).to.have.length(
        1,
      );
      const again = await customerRequest(api, key, email);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(retry.body);
      expect((await api.get<Customer>(`/customers/${retry.body.id}`)).body).to.deep.equal(retry.body);
    });
  }

  it('a refund killed after the read models show it is made once when retried', async () => {
    let api = await service.start();
    const charge = await chargeRequest(api, 'order-to-refund', 'to refund');
    expect(charge.status).to.equal(200);
    const refund = (client: ApiClient) =>
      client.post<Charge>(`/charges/${charge.body.id}/refund`, {
        json: { amount: 500 },
        headers: { 'idempotency-key': 'refund-once' },
      });
    await service.stop();
    await service.crashAt('request.after-projection', refund);
    api = await service.start();
    const retry = await refund(api);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    expect(retry.body.refunds).to.have.length(1);
    expect(retry.body.refunds[0]).to.include({ amount: 500, status: 'successful' });
    const again = await refund(api);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(retry.body);
    const requested = (await service.stream(`charge-${charge.body.id}`)).filter(
      (event) => event.type === 'RefundRequested',
    );
    expect(requested).to.have.length(1);
  });

  it('a webhook endpoint create killed after the read models show it creates one endpoint, same secret', async () => {
    const url = 'http://127.0.0.1:9/hooks/crash';
    const create = (client: ApiClient) =>
      client.post<{ id: string; secret: string; url: string }>('/webhook-endpoints', {
        json: { url },
        headers: { 'idempotency-key': 'endpoint-once' },
      });
    await service.crashAt('request.after-projection', create);
    const api = await service.start();
    const retry = await create(api);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    expect(retry.body.secret).to.match(/^whsec_/);
    const endpoints = await api.get<Page<{ id: string; url: string }>>('/webhook-endpoints', {
      query: { limit: '100' },
    });
    expect(endpoints.body.list.filter((endpoint) => endpoint.url === url).map((endpoint) => endpoint.id)).to.deep.equal(
      [retry.body.id],
    );
    const again = await create(api);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(retry.body);
  });

  it('a credit killed after the network sent the funds is sent once when retried', async () => {
    const credit = (client: ApiClient) =>
      client.post<{ id: string; amount: number; status?: string }>('/credits', {
        json: { amount: 700, currency: 'EUR', card: cardDetails('4242424242424242') },
        headers: { 'idempotency-key': 'credit-once' },
      });
    // Credits are for accounts whose business model allows them (refused by default).
    const allowed = await runCli(['accounts', 'settings', service.accountId, '--credits', 'allowed'], service.dataDir);
    expect(allowed.code, allowed.stderr).to.equal(0);
    await service.crashAt('credit.after-network-call', credit);
    const api = await service.start();
    const retry = await credit(api);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    const creditId = retry.body.id;
    expect((await service.stream(`creditTransfer-${creditId}`)).map((event) => event.type)).to.deep.equal([
      'CreditTransferStarted',
    ]);
    const recorded = await service.stream(`credit-${creditId}`);
    expect(recorded.map((event) => event.type)).to.deep.equal(['CreditSucceeded']);
    const credits = await api.get<Page<{ id: string }>>('/credits', { query: { limit: '100' } });
    expect(credits.body.list.map((listed) => listed.id)).to.deep.equal([creditId]);
    const again = await credit(api);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(retry.body);
  });
});
