import { expect } from 'chai';
import type { ApiClient } from '../support/api-client.ts';
import { cardDetails, type Charge, type Customer, type Page } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';
import { scale, suiteTimeoutMs } from './scale.ts';

/**
 * A write that was answered: the object must read back as answered, or (when a later write of it
 * was sent but never answered because the process died) as that write would have left it.
 */
type Acknowledged = { path: string; body: Customer | Charge; orUnanswered?: Customer | Charge };

/** Every object of a list endpoint, newest first, by id. */
async function everything(api: ApiClient, path: string): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>();
  let startingAfterId: string | undefined;
  for (;;) {
    const query: Record<string, string> = { limit: '100', ...(startingAfterId ? { startingAfterId } : {}) };
    const page = (await api.get<Page<{ id: string }>>(path, { query })).body;
    for (const object of page.list) found.set(object.id, object);
    if (!page.hasMore || page.list.length === 0) return found;
    startingAfterId = page.list.at(-1)!.id;
  }
}

/**
 * kill -9 while several clients write (customers, charges, customer updates): after each restart
 * every acknowledged write reads back as it was acknowledged, and at the end the read models
 * rebuilt from the event log equal the ones the running service kept.
 */
describe(`kill -9 under load (${scale.killCycles} cycles × ${scale.writesPerCycle} writes)`, function () {
  this.timeout(suiteTimeoutMs);
  // The client follows the service across restarts.
  const { api, service, start } = useService({
    ownProcess: true,
    env: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' },
  });

  it('loses no acknowledged write, and the event log and the read models agree afterwards', async () => {
    const acknowledged: Acknowledged[] = [];
    let attempted = 0;
    /** Acknowledged writes that did not read back as acknowledged after a restart: path and what was read. */
    const lost = new Map<string, string>();

    for (let cycle = 0; cycle < scale.killCycles; cycle++) {
      const target = acknowledged.length + scale.writesPerCycle;
      let writing = true;
      const writers = Array.from({ length: scale.writers }, async (_, writer) => {
        for (let i = 0; writing; i++) {
          attempted++;
          try {
            const email = `kill-${cycle}-${writer}-${i}@example.com`;
            const customer = await api.post<Customer>('/customers', {
              json: { email, card: cardDetails('4242424242424242') },
            });
            if (customer.status !== 200) continue;
            acknowledged.push({ path: `/customers/${customer.body.id}`, body: customer.body });
            const charge = await api.post<Charge>('/charges', {
              json: { amount: 100 + i, currency: 'EUR', customerId: customer.body.id },
            });
            if (charge.status === 200) acknowledged.push({ path: `/charges/${charge.body.id}`, body: charge.body });
            const entry = acknowledged.find((candidate) => candidate.body.id === customer.body.id)!;
            const metadata = { cycle: String(cycle) };
            // Sent: if the process dies before answering, the update may or may not be on disk.
            entry.orUnanswered = { ...entry.body, metadata };
            const updated = await api.post<Customer>(`/customers/${customer.body.id}`, { json: { metadata } });
            if (updated.status === 200) {
              entry.body = updated.body;
              delete entry.orUnanswered;
            }
          } catch {
            return; // the connection died with the process: that write was never acknowledged
          }
        }
      });
      while (acknowledged.length < target) await new Promise((resolve) => setTimeout(resolve, 5));
      await service.kill();
      writing = false;
      await Promise.all(writers);

      await start();
      for (const { path, body, orUnanswered } of acknowledged) {
        const read = await api.get(path);
        const text = JSON.stringify(read.body);
        if (
          read.status === 200 &&
          (text === JSON.stringify(body) || (orUnanswered && text === JSON.stringify(orUnanswered)))
        )
          continue;
        lost.set(path, `${read.status} ${text.slice(0, 300)}`);
      }
    }

    const kept = { customers: await everything(api, '/customers'), charges: await everything(api, '/charges') };
    const rebuild = await runCli(['projections', 'rebuild', '--all'], service.dataDir);
    expect(rebuild.code, rebuild.stderr).to.equal(0);
    const rebuilt = { customers: await everything(api, '/customers'), charges: await everything(api, '/charges') };
    // Each writer sends each customer once, and one charge for each: more is a write made twice.
    const tally = (values: string[]) => {
      const counts = new Map<string, number>();
      for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
      return [...counts.values()].filter((count) => count > 1).length;
    };
    const doubled =
      tally([...kept.customers.values()].map((customer) => (customer as Customer).email!)) +
      tally([...kept.charges.values()].map((charge) => (charge as Charge).customerId!));
    const rebuildDiffers =
      JSON.stringify([...rebuilt.customers.entries()]) !== JSON.stringify([...kept.customers.entries()]) ||
      JSON.stringify([...rebuilt.charges.entries()]) !== JSON.stringify([...kept.charges.entries()]);
    console.log(
      `      kill -9 [${scale.name}]: ${scale.killCycles} cycles, ${attempted} write attempts, ${acknowledged.length} acknowledged writes, ` +
        `lost ${lost.size}, doubled ${doubled}; ${kept.customers.size} customers and ${kept.charges.size} charges, ` +
        `${rebuildDiffers ? 'NOT ' : ''}equal after a rebuild from the log`,
    );
    expect([...lost.entries()].slice(0, 5), `${lost.size} acknowledged writes lost`).to.deep.equal([]);
    expect(doubled, 'writes made twice').to.equal(0);
    expect([...rebuilt.customers.entries()]).to.deep.equal([...kept.customers.entries()]);
    expect([...rebuilt.charges.entries()]).to.deep.equal([...kept.charges.entries()]);
  });
});
