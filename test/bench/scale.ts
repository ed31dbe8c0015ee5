import { Presets, SingleBar } from 'cli-progress';
import { Command, InvalidArgumentError, Option } from 'commander';
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAccount } from '../../packages/commands/account-commands.ts';
import { loadConfig } from '../../packages/config/environment.ts';
import { customerResource, customerStream } from '../../packages/domain/customer/customer-events.ts';
import type { EventMetadata, NewEvent } from '../../packages/eventstore/event-store.ts';
import { currentSchemaVersion } from '../../packages/eventstore/upcast-recorded-event.ts';
import { newId } from '../../packages/ids/object-id.ts';
import { currentReadFile } from '../../packages/readstore/sqlite-read-files.ts';
import { openPlatform } from '../../services/platform.ts';
import { seedCustomerCreations } from '../support/seed-log.ts';
import { removeDataDir, startService, type ServiceProcess } from '../support/service-process.ts';

/**
 * `npm run bench:scale [-- --events N]`: the embedded profile with a large log. Seeds customers of
 * 10 accounts straight into the event store (the rows the service's appends write, in large
 * transactions behind a progress bar) plus one customer changed 10,000 times, then measures:
 * list latency (first page, and a page deep behind a cursor) with a small log and with the full
 * one, a full projection rebuild when the service starts on an empty read store, the service's
 * RSS after it, `projections rebuild --all` (compiled CLI) while the service serves with the
 * latency of the service's reads during it and without, `streams show` of the 10,000-event
 * stream, and the log's bytes on disk per event.
 *
 * With `--read-store cli` the full log's read store is built by `projections rebuild --all` alone
 * (the service stopped) instead of by the service's start, and the service then starts on it: one
 * seeded log gives every figure with one projection of it, where the default projects it twice (a
 * start on an empty read store at about 5,400 events/s is half an hour at ten million events).
 * `--normal-priority` runs the CLI's rebuild with its own `--normal-priority` (it otherwise lowers
 * itself to nice 19), so that on a machine busy with other work its time is the build's rather
 * than the leftovers of the cores.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const ACCOUNTS = 10;
const LONG_STREAM_EVENTS = 10_000;
const SMALL_LOG_EVENTS = 10_000;
/** Events per append of the long stream. */
const SEED_BATCH = 100;
const LATENCY_REQUESTS = 200;
/** Rate limit lifted; logging as in production (info: an access-log line per request). */
const SERVICE_ENV = { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' };

interface Account {
  id: string;
  secretKey: string;
}

interface Latency {
  p50: number;
  p99: number;
}

interface ListLatency {
  objects: number;
  perAccount: number;
  firstPage: Latency;
  deepPage: Latency;
}

const options = new Command()
  .name('bench:scale')
  .option('--events <count>', 'events in the log (at least 30,000)', positiveCount, 1_000_000)
  .addOption(
    new Option(
      '--read-store <builder>',
      "what projects the full log: the service's start on an empty read store, then the CLI's rebuild while it serves (service); or the CLI's rebuild alone, the service started on its file (cli)",
    )
      .choices(['service', 'cli'])
      .default('service'),
  )
  .option('--normal-priority', "the CLI's rebuild at the priority it is started with instead of nice 19")
  .parse()
  .opts<{ events: number; readStore: 'service' | 'cli'; normalPriority?: boolean }>();

function positiveCount(raw: string): number {
  const value = Number(raw.replaceAll(/[_,]/g, ''));
  if (!Number.isInteger(value) || value < SMALL_LOG_EVENTS + LONG_STREAM_EVENTS + ACCOUNTS * 2 + 1000)
    throw new InvalidArgumentError('a whole number of at least 30,000');
  return value;
}

const format = (value: number, digits = 0): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function metadata(account: Account): EventMetadata {
  return {
    accountId: account.id,
    mode: 'test',
    actor: 'system:bench',
    requestId: newId('req'),
    occurredAt: new Date().toISOString(),
    schemaVersion: currentSchemaVersion('CustomerCreated'),
  };
}

function customerCreated(account: Account, customerId: string, n: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'CustomerCreated',
    data: { customerId, email: `customer-${n}@example.com`, description: null, metadata: { n: String(n) } },
    metadata: metadata(account),
  };
}

/** Opens the accounts through the service's own command (their keys are needed to query). */
async function openAccounts(dataDir: string): Promise<Account[]> {
  const platform = await openPlatform(loadConfig({ ...process.env, DATA_DIR: dataDir }));
  try {
    const accounts: Account[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const keys = await createAccount(platform, `Scale ${i}`, {
        actor: 'system:bench',
        requestId: newId('req'),
        now: () => new Date(),
      });
      accounts.push({ id: keys.id, secretKey: keys.testSecretKey });
    }
    return accounts;
  } finally {
    await platform.close();
  }
}

/** Appends customers (one event each, round robin over the accounts) until the log holds `until` events. */
async function seedCustomers(dataDir: string, accounts: Account[], until: number, label: string): Promise<void> {
  const from = await logHead(dataDir);
  const bar = new SingleBar(
    {
      format: `${label.padEnd(28)} [{bar}] {percentage}% | {value}/{total} events | {eta}s left`,
      hideCursor: true,
      // Also when the output is a file or a pipe: a long seed shows that it moves.
      noTTYOutput: true,
      notTTYSchedule: 5000,
    },
    Presets.shades_classic,
  );
  bar.start(until - from, 0);
  // The rows the event store writes, in large transactions (`seed-log.ts`): ten million events in minutes.
  await seedCustomerCreations(
    join(dataDir, 'events.sqlite'),
    accounts.map((account) => account.id),
    from,
    until,
    (next) => bar.update(next - from),
  );
  bar.stop();
}

/** One customer of the first account, changed until its stream holds `LONG_STREAM_EVENTS` events. */
async function seedLongStream(dataDir: string, account: Account): Promise<string> {
  const platform = await openPlatform(loadConfig({ ...process.env, DATA_DIR: dataDir }));
  try {
    const customerId = newId(customerResource);
    const stream = customerStream(customerId);
    let revision = (
      await platform.events.appendToStream(stream, [customerCreated(account, customerId, 0)], {
        expectedRevision: 'no_stream',
      })
    ).nextExpectedRevision;
    for (let n = 1; n < LONG_STREAM_EVENTS; n += SEED_BATCH) {
      const events: NewEvent[] = Array.from({ length: Math.min(SEED_BATCH, LONG_STREAM_EVENTS - n) }, (_, i) => ({
        id: randomUUID(),
        type: 'CustomerUpdated',
        data: { customerId, description: `change ${n + i}` },
        metadata: { ...metadata(account), schemaVersion: currentSchemaVersion('CustomerUpdated') },
      }));
      revision = (await platform.events.appendToStream(stream, events, { expectedRevision: revision }))
        .nextExpectedRevision;
    }
    return customerId;
  } finally {
    await platform.close();
  }
}

function basicAuth(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

async function getJson(service: ServiceProcess, path: string, key: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.baseUrl}${path}`, { headers: { authorization: basicAuth(key) } });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

/**
 * Whether the customers read model shows the newest customer of the log (the projections commit
 * together); not while the service answers 503 (catching up with the log after its start).
 */
async function caughtUp(service: ServiceProcess, account: Account, newestId: string): Promise<boolean> {
  const response = await fetch(`${service.baseUrl}/customers?limit=1`, {
    headers: { authorization: basicAuth(account.secretKey) },
  });
  if (response.status === 503) return false;
  const page = (await response.json()) as { list?: { id: string }[] };
  if (!response.ok) throw new Error(`GET /customers?limit=1 answered ${response.status}: ${JSON.stringify(page)}`);
  return page.list?.[0]?.id === newestId;
}

async function latency(service: ServiceProcess, path: string, key: string): Promise<Latency> {
  const times: number[] = [];
  for (let i = 0; i < LATENCY_REQUESTS; i++) {
    const started = performance.now();
    await getJson(service, path, key);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (quantile: number): number => times[Math.min(times.length - 1, Math.floor(quantile * times.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

/** First page, and the page after the customer 90% of the way down the account's list. */
async function listLatency(service: ServiceProcess, account: Account, objects: number): Promise<ListLatency> {
  const perAccount = Math.floor(objects / ACCOUNTS);
  const deepIndex = Math.floor(perAccount * 0.9);
  // Walk to the deep cursor with the largest pages the API allows.
  let cursor: string | undefined;
  for (let seen = 0; seen < deepIndex;) {
    const limit = Math.min(100, deepIndex - seen);
    const page = await getJson(
      service,
      `/customers?limit=${limit}${cursor ? `&startingAfterId=${cursor}` : ''}`,
      account.secretKey,
    );
    const list = page.list as { id: string }[];
    if (list.length === 0) break;
    cursor = list.at(-1)!.id;
    seen += list.length;
  }
  return {
    objects,
    perAccount,
    firstPage: await latency(service, '/customers?limit=10', account.secretKey),
    deepPage: await latency(service, `/customers?limit=10&startingAfterId=${cursor}`, account.secretKey),
  };
}

function newestCustomerOf(dataDir: string, account: Account): Promise<string> {
  // The last append of the seed went to some account; ask the log which customer is the newest of this one.
  return (async () => {
    const platform = await openPlatform(loadConfig({ ...process.env, DATA_DIR: dataDir }));
    try {
      const head = await platform.events.headPosition();
      for (let after = head - 100; ; after -= 100) {
        const events = await platform.events.readAll({ afterPosition: Math.max(after, 0), maxCount: 100 });
        const mine = events.filter(
          (event) => event.metadata.accountId === account.id && event.type === 'CustomerCreated',
        );
        if (mine.length > 0) return String(mine.at(-1)!.data.customerId);
        if (after <= 0) throw new Error('no customer of the account in the log');
      }
    } finally {
      await platform.close();
    }
  })();
}

async function logHead(dataDir: string): Promise<number> {
  const platform = await openPlatform(loadConfig({ ...process.env, DATA_DIR: dataDir }));
  try {
    return await platform.events.headPosition();
  } finally {
    await platform.close();
  }
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

function sizeOnDisk(path: string): number {
  return [path, `${path}-wal`].filter(existsSync).reduce((total, file) => total + statSync(file).size, 0);
}

/** The compiled CLI (`npm run build`), so that the time is the command's, not TypeScript's. */
async function timeShowStream(dataDir: string, customerId: string): Promise<{ seconds: number; lines: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/cli/main.js', 'streams', 'show', customerId, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let lines = 0;
  child.stdout.on('data', (chunk: Buffer) => (lines += chunk.toString().split('\n').length - 1));
  const code = await new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
  if (code !== 0) throw new Error(`streams show exited with ${code}`);
  return { seconds: (performance.now() - started) / 1000, lines };
}

interface CliRun {
  seconds: number;
  /** User + system CPU of the CLI process, and of its main thread alone (sampled from /proc every 50 ms until it exits). */
  cpuSeconds: number;
  mainThreadCpuSeconds: number;
  /** Peak resident memory of the CLI process (`VmHWM`). */
  peakRssMiB: number;
  /** One-minute load average when it started and when it ended. */
  loadBefore: number;
  loadAfter: number;
}

interface CliRebuild extends CliRun {
  /** Reads answered by the service while the CLI rebuilt, and the same reads just after it. */
  readsDuring: Latency & { count: number };
  readsWithout: Latency & { count: number };
}

/** User + system CPU seconds in a `/proc/…/stat` line: fields 14 and 15, 12 and 13 after the command name. */
function cpuSecondsIn(statPath: string): number | null {
  try {
    const fields = readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

function peakRssMiB(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('VmHWM:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * `projections rebuild --all` with the compiled CLI on the service's data directory; `whileRunning`
 * runs until it exits (reads of a serving service, or nothing).
 */
async function runCliRebuild(
  dataDir: string,
  whileRunning: (running: () => boolean) => Promise<void>,
): Promise<CliRun> {
  const loadBefore = loadavg()[0]!;
  const started = performance.now();
  const rebuild = ['projections', 'rebuild', '--all', ...(options.normalPriority ? ['--normal-priority'] : [])];
  const child = spawn(process.execPath, ['dist/cli/main.js', ...rebuild], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pid = child.pid!;
  let running = true;
  let cpuSeconds = 0;
  let mainThreadCpuSeconds = 0;
  let peakRss = 0;
  let lastNote = performance.now();
  const sampler = setInterval(() => {
    if (performance.now() - lastNote > 60_000) {
      lastNote = performance.now();
      note(
        `rebuilding: ${format((lastNote - started) / 1000)} s, CPU ${format(cpuSeconds, 1)} s (main thread ` +
          `${format(mainThreadCpuSeconds, 1)} s), RSS peak ${format(peakRss)} MiB, load average ${load()}`,
      );
    }
    cpuSeconds = cpuSecondsIn(`/proc/${pid}/stat`) ?? cpuSeconds;
    mainThreadCpuSeconds = cpuSecondsIn(`/proc/${pid}/task/${pid}/stat`) ?? mainThreadCpuSeconds;
    peakRss = peakRssMiB(pid) ?? peakRss;
  }, 50);
  const exited = new Promise<number | null>((resolveExit) =>
    child.once('exit', (code) => {
      running = false;
      resolveExit(code);
    }),
  );
  await whileRunning(() => running);
  const code = await exited;
  clearInterval(sampler);
  if (code !== 0) throw new Error(`projections rebuild --all exited with ${code}`);
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds,
    mainThreadCpuSeconds,
    peakRssMiB: peakRss,
    loadBefore,
    loadAfter: loadavg()[0]!,
  };
}

/** Sequential reads (a customer by id, then the first page of a list) until `until()` says stop. */
async function sampleReads(
  service: ServiceProcess,
  account: Account,
  customerId: string,
  until: () => boolean,
): Promise<Latency & { count: number }> {
  const times: number[] = [];
  for (let i = 0; !until(); i++) {
    const started = performance.now();
    await getJson(service, i % 2 === 0 ? `/customers/${customerId}` : '/customers?limit=10', account.secretKey);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (quantile: number): number => times[Math.min(times.length - 1, Math.floor(quantile * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), count: times.length };
}

/**
 * `projections rebuild --all` while the service serves: its time and CPU, and the latency of the
 * service's reads during it against the same reads for as long just after.
 */
async function timeCliRebuild(service: ServiceProcess, account: Account, customerId: string): Promise<CliRebuild> {
  let readsDuring: Latency & { count: number } = { p50: 0, p99: 0, count: 0 };
  const run = await runCliRebuild(service.dataDir, async (running) => {
    readsDuring = await sampleReads(service, account, customerId, () => !running());
  });
  // The same reads without a rebuild, for as long (at most a minute).
  const quietUntil = performance.now() + Math.min(run.seconds, 60) * 1000;
  const readsWithout = await sampleReads(service, account, customerId, () => performance.now() > quietUntil);
  return { ...run, readsDuring, readsWithout };
}

async function build(): Promise<void> {
  const child = spawn('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
  if (code !== 0) throw new Error(`npm run build exited with ${code}`);
}

/**
 * SIGTERM and wait for the exit, without `stop()`'s scan of the data directory for card numbers:
 * the bench writes none, and reading tens of gigabytes back would add minutes to the run.
 */
async function stopWithoutScan(service: ServiceProcess): Promise<void> {
  service.signal('SIGTERM');
  await waitUntil(
    async () => !existsSync(`/proc/${service.pid}/stat`) || isZombie(service.pid),
    'the service to exit',
    120_000,
  );
}

function isZombie(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return true;
  }
}

/** A figure as soon as it is measured (a long run cut short keeps what it had). */
function note(line: string): void {
  process.stderr.write(`[${new Date().toISOString()}] ${line}\n`);
}

/** The one-minute load average, for the figures it distorts. */
const load = (): string => format(loadavg()[0]!, 1);

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-scale-'));
  let service: ServiceProcess | undefined;
  try {
    await build();
    const accounts = await openAccounts(dataDir);
    const [first] = accounts as [Account, ...Account[]];
    const longStream = await seedLongStream(dataDir, first);
    // Events that are not customers of their own: the accounts' and the long stream's changes.
    const base = (await logHead(dataDir)) - 1;
    await seedCustomers(dataDir, accounts, base + SMALL_LOG_EVENTS, 'Seeding the small log');

    process.stderr.write('Starting the service on the small log; measuring list latency…\n');
    service = await startService({ dataDir, env: SERVICE_ENV, startTimeoutMs: 3_600_000 });
    let newest = await newestCustomerOf(dataDir, first);
    await waitUntil(() => caughtUp(service!, first, newest), 'the projections', 600_000);
    const small = await listLatency(service, first, SMALL_LOG_EVENTS);
    await service.stop();
    service = undefined;

    const seedLoad = load();
    const seedStarted = performance.now();
    await seedCustomers(dataDir, accounts, options.events, 'Seeding the full log');
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const head = await logHead(dataDir);
    newest = await newestCustomerOf(dataDir, first);
    note(`seeded ${format(head)} events in ${format(seedSeconds, 1)} s (load average ${seedLoad} at the start)`);
    // The log alone (before the read store is built, so that a run cut short still has it).
    const showLoad = load();
    const show = await timeShowStream(dataDir, longStream);
    note(`streams show: ${format(show.seconds, 2)} s at load ${showLoad}`);

    let startRebuild: { seconds: number; load: string } | undefined;
    let aloneRebuild: CliRun | undefined;
    if (options.readStore === 'cli') {
      // The CLI projects the whole log into a file of its own and switches to it (no projector runs).
      process.stderr.write(`Rebuilding every read model from ${format(head)} events with the CLI alone…\n`);
      aloneRebuild = await runCliRebuild(dataDir, async () => {});
      note(`projections rebuild --all: ${JSON.stringify(aloneRebuild)}`);
      service = await startService({ dataDir, env: SERVICE_ENV, startTimeoutMs: 600_000 });
      await waitUntil(() => caughtUp(service!, first, newest), 'the service on the rebuilt file', 600_000);
    } else {
      // A full rebuild: the service starts on an empty read store and projects the whole log.
      // Every read store file and the pointer (README): the small log's start may have built one of its own.
      for (const file of readdirSync(dataDir))
        if (/^read(\.\d+)?\.sqlite(-wal|-shm)?$/.test(file) || file === 'read.current')
          rmSync(join(dataDir, file), { force: true });
      process.stderr.write(`Rebuilding every read model from ${format(head)} events…\n`);
      const startLoad = load();
      const rebuildStarted = performance.now();
      service = await startService({ dataDir, env: SERVICE_ENV, startTimeoutMs: 3_600_000 });
      await waitUntil(() => caughtUp(service!, first, newest), 'the rebuild', 3_600_000);
      startRebuild = { seconds: (performance.now() - rebuildStarted) / 1000, load: startLoad };
    }
    const rssAfterStart = rssMiB(service.pid);
    const objects = head - base;
    const listLoad = load();
    const large = await listLatency(service, first, objects);
    note(`RSS ${format(rssAfterStart)} MiB; list latency ${JSON.stringify(large)} at load ${listLoad}`);
    let servingRebuild: CliRebuild | undefined;
    if (options.readStore === 'service') {
      process.stderr.write(`Rebuilding every read model with the CLI while the service serves…\n`);
      servingRebuild = await timeCliRebuild(service, first, newest);
    }
    await stopWithoutScan(service);
    service = undefined;

    const eventBytes = sizeOnDisk(join(dataDir, 'events.sqlite'));
    const readBytes = sizeOnDisk(join(dataDir, currentReadFile(dataDir)));

    const ms = (value: number): string => format(value, 1);
    const cpuList = cpus();
    console.log('');
    console.log(
      `| measurement | ${format(small.objects)} customers | ${format(large.objects)} customers (load ${listLoad}) | ratio |`,
    );
    console.log('| --- | ---: | ---: | ---: |');
    for (const [name, key] of [
      ['list first page (limit=10) p50 / p99 ms', 'firstPage'],
      [`list page 90% deep behind a cursor p50 / p99 ms`, 'deepPage'],
    ] as const) {
      console.log(
        `| ${name} | ${ms(small[key].p50)} / ${ms(small[key].p99)} | ${ms(large[key].p50)} / ${ms(large[key].p99)} | ` +
          `${format(large[key].p50 / small[key].p50, 2)} |`,
      );
    }
    console.log('');
    console.log('| measurement | value |');
    console.log('| --- | ---: |');
    console.log(`| events in the log | ${format(head)} |`);
    console.log(
      `| seeding the full log | ${format(seedSeconds, 1)} s, ${format((head - base - SMALL_LOG_EVENTS) / seedSeconds)} events/s, load average ${seedLoad} at its start |`,
    );
    if (startRebuild)
      console.log(
        `| full projection rebuild at service start (to the last customer listed) | ${format(startRebuild.seconds, 1)} s, ` +
          `${format(head / startRebuild.seconds)} events/s, load average ${startRebuild.load} at its start |`,
      );
    const cliFigures = (run: CliRun): string =>
      `${format(run.seconds, 1)} s, ${format(head / run.seconds)} events/s; CPU ${format(run.cpuSeconds, 1)} s ` +
      `(${format(head / run.cpuSeconds)} events per CPU second), main thread ${format(run.mainThreadCpuSeconds, 1)} s ` +
      `(${format(head / run.mainThreadCpuSeconds)} events per its CPU second); peak RSS ${format(run.peakRssMiB)} MiB; ` +
      `${options.normalPriority ? 'nice 0' : 'nice 19'}; load average ${format(run.loadBefore, 1)} → ${format(run.loadAfter, 1)}`;
    if (aloneRebuild)
      console.log(`| \`projections rebuild --all\` (compiled CLI, service stopped) | ${cliFigures(aloneRebuild)} |`);
    console.log(
      `| service RSS after ${aloneRebuild ? 'its start on the rebuilt read store' : 'the rebuild'} | ${format(rssAfterStart)} MiB |`,
    );
    if (servingRebuild) {
      console.log(`| \`projections rebuild --all\` (compiled CLI, service serving) | ${cliFigures(servingRebuild)} |`);
      for (const [name, reads] of [
        ['during the rebuild', servingRebuild.readsDuring],
        ['without a rebuild, just after', servingRebuild.readsWithout],
      ] as const)
        console.log(
          `| service reads ${name} (by id and first list page, sequential) p50 / p99 ms | ` +
            `${ms(reads.p50)} / ${ms(reads.p99)} (${format(reads.count)} reads) |`,
        );
      console.log(
        `| p99 of reads during the rebuild / without | ${format(servingRebuild.readsDuring.p99 / servingRebuild.readsWithout.p99, 2)} |`,
      );
    }
    console.log(
      `| \`streams show\` of a ${format(LONG_STREAM_EVENTS)}-event stream (compiled CLI, process start to exit, --json) | ${format(show.seconds, 2)} s (${format(show.lines)} lines), load average ${showLoad} |`,
    );
    console.log(
      `| event store on disk | ${format(eventBytes / 2 ** 20, 1)} MiB, ${format(eventBytes / head)} bytes per event |`,
    );
    console.log(
      `| read store on disk | ${format(readBytes / 2 ** 20, 1)} MiB, ${format(readBytes / head)} bytes per event |`,
    );
    console.log('');
    console.log(
      `Command: \`npm run bench:scale -- ${process.argv.slice(2).join(' ')}\` — ${ACCOUNTS} accounts (customers round robin, ` +
        `one account listed: ${format(small.perAccount)} and ${format(large.perAccount)} of its customers), ` +
        `${LATENCY_REQUESTS} sequential requests per latency, node ${process.version}, ${cpuList.length} CPUs ` +
        `(${cpuList[0]?.model.trim() ?? 'unknown'}), data in ${tmpdir()}, commit ${commit()}.`,
    );
  } finally {
    await service?.stop();
    removeDataDir(dataDir);
  }
}

/** The commit measured (with `+changes` when the work tree differs from it). */
function commit(): string {
  const run = (args: string[]): string => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  return `${run(['rev-parse', '--short', 'HEAD'])}${run(['status', '--porcelain', '--untracked-files=no']) ? '+changes' : ''}`;
}

await main();
