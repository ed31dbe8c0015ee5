import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { resolve } from 'node:path';
import { ApiClient } from '../support/api-client.ts';
import { eventually } from '../support/eventually.ts';
import { removeDataDir, serviceEnv, startService, type ServiceProcess } from '../support/service-process.ts';
import {
  at,
  chargesOf,
  createClock,
  createPlan,
  customerOnClock,
  monthsAfter,
  subscribe,
  waitUntil,
  type TestClock,
} from '../support/subscriptions.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** The build started by hand, for starts that never reach "service started": its exit and its output. */
function spawnBuild(dataDir: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: ROOT, env: serviceEnv(dataDir, env) });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, exited, output: () => output };
}

/** A second process on a port or DATA_DIR in use, and fault injection with background work due at start. */
describe('starting a process next to another', function () {
  this.timeout(90_000);
  const services: ServiceProcess[] = [];
  let occupied: Server | null = null;

  afterEach(async () => {
    for (const service of services.splice(0)) {
      await service.stop();
      removeDataDir(service.dataDir);
    }
    occupied?.close();
    occupied = null;
  });

  it('stops at once with one log line naming the port when the port is in use', async () => {
    occupied = createServer();
    await new Promise<void>((ready) => occupied!.listen(0, '127.0.0.1', ready));
    const port = (occupied.address() as AddressInfo).port;
    const first = await startService();
    services.push(first);

    // Same DATA_DIR as a running process too: the port is refused before any wait for the lease.
    const started = Date.now();
    const second = spawnBuild(first.dataDir, { PORT: String(port) });
    // A process that would wait instead is not left behind.
    const patience = setTimeout(() => second.child.kill('SIGKILL'), 15_000);
    const code = await second.exited.finally(() => clearTimeout(patience));
    expect(code).to.equal(1);
    expect(Date.now() - started).to.be.below(10_000);
    const lines = second.output().trim().split('\n');
    const refusal = lines.filter((line) => line.includes(`port ${port}`));
    expect(refusal, second.output()).to.have.length(1);
    expect(JSON.parse(refusal[0]!)).to.include({ level: 'error' });
    expect(refusal[0]).to.match(/in use by another process/);
  });

  it('says at once what it waits for when another process runs the projections of the same DATA_DIR', async () => {
    const first = await startService();
    services.push(first);
    const second = spawnBuild(first.dataDir, {});
    try {
      const line = await eventually(
        async () => second.output(),
        (output) => output.includes('waiting for the projections lease'),
        5_000,
        (output) => `no line about the lease within 5 s:\n${output}`,
      );
      const waiting = line.split('\n').find((entry) => entry.includes('waiting for the projections lease'))!;
      expect((JSON.parse(waiting) as { holder: string }).holder).to.include(`:${first.pid}:`);
      // It waits as a standby: its roles have not started.
      expect(second.output()).to.not.include('service started');

      // When the first stops, the second takes over and starts.
      await first.stop();
      services.splice(services.indexOf(first), 1);
      await eventually(
        async () => second.output(),
        (output) => output.includes('service started'),
        20_000,
      );
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
      removeDataDir(first.dataDir);
    }
  });

  it('keeps running with every charge crash point armed while the worker renews a subscription due at start-up', async () => {
    const T0 = at('2026-03-01T10:00:00Z');
    const first = await startService();
    const keys = first.keys!;
    const api = new ApiClient(first.baseUrl, keys.testSecretKey);
    const clock = await createClock(api, T0);
    const customer = await customerOnClock(api, clock.id);
    const plan = await createPlan(api, { amount: 2100 });
    const subscription = await subscribe(api, customer.id, { planId: plan.id });
    await first.stop();

    // The clock is advanced with no worker running: its renewal is due work for the next start.
    const projector = await startService({ dataDir: first.dataDir, env: { SERVICE_ROLE: 'projector' } });
    const apiOnly = await startService({ dataDir: first.dataDir, env: { SERVICE_ROLE: 'api' } });
    const renewal = monthsAfter(T0, 1) + 60;
    const advanced = await new ApiClient(apiOnly.baseUrl, keys.testSecretKey).post<TestClock>(
      `/test-clocks/${clock.id}/advance`,
      { json: { frozenTime: renewal } },
    );
    expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
    await apiOnly.stop();
    await projector.stop();

    const armed = await startService({
      dataDir: first.dataDir,
      env: {
        FAULT_INJECTION: 'crash:charge.before-network-call,crash:charge.after-network-call,crash:charge.after-append',
      },
    });
    services.push(armed);
    const client = new ApiClient(armed.baseUrl, keys.testSecretKey);
    await waitUntil(async () => {
      const current = (await client.get<TestClock>(`/test-clocks/${clock.id}`)).body;
      return current.status === 'ready';
    }, 'the test clock to finish its renewal');
    const charges = await chargesOf(client, customer.id, subscription.id);
    expect(charges.map((charge) => [charge.amount, charge.status])).to.deep.equal([
      [2100, 'successful'],
      [2100, 'successful'],
    ]);
    expect(armed.output()).to.not.include('FAULT INJECTION: crash');
    expect((await client.get('/health')).status).to.equal(200);
  });
});
