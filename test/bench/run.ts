import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { findLocalstripe, startLocalstripe, type Localstripe } from '../support/localstripe.ts';
import { removeDataDir, startService, type ServiceProcess } from '../support/service-process.ts';
import { startBareServer, type BareServer } from './bare-process.ts';
import { processCpuMicros } from './process-cpu.ts';
import { localstripeScenarios, prepareLocalstripe } from './localstripe-scenarios.ts';
import { BENCH_SERVICE_ENV, CHARGE_BODY, CUSTOMER_BODY } from './bench-requests.ts';

/**
 * `npm run bench`: the service (production build, embedded profile, child process) against a bare
 * express 5 app (child process), measured with autocannon; also the service's resident memory idle
 * and after the scenarios. Prints a Markdown table; exits 1 if any scenario
 * saw a non-2xx response or a connection error.
 *
 * When localstripe (an in-memory Stripe fake in Python; see test/support/localstripe.ts) can be run
 * here, the same five scenarios run against it too, in the same run, as rows of the same table;
 * BENCH_LOCALSTRIPE=false leaves it out.
 *
 * Env: BENCH_DURATION (seconds per scenario, default 10), BENCH_CONNECTIONS (default 10),
 * BENCH_WARMUP (seconds of warm-up before each scenario, default 1). Also prints what the service
 * wrote to disk per request (Linux: /proc/<pid>/io) and the CPU time the server (service or bare app)
 * spent per answer (Linux: /proc/<pid>/stat), and its main thread's share, which the load generator
 * sharing the machine skews less than requests per second.
 */

const DURATION_SECONDS = positiveNumber('BENCH_DURATION', 10);
const CONNECTIONS = positiveInteger('BENCH_CONNECTIONS', 10);
const WARMUP_SECONDS = positiveNumber('BENCH_WARMUP', 1);
/** How long after the scenarios the service's memory is read again, idle. */
const SETTLE_MS = 30_000;
/** Customers created before the list scenario, so that `limit=10` always returns a full page. */
const LIST_SIZE = 200;
const BARE_BODY = CUSTOMER_BODY;

type Method = 'GET' | 'POST';

interface Scenario {
  name: string;
  method: Method;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The bare scenario this one is compared with; none for the baselines themselves. */
  baseline?: string;
  /** Served by the bare app's process (the baselines, and the floor of an express answer). */
  bare?: true;
  /** Requests that make one operation, run in turn (rates are then per operation, latencies per request). */
  sequence?: autocannon.Request[];
}

/** The service's I/O counters (Linux /proc/<pid>/io): bytes that reached the disk layer, write calls. */
interface IoCounters {
  writeBytes: number;
  writeCalls: number;
}

interface Measurement {
  scenario: Scenario;
  result: autocannon.Result;
  /** The server's own CPU time (user + system) per answered request, in microseconds. */
  serverCpuMicros: number | null;
  /** The same, of the server's main thread alone. */
  mainThreadCpuMicros: number | null;
  /** What the service wrote during the measured seconds, per answered request. */
  written: { bytesPerRequest: number; callsPerRequest: number } | null;
  /** Problems seen during the warm-up or the measurement: any fails the run. */
  problems: string[];
}

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number of seconds (got ${JSON.stringify(raw)})`);
  return value;
}

function positiveInteger(name: string, fallback: number): number {
  const value = positiveNumber(name, fallback);
  if (!Number.isInteger(value))
    throw new Error(`${name} must be a positive integer (got ${JSON.stringify(process.env[name])})`);
  return value;
}

function basicAuth(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

/** One request outside autocannon: setup, sanity checks and, on failure, showing what the server said. */
async function request(
  scenario: Pick<Scenario, 'method' | 'url' | 'headers' | 'body'>,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(scenario.url, {
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body };
}

async function expectOk(
  scenario: Pick<Scenario, 'method' | 'url' | 'headers' | 'body'>,
): Promise<Record<string, unknown>> {
  const { status, body } = await request(scenario);
  if (status < 200 || status > 299)
    throw new Error(`${scenario.method} ${scenario.url} answered ${status}: ${JSON.stringify(body)}`);
  return body as Record<string, unknown>;
}

function fire(scenario: Scenario, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: scenario.url,
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
    ...(scenario.sequence ? { requests: scenario.sequence } : {}),
    connections: CONNECTIONS,
    duration,
    timeout: 10,
  });
}

function problems(result: autocannon.Result): string[] {
  const found: string[] = [];
  if (result.non2xx > 0) {
    const byStatus = Object.entries(result.statusCodeStats ?? {})
      .filter(([status]) => !status.startsWith('2'))
      .map(([status, { count }]) => `${status}×${count ?? 0}`)
      .join(', ');
    found.push(`${result.non2xx} non-2xx responses (${byStatus})`);
  }
  if (result.errors > 0) found.push(`${result.errors} connection errors (${result.timeouts} of them timeouts)`);
  if (result.mismatches > 0) found.push(`${result.mismatches} body mismatches`);
  if (result['2xx'] === 0) found.push('no successful response at all');
  return found;
}

/** Resident memory of a process now and at its peak, in MiB (Linux: /proc/<pid>/status). */
function residentMemory(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
  } catch {
    return null; // not Linux
  }
}

function ioCounters(pid: number): IoCounters | null {
  try {
    const fields = new Map(
      readFileSync(`/proc/${pid}/io`, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(': ') as [string, string]),
    );
    return { writeBytes: Number(fields.get('write_bytes')), writeCalls: Number(fields.get('syscw')) };
  } catch {
    return null; // not Linux, or not allowed to read another process's counters
  }
}

/** Operations a second: requests a second, over the requests one operation takes. */
const operationsPerSecond = (scenario: Scenario, result: autocannon.Result): number =>
  result.requests.mean / (scenario.sequence?.length ?? 1);

/** The server's writes are counted for the service's and localstripe's scenarios (the bare app writes nothing). */
async function measure(scenario: Scenario, serverPid: number, countWrites: boolean): Promise<Measurement> {
  process.stderr.write(`• ${scenario.name}: ${WARMUP_SECONDS}s warm-up, ${DURATION_SECONDS}s measured … `);
  const warmup = await fire(scenario, WARMUP_SECONDS);
  const cpuBefore = process.cpuUsage();
  const serverCpuBefore = processCpuMicros(serverPid);
  const mainThreadCpuBefore = processCpuMicros(serverPid, true);
  const ioBefore = countWrites ? ioCounters(serverPid) : null;
  const result = await fire(scenario, DURATION_SECONDS);
  const ioAfter = countWrites ? ioCounters(serverPid) : null;
  const serverCpuAfter = processCpuMicros(serverPid);
  const mainThreadCpuAfter = processCpuMicros(serverPid, true);
  const cpu = process.cpuUsage(cpuBefore);
  const answered = Math.max(result['2xx'] / (scenario.sequence?.length ?? 1), 1);
  const serverCpuMicros =
    serverCpuBefore === null || serverCpuAfter === null ? null : (serverCpuAfter - serverCpuBefore) / answered;
  const mainThreadCpuMicros =
    mainThreadCpuBefore === null || mainThreadCpuAfter === null
      ? null
      : (mainThreadCpuAfter - mainThreadCpuBefore) / answered;
  const written =
    ioBefore && ioAfter
      ? {
          bytesPerRequest: (ioAfter.writeBytes - ioBefore.writeBytes) / answered,
          callsPerRequest: (ioAfter.writeCalls - ioBefore.writeCalls) / answered,
        }
      : null;
  const trouble = [...problems(warmup).map((problem) => `warm-up: ${problem}`), ...problems(result)];
  // The load generator shares the machine with the servers: its own CPU time shows how much it took.
  const clientCpu = `bench process CPU ${formatNumber((cpu.user + cpu.system) / 1e6, 1)} s`;
  process.stderr.write(
    `${Math.round(operationsPerSecond(scenario, result))} /s, ${clientCpu}${trouble.length ? ` — ${trouble.join('; ')}` : ''}\n`,
  );
  return { scenario, result, serverCpuMicros, mainThreadCpuMicros, written, problems: trouble };
}

function formatNumber(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function table(measurements: Measurement[]): string {
  const byName = new Map(measurements.map((measurement) => [measurement.scenario.name, measurement]));
  const lines = [
    '| scenario | per second (mean) | p50 latency ms | p99 latency ms | req/s vs bare baseline | server CPU µs / request | of it main thread | KiB written to disk / request | write calls / request |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { scenario, result, serverCpuMicros, mainThreadCpuMicros, written, problems: found } of measurements) {
    const name = found.length > 0 ? `${scenario.name} **FAILED: ${found.join('; ')}**` : scenario.name;
    const baseline = scenario.baseline === undefined ? undefined : byName.get(scenario.baseline);
    const ratio = baseline
      ? `${formatNumber(operationsPerSecond(scenario, result) / baseline.result.requests.mean, 2)} (of ${scenario.baseline})`
      : '1.00 (baseline)';
    lines.push(
      `| ${name} | ${formatNumber(operationsPerSecond(scenario, result), 0)} | ${formatNumber(result.latency.p50, 0)} | ${formatNumber(result.latency.p99, 0)} | ${ratio} | ` +
        `${serverCpuMicros === null ? '–' : formatNumber(serverCpuMicros, 0)} | ` +
        `${mainThreadCpuMicros === null ? '–' : formatNumber(mainThreadCpuMicros, 0)} | ` +
        `${written ? formatNumber(written.bytesPerRequest / 1024, 1) : '–'} | ${written ? formatNumber(written.callsPerRequest, 1) : '–'} |`,
    );
  }
  return lines.join('\n');
}

function commandLine(): string {
  const settings = [
    `BENCH_DURATION=${DURATION_SECONDS}`,
    `BENCH_CONNECTIONS=${CONNECTIONS}`,
    `BENCH_WARMUP=${WARMUP_SECONDS}`,
  ];
  return `${settings.join(' ')} npm run bench`;
}

async function createCustomers(
  service: ServiceProcess,
  headers: Record<string, string>,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  const batch = 10;
  for (let done = 0; done < count; done += batch) {
    const created = await Promise.all(
      Array.from({ length: Math.min(batch, count - done) }, () =>
        expectOk({ method: 'POST', url: `${service.baseUrl}/customers`, headers, body: CUSTOMER_BODY }),
      ),
    );
    ids.push(...created.map((customer) => String(customer.id)));
  }
  return ids;
}

/** The service's error log lines (the last few), which say what a 5xx was about. */
function reportServiceErrors(service: ServiceProcess): void {
  const errors = service
    .output()
    .split('\n')
    .filter((line) => line.includes('"level":"error"'));
  if (errors.length === 0) return;
  console.error(`\nThe service logged ${errors.length} error${errors.length === 1 ? '' : 's'}; the last ones:`);
  for (const line of errors.slice(-3)) console.error(line.length > 3000 ? `${line.slice(0, 3000)}…` : line);
}

interface PeerRun {
  measurements: Measurement[];
  idle: ReturnType<typeof residentMemory>;
  after: ReturnType<typeof residentMemory>;
}

/**
 * The five scenarios against localstripe, when it can run here (else why not, printed under the
 * table). It runs after the service's scenarios, alone on the machine as they were.
 */
async function measureLocalstripe(): Promise<PeerRun | { missing: string }> {
  if (process.env.BENCH_LOCALSTRIPE === 'false') return { missing: 'left out (BENCH_LOCALSTRIPE=false)' };
  const installation = findLocalstripe();
  if ('missing' in installation) return installation;
  process.stderr.write('Starting localstripe…\n');
  let peer: Localstripe | undefined;
  try {
    peer = await startLocalstripe(installation);
    await new Promise((resolveWait) => setTimeout(resolveWait, 3000));
    const idle = residentMemory(peer.pid);
    process.stderr.write(`Creating ${LIST_SIZE} customers at localstripe…\n`);
    const made = await prepareLocalstripe(peer.url, peer.secretKey, LIST_SIZE);
    const scenarios: Scenario[] = localstripeScenarios(peer.url, peer.secretKey, made);
    for (const scenario of scenarios) if (!scenario.sequence) await expectOk(scenario);
    const measurements: Measurement[] = [];
    for (const scenario of scenarios) measurements.push(await measure(scenario, peer.pid, true));
    return { measurements, idle, after: residentMemory(peer.pid) };
  } finally {
    await peer?.stop();
  }
}

async function main(): Promise<number> {
  let service: ServiceProcess | undefined;
  let bare: BareServer | undefined;
  const cleanup = async (): Promise<void> => {
    const stopping: Promise<unknown>[] = [];
    if (bare) stopping.push(bare.stop());
    if (service) {
      const { dataDir } = service;
      stopping.push(service.stop().finally(() => removeDataDir(dataDir)));
    }
    bare = undefined;
    service = undefined;
    await Promise.allSettled(stopping);
  };
  const interrupted = (signal: NodeJS.Signals): void => {
    process.stderr.write(`\n${signal}: stopping the servers\n`);
    // A signal listener cannot be awaited; the process exits once the servers are stopped.
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    process.stderr.write('Starting the service (embedded profile) and the bare express app…\n');
    // One after the other: if the second fails to start, the first is already there to be stopped.
    // The production build, as `npm start` and the image run it (`npm run bench` builds it first).
    service = await startService({ env: BENCH_SERVICE_ENV, compiled: true });
    // Idle: settled after its start, before any request.
    await new Promise((resolveWait) => setTimeout(resolveWait, 3000));
    const idleMemory = residentMemory(service.pid);
    bare = await startBareServer();
    if (!service.keys) throw new Error(`the service did not print the default account's keys:\n${service.output()}`);
    const json = { 'content-type': 'application/json' };
    const auth = { authorization: basicAuth(service.keys.testSecretKey) };

    process.stderr.write(`Creating ${LIST_SIZE} customers…\n`);
    const [customerId] = await createCustomers(service, { ...auth, ...json }, LIST_SIZE);
    const list = await expectOk({ method: 'GET', url: `${service.baseUrl}/customers?limit=10`, headers: auth });
    const charge = await expectOk({
      method: 'POST',
      url: `${service.baseUrl}/charges`,
      headers: { ...auth, ...json },
      body: CHARGE_BODY,
    });
    if (!Array.isArray(list.list) || list.list.length !== 10)
      throw new Error(`GET /customers?limit=10 did not return 10 customers: ${JSON.stringify(list)}`);

    // Reads run before the write scenario so that they see the same data set whatever its throughput.
    const scenarios: Scenario[] = [
      { name: 'bare GET /bare', method: 'GET', url: `${bare.baseUrl}/bare`, headers: {}, bare: true },
      {
        name: 'bare GET /bare, messages born with its prototypes',
        method: 'GET',
        url: `${bare.bornUrl}/bare`,
        headers: {},
        baseline: 'bare GET /bare',
        bare: true,
      },
      {
        name: 'bare POST /bare',
        method: 'POST',
        url: `${bare.baseUrl}/bare`,
        headers: json,
        body: BARE_BODY,
        bare: true,
      },
      {
        name: 'GET /customers/{id}',
        method: 'GET',
        url: `${service.baseUrl}/customers/${customerId}`,
        headers: auth,
        baseline: 'bare GET /bare',
      },
      {
        name: 'GET /customers?limit=10',
        method: 'GET',
        url: `${service.baseUrl}/customers?limit=10`,
        headers: auth,
        baseline: 'bare GET /bare',
      },
      {
        name: 'GET /charges/{id}',
        method: 'GET',
        url: `${service.baseUrl}/charges/${String(charge.id)}`,
        headers: auth,
        baseline: 'bare GET /bare',
      },
      {
        name: 'POST /customers',
        method: 'POST',
        url: `${service.baseUrl}/customers`,
        headers: { ...auth, ...json },
        body: CUSTOMER_BODY,
        baseline: 'bare POST /bare',
      },
      {
        name: 'POST /charges (new card details)',
        method: 'POST',
        url: `${service.baseUrl}/charges`,
        headers: { ...auth, ...json },
        body: CHARGE_BODY,
        baseline: 'bare POST /bare',
      },
    ];
    for (const scenario of scenarios) await expectOk(scenario);

    const measurements: Measurement[] = [];
    for (const scenario of scenarios)
      measurements.push(await measure(scenario, scenario.bare ? bare.pid : service.pid, !scenario.bare));

    const afterMemory = residentMemory(service.pid);
    const scenariosEnded = Date.now();
    const peer = await measureLocalstripe();
    // V8 gives back the garbage of the load only once the process has been idle a while: the
    // settled figure is what an idle service holds after serving (localstripe's run counts as idle).
    await new Promise((resolveWait) => setTimeout(resolveWait, Math.max(0, scenariosEnded + SETTLE_MS - Date.now())));
    const settledMemory = residentMemory(service.pid);
    if ('measurements' in peer) measurements.push(...peer.measurements);
    const cpuList = cpus();
    console.log('');
    console.log(table(measurements));
    console.log('');
    if (idleMemory && afterMemory) {
      console.log(
        `Service memory (VmRSS): ${formatNumber(idleMemory.rss, 0)} MiB idle (3 s after its start), ` +
          `${formatNumber(afterMemory.rss, 0)} MiB after the scenarios (peak ${formatNumber(afterMemory.peak, 0)} MiB), ` +
          `${formatNumber(settledMemory?.rss ?? Number.NaN, 0)} MiB settled (idle ${SETTLE_MS / 1000} s after them).`,
      );
      console.log('');
    }
    if ('missing' in peer) console.log(`localstripe: not compared (${peer.missing}).`);
    else if (peer.idle && peer.after)
      console.log(
        `localstripe memory (VmRSS): ${formatNumber(peer.idle.rss, 0)} MiB idle, ` +
          `${formatNumber(peer.after.rss, 0)} MiB after its scenarios; its charge row is two requests per charge ` +
          `(a payment method, then a payment intent confirmed at once): rates per charge, latencies per request.`,
      );
    console.log('');
    console.log(
      `Command: \`${commandLine()}\` — service started with RATE_LIMIT_PER_SECOND=${BENCH_SERVICE_ENV.RATE_LIMIT_PER_SECOND} ` +
        `RATE_LIMIT_BURST=${BENCH_SERVICE_ENV.RATE_LIMIT_BURST} (rate limit effectively off), LOG_LEVEL=info (one access-log line per request); ` +
        `node ${process.version}, ${cpuList.length} CPUs (${cpuList[0]?.model.trim() ?? 'unknown'}), ` +
        `${DURATION_SECONDS}s per scenario after ${WARMUP_SECONDS}s warm-up, ${CONNECTIONS} connections, pipelining 1, latency in whole ms (autocannon's resolution); ` +
        `client, service (production build) and bare app on the same machine; disk writes from the service's /proc/<pid>/io ` +
        `(write_bytes: what reached the block layer, syscw: write calls) and server CPU from /proc/<pid>/stat (utime + stime, 10 ms ticks; its main thread's from /proc/<pid>/task/<pid>/stat) over the measured seconds, per 2xx answer.`,
    );

    const failed = measurements.filter((measurement) => measurement.problems.length > 0);
    if (failed.length > 0) {
      console.error('');
      for (const { scenario, problems: found } of failed) {
        const { status, body } = await request(scenario).catch((error: Error) => ({ status: 0, body: error.message }));
        console.error(
          `FAILED ${scenario.name}: ${found.join('; ')}; one more request now answers ${status}: ${JSON.stringify(body).slice(0, 500)}`,
        );
      }
      reportServiceErrors(service);
      return 1;
    }
    return 0;
  } catch (error) {
    console.error(`Benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (service) reportServiceErrors(service);
    return 1;
  } finally {
    await cleanup();
  }
}

process.exitCode = await main();
