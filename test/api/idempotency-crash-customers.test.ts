import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { CrashingService } from '../support/crashing-service.ts';
import { cardDetails, eventsOf, type Charge, type Customer, type Page } from '../support/payments.ts';

/**
 * The other half of idempotency-crash: a customer create killed after its events are in the log
 * and after the read models show it, retried with the same Idempotency-Key after a restart, makes
 * one customer; and an answer given before a kill -9 is the answer the retry gets.
 */
describe('idempotent customer creates and given answers across a crash of the service', function () {
  this.timeout(90_000);
  let service: CrashingService;

  before(async () => {
    service = await CrashingService.create();
  });
  afterEach(() => service.stop());
  after(() => service.remove());

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
});
