import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../support/eventually.ts';
import { cardDetails, type Charge, type Customer } from '../support/payments.ts';
import { seedCustomerCreations } from '../support/seed-log.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

/** What a merchant reads back; the same answers are expected from any read store built from the log. */
type Answers = Record<string, unknown>;

const READ_FILE = /^read(\.\d+)?\.sqlite(-wal|-shm)?$/;
const OPERATOR_TOKEN = 'operator-token-of-the-empty-store-tests-012345';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
/** Customer creations seeded into the log: a build of a few seconds. */
const SEEDED = 30_000;
/**
 * Starts that build the read store when it is empty (the log holds more events than this), and
 * whose reads answer 503 at once while it has not caught up (instead of waiting 5 s first).
 */
const BUILDS = {
  READ_STORE_BUILD_MIN_EVENTS: String(SEEDED / 2),
  READ_YOUR_WRITES_TIMEOUT_MS: '200',
  OPERATOR_TOKEN,
};

/** The operator's way back to a read store rebuilt from the log (README): its files deleted, the service stopped. */
function deleteReadFiles(dataDir: string): void {
  for (const name of readdirSync(dataDir))
    if (READ_FILE.test(name) || name === 'read.current') rmSync(join(dataDir, name), { force: true });
}

/** The build process of the service whose data directory is `dataDir` (its command line and environment). */
function buildProcessOf(dataDir: string): { pid: number; parent: number } | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!command.includes('read-file-build-process')) continue;
      if (!readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`DATA_DIR=${dataDir}`)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      return { pid: Number(entry), parent: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) };
    } catch {
      // Ended while looked at.
    }
  }
  return null;
}

/** Whether a process still runs: not ended, and not a zombie waiting for a parent to collect it (an orphan's is init's). */
const running = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('a service started on an empty read store over a long log', function () {
  this.timeout(120_000);
  const { api, service, keys, start } = useService();
  let customerId: string;
  let chargeId: string;
  let expected: Answers;

  const answers = async (): Promise<Answers> => {
    const read = async (path: string, query?: Record<string, string>) => {
      const response = await api.get(path, query ? { query } : {});
      expect(response.status, `GET ${path}`).to.equal(200);
      return response.body;
    };
    return {
      customer: await read(`/customers/${customerId}`),
      charge: await read(`/charges/${chargeId}`),
      firstPage: await read('/customers', { limit: '10' }),
      // Behind the customer made through the API: the oldest seeded ones, at the end of the list.
      lastPage: await read('/customers', { limit: '10', startingAfterId: customerId }),
      events: await read('/events', { limit: '10' }),
    };
  };
  /** The answers once reads no longer wait for the read models to catch up (503 meanwhile). */
  const answeredOnceCaughtUp = async (): Promise<Answers> =>
    (await eventually(
      () => answers().catch(() => null),
      (read) => read !== null,
      60_000,
    ))!;
  /** A start on the read files deleted, once its build process runs. */
  const startBuilding = async (): Promise<{ pid: number; parent: number }> => {
    deleteReadFiles(service.dataDir);
    await start({ env: BUILDS });
    return (await eventually(
      async () => buildProcessOf(service.dataDir),
      (found) => found !== null,
      30_000,
    ))!;
  };
  const readFilesOf = (dataDir: string): string[] => readdirSync(dataDir).filter((name) => READ_FILE.test(name));

  before(async () => {
    const customer = await api.post<Customer>('/customers', {
      json: { email: 'before-the-seed@example.com', card: cardDetails('4242424242424242') },
    });
    customerId = customer.body.id;
    const charge = await api.post<Charge>('/charges', { json: { amount: 1250, currency: 'EUR', customerId } });
    chargeId = charge.body.id;
    await api.post('/refunds', { json: { chargeId, amount: 250 } });
    await service.stop();
    await seedCustomerCreations(join(service.dataDir, 'events.sqlite'), [keys.id], 0, SEEDED);
    // What the service answers once its projection runner has caught up with that log (below the
    // default READ_STORE_BUILD_MIN_EVENTS: no build), as before.
    await start();
    expected = await answeredOnceCaughtUp();
    expect((expected.firstPage as { list: Customer[] }).list[0]!.email).to.equal(`customer-${SEEDED - 1}@example.com`);
    await service.stop();
  });

  afterEach(async () => {
    await service.stop().catch(() => undefined);
  });

  it('serves /health while it builds the file in a process of its own, then switches to it and answers as before', async () => {
    deleteReadFiles(service.dataDir);
    await start({ env: BUILDS });
    // The service has started; its build process runs on, and records how far it has got.
    const shown = await eventually(
      async () => (await fetch(`${service.baseUrl}/console/read-store-build.json`, { headers: operator })).json(),
      (build) => build !== null,
      30_000,
    );
    // Alive, not ready, reads to be retried.
    const health = await fetch(`${service.baseUrl}/health`);
    const ready = await fetch(`${service.baseUrl}/ready`);
    const read = await api.get(`/customers/${customerId}`);
    // A payer's 3-D Secure page (Shift4.js frames it with the public key): a page, not the API's JSON.
    const challenge = await fetch(
      `${service.baseUrl}/three-d-secure/challenge?${new URLSearchParams({
        token: 'tok_notProjectedYet',
        key: keys.testPublicKey,
        origin: 'https://shop.example',
      })}`,
    );
    // The operator console shows the build.
    const consolePage = await fetch(`${service.baseUrl}/console`, { headers: operator });
    // A projection's own rebuild waits for the switch (its request would go with the empty file).
    const rebuild = await fetch(`${service.baseUrl}/console/projections/customers/rebuild`, {
      method: 'POST',
      headers: operator,
      redirect: 'manual',
    });
    // So does one asked of the CLI.
    const cliRebuild = await runCli(['projections', 'rebuild', 'customers'], service.dataDir);
    expect(buildProcessOf(service.dataDir), 'the build process, still building').to.not.equal(null);
    expect(cliRebuild.code).to.equal(1);
    expect(cliRebuild.stderr).to.match(
      /A full rebuild of the read store is under way \(.+\): rebuild customers once it has switched/,
    );
    expect(consolePage.status).to.equal(200);
    expect(rebuild.status).to.equal(409);
    expect(await rebuild.text()).to.include('rebuild customers once it has switched');
    const overview = await consolePage.text();
    expect(overview).to.match(/<button type="submit" disabled title="A read store build is under way">Rebuild/);
    expect(overview).to.match(
      /<h2 id="read-store-build-title">Read store build<\/h2>[\s\S]*by the service at its start/,
    );
    const build = shown as { file: string; startedBy: string; position: number; head: number; text: string };
    expect(build).to.include({ startedBy: 'service start' });
    // The progress line as the page writes it (its script shows it as it comes).
    expect(build.text).to.match(
      new RegExp(`^${build.position} / ${build.head}( \\(\\d+ events/s\\)|: making the list indexes and syncing)`),
    );
    expect(build.file).to.match(/^read\.\d+\.sqlite$/);
    expect(build.head).to.be.at.least(SEEDED);
    expect(build.position).to.be.at.most(build.head);
    expect(health.status).to.equal(200);
    expect(ready.status).to.equal(503);
    expect(read.status).to.equal(503);
    expect(read.headers.get('retry-after')).to.equal('1');
    expect(challenge.status).to.equal(503);
    expect(challenge.headers.get('retry-after')).to.equal('1');
    expect(challenge.headers.get('content-type')).to.match(/^text\/html/);
    expect(await challenge.text()).to.include('This page tries again by itself in a moment.');

    expect(await answeredOnceCaughtUp()).to.deep.equal(expected);
    expect(service.output()).to.include('"read store built from the log"');
    const served = readFileSync(join(service.dataDir, 'read.current'), 'utf8').trim();
    expect(served).to.equal(build.file);
    const after = await fetch(`${service.baseUrl}/console/read-store-build.json`, { headers: operator });
    expect(await after.json(), 'no build once switched').to.equal(null);
    // The empty file it started on is deleted once nothing reads it.
    await eventually(
      async () => readFilesOf(service.dataDir),
      (names) => names.every((name) => name.startsWith(served)),
      15_000,
    );
  });

  it('catches up from the log instead when its build process dies, and answers as before', async () => {
    const build = await startBuilding();
    process.kill(build.pid, 'SIGKILL');
    expect(await answeredOnceCaughtUp()).to.deep.equal(expected);
    expect(service.output()).to.include('"read store build failed; catching up from the log instead"');
    expect(service.output()).to.not.include('"read store built from the log"');
  });

  it('ends its build process when the service is killed, and the next start builds again', async () => {
    const build = await startBuilding();
    expect(build.parent).to.equal(service.pid);
    await service.kill();
    // Nobody would switch to what it builds: it stops on its own, at once, not when it has built.
    await eventually(
      async () => running(build.pid),
      (stillRunning) => !stillRunning,
      2_000,
    );
    expect(existsSync(join(service.dataDir, 'read.current'))).to.equal(false);

    await start({ env: BUILDS });
    expect(await answeredOnceCaughtUp()).to.deep.equal(expected);
    expect(service.output()).to.include('"read store built from the log"');
  });
});
