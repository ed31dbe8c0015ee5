/**
 * Reads of two or more builds of the service, alternated in the same minutes: each build's
 * production build (`<dir>/dist/main.js`, made by `npm run build` in a worktree of that commit,
 * or copied from one) runs as `npm start` runs it, all at once beside the bare express app, each
 * with a fresh data directory (rate limit lifted, no response schema checks, 200 customers and
 * one charge). Per round and scenario the bare GET runs first, then each build in turn (the order
 * reversed every other round), 1 s of warm-up then `--seconds` of autocannon at 32 connections;
 * each row gives the server's CPU per answer and its main thread's (`/proc/<pid>/stat`,
 * `/proc/<pid>/task/<pid>/stat`) beside the one-minute load average.
 *
 * Usage: npx tsx test/bench/alternate-reads.ts [--rounds 6] [--seconds 4]
 *          [--scenarios byId,list,charge] <dir> <dir> [...]
 */
import { loadavg } from 'node:os';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startService, type ServiceProcess } from '../support/service-process.ts';
import { startBareServer } from './bare-process.ts';
import { processCpuMicros } from './process-cpu.ts';
import { BENCH_SERVICE_ENV as SERVICE_ENV, CHARGE, CUSTOMER } from './bench-requests.ts';

const CONNECTIONS = 32;
const SCENARIOS = ['byId', 'list', 'charge'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

interface Target {
  url: string;
  headers: Record<string, string>;
}

interface Build {
  name: string;
  service: ServiceProcess;
  targets: Record<ScenarioName, Target>;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '4' },
    scenarios: { type: 'string', default: SCENARIOS.join(',') },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const scenarios = values.scenarios.split(',') as ScenarioName[];
if (positionals.length < 1 || scenarios.some((name) => !SCENARIOS.includes(name)))
  throw new Error(
    'usage: alternate-reads.ts [--rounds N] [--seconds S] [--scenarios byId,list,charge] <dir> [<dir> …]',
  );

/** CPU time so far in µs, of the process or of its main thread (Linux). */
const cpuMicros = (pid: number, mainThread: boolean): number => processCpuMicros(pid, mainThread) ?? Number.NaN;

async function startBuild(dir: string): Promise<Build> {
  const service = await startService({ root: resolve(dir), env: SERVICE_ENV });
  const base = service.baseUrl;
  const secretKey = service.keys!.testSecretKey;
  const auth = { authorization: `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}` };
  const post = async (path: string, body: object): Promise<{ id: string }> => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${dir}: POST ${path} answered ${response.status}`);
    return (await response.json()) as { id: string };
  };
  const customers: string[] = [];
  for (let made = 0; made < 200; made += 10) {
    const batch = Array.from({ length: 10 }, () => post('/customers', CUSTOMER));
    customers.push(...(await Promise.all(batch)).map((customer) => customer.id));
  }
  const charge = await post('/charges', CHARGE);
  return {
    name: basename(resolve(dir)),
    service,
    targets: {
      byId: { url: `${base}/customers/${customers[0]}`, headers: auth },
      list: { url: `${base}/customers?limit=10`, headers: auth },
      charge: { url: `${base}/charges/${charge.id}`, headers: auth },
    },
  };
}

const fire = (target: Target, duration: number): Promise<autocannon.Result> =>
  autocannon({ url: target.url, headers: target.headers, connections: CONNECTIONS, duration, timeout: 10 });

async function measure(pid: number, target: Target) {
  await fire(target, 1);
  const [process0, main0] = [cpuMicros(pid, false), cpuMicros(pid, true)];
  const result = await fire(target, seconds);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const answered = Math.max(result['2xx'], 1);
  return {
    perSecond: result.requests.mean,
    p99: result.latency.p99,
    cpu: (cpuMicros(pid, false) - process0) / answered,
    mainThread: (cpuMicros(pid, true) - main0) / answered,
  };
}

const bare = await startBareServer();
const builds: Build[] = [];
try {
  for (const dir of positionals) builds.push(await startBuild(dir));
  for (const build of builds) for (const name of scenarios) await fire(build.targets[name], 2);
  const rows: { name: ScenarioName; build: string; cpu: number; mainThread: number }[] = [];
  console.log(
    '| round | scenario | build | load | req/s | vs bare | p99 ms | CPU µs / answer | main thread | bare CPU µs |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (let round = 0; round < rounds; round++) {
    for (const name of scenarios) {
      const baseline = await measure(bare.pid, { url: `${bare.baseUrl}/bare`, headers: {} });
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        const measured = await measure(build.service.pid, build.targets[name]);
        rows.push({ name, build: build.name, cpu: measured.cpu, mainThread: measured.mainThread });
        console.log(
          `| ${round} | ${name} | ${build.name} | ${loadavg()[0]!.toFixed(1)} | ${Math.round(measured.perSecond)} | ` +
            `${(measured.perSecond / baseline.perSecond).toFixed(2)} | ${measured.p99} | ${Math.round(measured.cpu)} | ` +
            `${Math.round(measured.mainThread)} | ${Math.round(baseline.cpu)} |`,
        );
      }
    }
  }
  const mean = (numbers: number[]) => Math.round(numbers.reduce((sum, value) => sum + value, 0) / numbers.length);
  console.log('\n| scenario | build | CPU µs / answer, each round | mean | main thread mean |');
  console.log('|---|---|---|---|---|');
  for (const name of scenarios) {
    for (const build of builds) {
      const mine = rows.filter((row) => row.name === name && row.build === build.name);
      console.log(
        `| ${name} | ${build.name} | ${mine.map((row) => Math.round(row.cpu)).join(', ')} | ` +
          `${mean(mine.map((row) => row.cpu))} | ${mean(mine.map((row) => row.mainThread))} |`,
      );
    }
  }
} finally {
  await bare.stop();
  for (const build of builds) await build.service.stop();
}
