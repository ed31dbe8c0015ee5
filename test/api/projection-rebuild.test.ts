import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../support/api-client.ts';
import { allProjections } from '../../services/resources/registries.ts';
import { SqliteDocumentStore } from '../../packages/readstore/sqlite-document-store.ts';
import { ReadStoreBuildProgress } from '../../services/projector/read-store-build-progress.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

type Doc = { id: string } & Record<string, unknown>;
type Page = { list: Doc[]; hasMore: boolean };

/** Every object of a list endpoint, following the cursors. */
async function listAll(api: ApiClient, path: string, query: Record<string, string> = {}): Promise<Doc[]> {
  const all: Doc[] = [];
  let startingAfterId: string | undefined;
  for (;;) {
    const response = await api.get<Page>(path, {
      query: { ...query, limit: '100', ...(startingAfterId ? { startingAfterId } : {}) },
    });
    expect(response.status).to.equal(200);
    all.push(...response.body.list);
    if (!response.body.hasMore) return all;
    startingAfterId = response.body.list[response.body.list.length - 1]!.id;
  }
}

describe('rebuilding projections while requests are served', function () {
  this.timeout(120_000);
  // The traffic below exceeds the default per-key rate limit on purpose.
  const { api, service } = useService({ env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' } });

  before(async () => {
    for (let i = 0; i < 150; i++) {
      const customer = await api.post<Doc>('/customers', {
        json: { email: `rebuild-${i % 10}@example.com`, metadata: { n: String(i) } },
      });
      if (i % 3 === 0) await api.post(`/customers/${customer.body.id}`, { json: { description: `updated ${i}` } });
      if (i % 7 === 0) await api.delete(`/customers/${customer.body.id}`);
    }
  });

  it('gives identical read models and fails no query, with writes during the rebuild kept', async () => {
    const customersBefore = await listAll(api, '/customers');
    const deletedBefore = await listAll(api, '/customers', { deleted: 'true' });
    const eventsBefore = await listAll(api, '/events');

    let serving = true;
    const failures: string[] = [];
    const createdDuring: string[] = [];
    const traffic = (async () => {
      for (let i = 0; serving; i++) {
        const checks = await Promise.all([
          api.get(`/customers/${customersBefore[i % customersBefore.length]!.id}`),
          api.get('/customers', { query: { limit: '5', email: 'rebuild-3@example.com' } }),
          api.get('/events', { query: { limit: '5' } }),
          api.post<Doc>('/customers', { json: { email: 'during@example.com' } }),
        ]);
        for (const check of checks)
          if (check.status !== 200) failures.push(`${check.status} ${JSON.stringify(check.body)}`);
        const created = checks[3]!.body;
        createdDuring.push(created.id);
        // Read-your-writes holds during the rebuild too.
        const readBack = await api.get(`/customers/${created.id}`);
        if (readBack.status !== 200) failures.push(`read-back ${readBack.status}`);
      }
    })();

    const rebuild = await runCli(['projections', 'rebuild', '--all'], service.dataDir);
    expect(rebuild.code, rebuild.stderr).to.equal(0);
    // Every read model is named once in the report, whatever the resource order.
    const rebuilt = /Rebuilt: (.*)/.exec(rebuild.stdout)?.[1]?.split(', ') ?? [];
    expect(rebuilt).to.have.members(allProjections().map((projection) => projection.name));
    // Keep serving across the switch and the drop of the old build.
    await new Promise((resolve) => setTimeout(resolve, 6500));
    serving = false;
    await traffic;

    expect(failures.slice(0, 5), `${failures.length} failed queries`).to.deep.equal([]);
    expect(createdDuring.length).to.be.greaterThan(5);
    // The data directory serves the rebuilt file, and the replaced one is gone after its grace period.
    const served = readFileSync(join(service.dataDir, 'read.current'), 'utf8').trim();
    expect(served).to.match(/^read\.\d+\.sqlite$/);
    expect(rebuild.stdout).to.include(`Serving ${served}.`);
    expect(existsSync(join(service.dataDir, 'read.sqlite'))).to.equal(false);
    const status = await runCli(['projections', 'status', '--json'], service.dataDir);
    const rows = status.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { projection: string; generation: number; lag: number });
    expect(rows.map((row) => row.projection)).to.include.members(['accounts', 'customers', 'events']);
    // As an operator reads it: named columns, a line per projection, no index column, no quotes.
    const table = (await runCli(['projections', 'status'], service.dataDir)).stdout.trim().split('\n');
    expect(table[0]).to.match(/^projection +generation +checkpoint +head +lag$/);
    expect(table).to.have.length(rows.length + 1);
    const customers = rows.find((row) => row.projection === 'customers')!;
    expect(table.filter((line) => /^customers /.test(line))).to.have.length(1);
    expect(table.find((line) => /^customers /.test(line))).to.match(
      new RegExp(`^customers +${customers.generation} +\\d+ +\\d+ +${customers.lag}$`),
    );
    expect(status.stderr, 'no full build under way').to.equal('');
    // While a full build of the read store runs, the status says so, as the console's section does:
    // its progress, as a builder of another process records it in the state store.
    const stateStore = new SqliteDocumentStore(join(service.dataDir, 'state.sqlite'));
    try {
      const progress = new ReadStoreBuildProgress(stateStore, 'read.9.sqlite', 'cli', 5_000);
      await progress.written();
      progress.reached(1_250);
      progress.sealing();
      await progress.written();
      const building = await runCli(['projections', 'status'], service.dataDir);
      expect(building.stderr.trim()).to.equal(
        'A full build of the read store is under way (projections rebuild --all, into read.9.sqlite): ' +
          '1250 / 5000: making the list indexes and syncing the file before the switch. ' +
          'The projections above are the serving file’s until it switches.',
      );
      await progress.ended();
      expect((await runCli(['projections', 'status'], service.dataDir)).stderr, 'once it has ended').to.equal('');
    } finally {
      await stateStore.close();
    }

    const customersAfter = await listAll(api, '/customers');
    const deletedAfter = await listAll(api, '/customers', { deleted: 'true' });
    const eventsAfter = await listAll(api, '/events');
    const during = new Set(createdDuring);
    expect(customersAfter.filter((doc) => !during.has(doc.id))).to.deep.equal(customersBefore);
    expect(deletedAfter).to.deep.equal(deletedBefore);
    expect(eventsAfter.filter((event) => !during.has((event.data as Doc).id))).to.deep.equal(eventsBefore);
    expect(
      customersAfter
        .filter((doc) => during.has(doc.id))
        .map((doc) => doc.id)
        .sort(),
    ).to.deep.equal([...during].sort());
  });
});

describe('rebuilding projections with no service running', function () {
  this.timeout(60_000);
  const { api, service, start } = useService();

  it('rebuilds in the CLI process, and the restarted service serves the rebuilt read models', async () => {
    for (let i = 0; i < 12; i++) await api.post('/customers', { json: { email: `offline-${i}@example.com` } });
    const before = await listAll(api, '/customers');
    await service.stop();

    const rebuild = await runCli(['projections', 'rebuild', 'customers'], service.dataDir);
    expect(rebuild.code, rebuild.stderr).to.equal(0);
    expect(rebuild.stdout).to.match(/No projector is running: rebuilding in this process/);

    await start();
    expect(await listAll(api, '/customers')).to.deep.equal(before);
    const status = await runCli(['projections', 'status', '--json'], service.dataDir);
    expect(status.stdout).to.match(/"projection":"customers","generation":2/);
  });
});
