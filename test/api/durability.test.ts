import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import { removeDataDir, startService, type ServiceProcess } from '../support/service-process.ts';

type Customer = { id: string; email: string };

describe('durability of acknowledged writes', function () {
  this.timeout(90_000);
  let service: ServiceProcess;

  afterEach(async () => {
    await service.stop();
    removeDataDir(service.dataDir);
  });

  async function createCustomers(api: ApiClient, count: number): Promise<Customer[]> {
    const created: Customer[] = [];
    for (let i = 0; i < count; i++) {
      const response = await api.post<Customer>('/customers', { json: { email: `durable-${i}@example.com` } });
      expect(response.status).to.equal(200);
      created.push(response.body);
    }
    return created;
  }

  it('keeps every acknowledged customer across a graceful restart', async () => {
    service = await startService();
    const keys = service.keys!;
    const created = await createCustomers(new ApiClient(service.baseUrl, keys.testSecretKey), 20);
    expect(await service.stop()).to.equal(0);

    service = await startService({ dataDir: service.dataDir });
    expect(service.keys, 'no second default account').to.equal(null);
    const api = new ApiClient(service.baseUrl, keys.testSecretKey);
    for (const customer of created)
      expect((await api.get<Customer>(`/customers/${customer.id}`)).body).to.deep.equal(customer);
  });

  it('keeps every acknowledged customer after kill -9 in the middle of writing', async () => {
    service = await startService();
    const keys = service.keys!;
    const api = new ApiClient(service.baseUrl, keys.testSecretKey);
    const acknowledged: Customer[] = [];
    let writing = true;
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      for (let i = 0; writing; i++) {
        try {
          const response = await api.post<Customer>('/customers', {
            json: { email: `killed-${writer}-${i}@example.com` },
          });
          if (response.status === 200) acknowledged.push(response.body);
        } catch {
          return; // the connection died with the process: that write was never acknowledged
        }
      }
    });
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 10));
    await service.kill();
    writing = false;
    await Promise.all(writers);

    service = await startService({ dataDir: service.dataDir });
    const restarted = new ApiClient(service.baseUrl, keys.testSecretKey);
    for (const customer of acknowledged) {
      const read = await restarted.get<Customer>(`/customers/${customer.id}`);
      expect(read.status, customer.id).to.equal(200);
      expect(read.body).to.deep.equal(customer);
    }
  });
});
