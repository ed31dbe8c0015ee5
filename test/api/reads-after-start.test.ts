import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import { cardDetails, type Charge, type Customer, type Page } from '../support/payments.ts';
import { removeDataDir, startService, type ServiceProcess } from '../support/service-process.ts';

/**
 * An API process whose read models are behind the event log (just restarted, or a replica whose
 * projector is away) must never answer an object as it was before a write it acknowledged or
 * that was acknowledged before it started: it answers 503 until the read models hold the write.
 */
describe('reads while the read models are behind the log', function () {
  this.timeout(90_000);
  const started: ServiceProcess[] = [];
  after(async () => {
    for (const service of started.reverse()) await service.stop().catch(() => undefined);
    if (started[0]) removeDataDir(started[0].dataDir);
  });

  it('answers 503 with Retry-After, never the object without the write, until a projector catches up', async () => {
    const first = await startService();
    started.push(first);
    const key = first.keys!.testSecretKey;
    const customer = await new ApiClient(first.baseUrl, key).post<Customer>('/customers', {
      json: { email: 'behind@example.com' },
    });
    expect(customer.status).to.equal(200);
    await first.stop();

    // An API process with no projector: writes reach the log, the read models stay where they are.
    const apiOnly = await startService({
      dataDir: first.dataDir,
      env: { SERVICE_ROLE: 'api', READ_YOUR_WRITES_TIMEOUT_MS: '300' },
    });
    started.push(apiOnly);
    const api = new ApiClient(apiOnly.baseUrl, key);
    const path = `/customers/${customer.body.id}`;
    // Its own answer may time out waiting for the projector (the read-your-writes bound): not the
    // subject here; what matters is that the write is in the log and the read models lack it.
    await api.post(path, { json: { metadata: { plan: 'gold' } } });
    await apiOnly.stop();

    // Started again, it finds the log ahead of its read models: no read until they catch up.
    const restarted = await startService({
      dataDir: first.dataDir,
      env: { SERVICE_ROLE: 'api', READ_YOUR_WRITES_TIMEOUT_MS: '300' },
    });
    started.push(restarted);
    const reader = new ApiClient(restarted.baseUrl, key);
    const behind = await reader.get(path);
    expect(behind.status).to.equal(503);
    expect((await fetch(`${restarted.baseUrl}/ready`)).status).to.equal(503);

    started.push(await startService({ dataDir: first.dataDir, env: { SERVICE_ROLE: 'projector' } }));
    let read = await reader.get<Customer>(path);
    for (let i = 0; i < 50 && read.status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      read = await reader.get<Customer>(path);
    }
    expect(read.status).to.equal(200);
    expect(read.body.metadata).to.deep.equal({ plan: 'gold' });
    expect((await fetch(`${restarted.baseUrl}/ready`)).status).to.equal(200);
  });
  it('answers a recorded write it cannot read yet with 503 saying so, never 404, and its retry with the object once projected', async () => {
    const first = await startService();
    started.push(first);
    const key = first.keys!.testSecretKey;
    await first.stop();

    const apiOnly = await startService({
      dataDir: first.dataDir,
      env: { SERVICE_ROLE: 'api', READ_YOUR_WRITES_TIMEOUT_MS: '300' },
    });
    started.push(apiOnly);
    const api = new ApiClient(apiOnly.baseUrl, key);
    const send = () =>
      api.post<Charge>('/charges', {
        json: { amount: 1500, currency: 'EUR', card: cardDetails('4242424242424242') },
        headers: { 'idempotency-key': 'recorded-not-readable' },
      });
    // Caught up with the log at its start; the projector is away from now on.
    expect((await api.get('/charges')).status).to.equal(200);
    const recorded = await send();
    expect(recorded.status).to.equal(503);
    expect(recorded.headers.get('retry-after')).to.equal('1');
    expect(JSON.stringify(recorded.body), JSON.stringify(recorded.body)).to.include('was recorded');

    started.push(await startService({ dataDir: first.dataDir, env: { SERVICE_ROLE: 'projector' } }));
    let retried = await send();
    for (let i = 0; i < 50 && retried.status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      retried = await send();
    }
    expect(retried.status).to.equal(200);
    expect(retried.body.amount).to.equal(1500);
    const charges = await api.get<Page<Charge>>('/charges');
    expect(charges.body.list.map((charge) => charge.id)).to.deep.equal([retried.body.id]);
  });
});
