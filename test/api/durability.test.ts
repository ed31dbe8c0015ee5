import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { useService } from '../support/use-service.ts';

type Customer = { id: string; email: string };

describe('durability of acknowledged writes', function () {
  this.timeout(90_000);
  // Each test starts on its own data directory, then restarts on it.
  const { api, service, start } = useService({ startedBy: 'test', ownProcess: true });

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
    await start();
    const created = await createCustomers(api, 20);
    expect(await service.stop()).to.equal(0);

    await start();
    expect(service.keys, 'no second default account').to.equal(null);
    for (const customer of created)
      expect((await api.get<Customer>(`/customers/${customer.id}`)).body).to.deep.equal(customer);
  });

  it('keeps every acknowledged customer after kill -9 in the middle of writing', async () => {
    await start();
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

    await start();
    for (const customer of acknowledged) {
      const read = await api.get<Customer>(`/customers/${customer.id}`);
      expect(read.status, customer.id).to.equal(200);
      expect(read.body).to.deep.equal(customer);
    }
  });
});
