import Database from 'better-sqlite3';
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { getPriority } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { eventually } from '../support/eventually.ts';
import { cardDetails, type Charge, type Customer, type Page } from '../support/payments.ts';
import { seedCustomerCreations } from '../support/seed-log.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const OPERATOR_TOKEN = 'operator-token-of-the-rebuild-tests-0123456789';
const operatorHeaders = { authorization: `Bearer ${OPERATOR_TOKEN}` };
/** Bookkeeping of the read store rather than read models: the rebuild writes its own. */
const NOT_READ_MODELS = new Set(['_successor', '_checkpoints', '_projections', '_read_store_switch']);

type Rows = Record<string, unknown[]>;

/** Every row of every non-empty read-model table of a read store file, in id order. */
function readModelRows(path: string): Rows {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = (db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).all() as { name: string }[])
      .map((row) => row.name)
      .filter((name) => !NOT_READ_MODELS.has(name) && !name.startsWith('sqlite_'));
    const rows: Rows = {};
    for (const table of tables.sort()) {
      const all = db.prepare(`SELECT id, created, seq, pos, expires_at, doc FROM "${table}" ORDER BY id`).all();
      if (all.length > 0) rows[table] = all;
    }
    rows._checkpoints = db.prepare(`SELECT key, position FROM _checkpoints WHERE key LIKE '%@%' ORDER BY key`).all();
    return rows;
  } finally {
    db.close();
  }
}

async function logHead(dataDir: string): Promise<number> {
  const log = new SqliteEventStore(join(dataDir, 'events.sqlite'));
  try {
    return await log.headPosition();
  } finally {
    await log.close();
  }
}

/** The CLI of the test run's build (build-service.ts) as a process of its own. */
const spawnCli = (args: string[], dataDir: string) =>
  spawn(process.execPath, ['dist/cli/main.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: 'ignore',
  });

/** A process's nice value (its main thread's, `/proc/<pid>/stat`), or null once it has ended. */
function niceOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return null;
  }
}

const servedFile = (dataDir: string): string =>
  existsSync(join(dataDir, 'read.current'))
    ? readFileSync(join(dataDir, 'read.current'), 'utf8').trim()
    : 'read.sqlite';

describe('a full rebuild into a new read store file', function () {
  this.timeout(240_000);

  describe('of a log made through the API', function () {
    const { api, service, start } = useService({
      env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' },
    });
    let receiver: Server;

    before(async () => {
      receiver = createServer((_request, response) => response.writeHead(200).end('ok'));
      await new Promise<void>((resolveListen) => receiver.listen(0, '127.0.0.1', resolveListen));
    });
    after(() => receiver.close());

    it('gives every collection the documents and checkpoints the incremental build gave', async () => {
      const { port } = receiver.address() as AddressInfo;
      const endpoint = await api.post<{ id: string }>('/webhook-endpoints', {
        json: { url: `http://127.0.0.1:${port}/hooks` },
      });
      expect(endpoint.status).to.equal(200);
      const plan = await api.post<{ id: string }>('/plans', {
        json: { amount: 990, currency: 'EUR', interval: 'month', name: 'Basic' },
      });
      for (let i = 0; i < 12; i++) {
        const customer = await api.post<Customer>('/customers', {
          json: { email: `full-${i}@example.com`, card: cardDetails('4242424242424242') },
        });
        expect(customer.status).to.equal(200);
        const charge = await api.post<Charge>('/charges', {
          json: { amount: 1000 + i, currency: 'EUR', customerId: customer.body.id },
        });
        expect(charge.status).to.equal(200);
        if (i % 3 === 0) await api.post('/refunds', { json: { chargeId: charge.body.id, amount: 100 } });
        if (i % 4 === 0)
          await api.post('/subscriptions', { json: { customerId: customer.body.id, planId: plan.body.id } });
        if (i % 5 === 0) await api.post(`/customers/${customer.body.id}`, { json: { description: `vip ${i}` } });
      }
      await api.post('/tokens', { json: cardDetails('5555555555554444') });
      await api.post('/blacklist', { json: { ruleType: 'email', email: 'blocked@example.com' } });
      // Let the webhook deliveries be made and projected, then stop: the read store is the incremental build.
      // The read store caught up with the log holds a delivery for every event; none pending, all were made.
      const deliveriesMade = async () => {
        const head = await logHead(service.dataDir);
        const { _checkpoints: checkpoints } = readModelRows(join(service.dataDir, servedFile(service.dataDir)));
        const pending = await api.get<Page<unknown>>(`/webhook-endpoints/${endpoint.body.id}/deliveries`, {
          query: { status: 'pending', limit: '1' },
        });
        return {
          caughtUp: (checkpoints as { position: number }[]).every((row) => row.position === head),
          pending: pending.body.list.length,
        };
      };
      // A stop may come between an append and its projection: then start again until they agree.
      let incremental: Rows = {};
      for (let attempt = 0; ; attempt++) {
        await eventually(deliveriesMade, ({ caughtUp, pending }) => caughtUp && pending === 0, 30_000);
        await service.stop();
        incremental = readModelRows(join(service.dataDir, 'read.sqlite'));
        const head = await logHead(service.dataDir);
        const positions = (incremental._checkpoints as { position: number }[]).map((row) => row.position);
        if (positions.every((position) => position === head) || attempt === 3) break;
        await start();
      }
      expect(Object.keys(incremental)).to.include.members(['customers__g1', 'charges__g1', 'events__g1']);
      expect(Object.keys(incremental).some((table) => table.startsWith('webhook_deliveries'))).to.equal(true);

      const rebuild = await runCli(['projections', 'rebuild', '--all'], service.dataDir);
      expect(rebuild.code, rebuild.stderr).to.equal(0);
      const served = servedFile(service.dataDir);
      expect(served).to.match(/^read\.\d+\.sqlite$/);
      const rebuilt = readModelRows(join(service.dataDir, served));
      expect(Object.keys(rebuilt)).to.deep.equal(Object.keys(incremental));
      for (const table of Object.keys(incremental)) expect(rebuilt[table], table).to.deep.equal(incremental[table]);

      // The restarted service serves it.
      await start();
      const listed = await api.get<{ list: Customer[] }>('/customers', { query: { limit: '100' } });
      expect(listed.body.list.map((customer) => customer.email)).to.include('full-11@example.com');
    });
  });

  describe('killed mid-way', function () {
    const { api, service, keys, start } = useService({ env: { OPERATOR_TOKEN } });
    /** The read store build the operator console shows (`GET /console/read-store-build.json`). */
    const consoleBuild = async () => {
      const response = await fetch(`${service.baseUrl}/console/read-store-build.json`, { headers: operatorHeaders });
      expect(response.status).to.equal(200);
      return (await response.json()) as { file: string; startedBy: string; position: number; head: number } | null;
    };

    it('leaves the service serving the current file, and the next rebuild completes', async () => {
      const first = await api.post<Customer>('/customers', { json: { email: 'before@example.com' } });
      await service.stop();
      // A log long enough for the rebuild to take a while and to commit part of its file before the
      // end (120,000 documents: customers and their events; the build commits every 100,000):
      // customer creations, the rows the event store writes, seeded straight into the log.
      await seedCustomerCreations(join(service.dataDir, 'events.sqlite'), [keys.id], 0, 60_000);
      // The read store brought up to the log by a first rebuild, the service stopped: it then
      // starts on that file instead of projecting the whole log again. Nothing to serve meanwhile:
      // at the priority the CLI was started with, not at nice 19.
      const prepared = spawnCli(['projections', 'rebuild', '--all', '--normal-priority'], service.dataDir);
      const preparedNice = new Set<number>();
      // Until it has ended, by its own exit or a signal.
      while (prepared.exitCode === null && prepared.signalCode === null) {
        const nice = niceOf(prepared.pid!);
        if (nice !== null) preparedNice.add(nice);
        await new Promise((resolveWait) => setTimeout(resolveWait, 20));
      }
      expect(prepared.exitCode).to.equal(0);
      expect([...preparedNice], 'the nice values seen').to.deep.equal([getPriority()]);
      const current = servedFile(service.dataDir);
      await start();
      const before = await api.get<{ list: Customer[] }>('/customers', { query: { limit: '10' } });
      expect(before.status).to.equal(200);
      expect(before.body.list[0]!.email).to.equal('customer-59999@example.com');

      // Killed on purpose: a process of its own, started from the build of the test run (build-service.ts).
      const cli = spawnCli(['projections', 'rebuild', '--all'], service.dataDir);
      const exited = new Promise((resolveExit) => cli.once('exit', resolveExit));
      // Kill it once its file holds part of the build, well before it can switch.
      const building = (): string | undefined =>
        readdirSync(service.dataDir).find((name) => /^read\.\d+\.sqlite$/.test(name) && name !== current);
      let killedFile: string | undefined;
      let yielded = false;
      while (!killedFile) {
        // While the service serves, the build yields the CPU to it (nice 19).
        yielded ||= niceOf(cli.pid!) === 19;
        const file = building();
        if (file && statSync(join(service.dataDir, file)).size > 4 * 1024 * 1024) killedFile = file;
        else await new Promise((resolveWait) => setTimeout(resolveWait, 20));
      }
      yielded ||= niceOf(cli.pid!) === 19;
      // The service's operator console shows the CLI's build while it runs (the builder records its
      // progress once a second, at nice 19 on a busy machine maybe later: its lease, taken first,
      // already disables the projections' rebuilds).
      const overview = await (await fetch(`${service.baseUrl}/console`, { headers: operatorHeaders })).text();
      expect(overview).to.match(/<button type="submit" disabled title="A read store build is under way">Rebuild/);
      const shown = await eventually(consoleBuild, (build) => build !== null, 10_000);
      expect(niceOf(cli.pid!), 'the build, still running').to.not.equal(null);
      expect(shown).to.include({ file: killedFile, startedBy: 'cli' });
      expect(shown!.position).to.be.at.most(shown!.head);
      cli.kill('SIGKILL');
      await exited;
      expect(servedFile(service.dataDir)).to.equal(current);
      expect(yielded, 'the build ran at nice 19').to.equal(true);

      // The service keeps serving the current file: reads, and writes read back.
      await new Promise((resolveWait) => setTimeout(resolveWait, 500));
      expect((await api.get<Customer>(`/customers/${first.body.id}`)).body.email).to.equal('before@example.com');
      expect((await api.get('/customers', { query: { limit: '10' } })).body).to.deep.equal(before.body);
      const after = await api.post<Customer>('/customers', { json: { email: 'after-kill@example.com' } });
      expect((await api.get<Customer>(`/customers/${after.body.id}`)).body.email).to.equal('after-kill@example.com');

      // At the test's own priority: the nice 19 of a build beside the service is shown above, and
      // on a machine busy with other tests it would wait minutes for idle CPU.
      const rebuild = await runCli(['projections', 'rebuild', '--all', '--normal-priority'], service.dataDir);
      expect(rebuild.code, rebuild.stderr).to.equal(0);
      expect(await consoleBuild(), 'a finished build').to.equal(null);
      const served = servedFile(service.dataDir);
      expect(served)
        .to.match(/^read\.\d+\.sqlite$/)
        .and.not.equal(current);
      // The killed build's file is gone; the service reads the rebuilt one.
      expect(existsSync(join(service.dataDir, killedFile))).to.equal(false);
      const listed = await api.get<{ list: Customer[] }>('/customers', { query: { limit: '10' } });
      expect(listed.body.list[0]!.email).to.equal('after-kill@example.com');
      expect(listed.body.list.slice(1)).to.deep.equal(before.body.list.slice(0, 9));
      expect((await api.get<Customer>(`/customers/${first.body.id}`)).body.email).to.equal('before@example.com');
    });
  });
});
