import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { startService } from '../support/service-process.ts';
import { processCpuMicros } from './process-cpu.ts';
import { BENCH_SERVICE_ENV, CHARGE_BODY, CUSTOMER_BODY } from './bench-requests.ts';

/**
 * Two builds of the service compared on its writes, in alternated runs of the same minutes:
 * `npx tsx test/bench/alternated-writes.ts <before> <after> [pairs] [create|charge …]`, where
 * `<before>` and `<after>` are checkouts of the repository (a worktree per commit) whose `dist/`
 * holds their production build (`npm run build`). Both builds are started as `npm start` runs them
 * (fresh data directories, rate limit lifted), warmed up, then each pair runs every scenario on
 * one and the other, in turns that swap from pair to pair. Per run: the server's CPU time per
 * answer (`/proc/<pid>/stat`) and its main thread's (`/proc/<pid>/task/<pid>/stat`), requests per
 * second, p99 and the one-minute load average beside them. Settings: BENCH_DURATION (s, default 5),
 * BENCH_CONNECTIONS (default 32), BENCH_WARMUP (s per scenario before the pairs, default 3).
 */

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 3);

const BODIES = {
  create: { path: '/customers', body: CUSTOMER_BODY },
  charge: { path: '/charges', body: CHARGE_BODY },
};
type ScenarioName = keyof typeof BODIES;

interface Build {
  name: string;
  pid: number;
  baseUrl: string;
  authorization: string;
  stop(): Promise<void>;
}

interface Run {
  cpuMicros: number;
  mainThreadCpuMicros: number;
  perSecond: number;
  p99: number;
  load: number;
}

/** CPU time (user + system) so far in microseconds, of the process or of its main thread alone (Linux). */
const cpuMicros = (pid: number, mainThread: boolean): number => processCpuMicros(pid, mainThread) ?? Number.NaN;

async function startBuild(checkout: string): Promise<Build> {
  const service = await startService({
    root: checkout,
    env: BENCH_SERVICE_ENV,
  });
  return {
    name: checkout,
    pid: service.pid,
    baseUrl: service.baseUrl,
    authorization: `Basic ${Buffer.from(`${service.keys!.testSecretKey}:`).toString('base64')}`,
    stop: async () => void (await service.stop()),
  };
}

function fire(build: Build, scenario: ScenarioName, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: build.baseUrl + BODIES[scenario].path,
    method: 'POST',
    headers: { authorization: build.authorization, 'content-type': 'application/json' },
    body: BODIES[scenario].body,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
  });
}

async function measure(build: Build, scenario: ScenarioName): Promise<Run> {
  const load = loadavg()[0]!;
  const [cpuBefore, mainBefore] = [cpuMicros(build.pid, false), cpuMicros(build.pid, true)];
  const result = await fire(build, scenario, DURATION_SECONDS);
  const answered = Math.max(result['2xx'], 1);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${build.name} ${scenario}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    cpuMicros: (cpuMicros(build.pid, false) - cpuBefore) / answered,
    mainThreadCpuMicros: (cpuMicros(build.pid, true) - mainBefore) / answered,
    perSecond: result.requests.mean,
    p99: result.latency.p99,
    load,
  };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const listed = (values: number[]): string => values.map((value) => Math.round(value)).join(' / ');

async function main(): Promise<void> {
  const [before, after, pairsArgument, ...named] = process.argv.slice(2);
  if (!before || !after) throw new Error('usage: alternated-writes.ts <before> <after> [pairs] [create|charge …]');
  const pairs = Number(pairsArgument ?? 3);
  const scenarios = (named.length > 0 ? named : ['create', 'charge']) as ScenarioName[];
  const builds = [await startBuild(resolve(before)), await startBuild(resolve(after))] as const;
  try {
    for (const build of builds) for (const scenario of scenarios) await fire(build, scenario, WARMUP_SECONDS);
    const runs = new Map<string, Run[]>();
    for (let pair = 0; pair < pairs; pair += 1)
      for (const scenario of scenarios)
        for (const build of pair % 2 === 0 ? builds : [...builds].reverse()) {
          const run = await measure(build, scenario);
          const key = `${scenario} ${build.name}`;
          runs.set(key, [...(runs.get(key) ?? []), run]);
          process.stderr.write(
            `pair ${pair + 1} ${key}: ${Math.round(run.cpuMicros)} µs CPU (main thread ${Math.round(run.mainThreadCpuMicros)}), ${Math.round(run.perSecond)}/s, p99 ${run.p99} ms, load ${run.load.toFixed(1)}\n`,
          );
        }
    for (const [key, measured] of runs) {
      const cpu = measured.map((run) => run.cpuMicros);
      const main = measured.map((run) => run.mainThreadCpuMicros);
      console.log(
        `${key}: CPU µs per answer ${listed(cpu)} (median ${Math.round(median(cpu))}), main thread ${listed(main)} ` +
          `(median ${Math.round(median(main))}); per second ${listed(measured.map((run) => run.perSecond))}; ` +
          `p99 ms ${listed(measured.map((run) => run.p99))}; load ${measured.map((run) => run.load.toFixed(1)).join(' / ')}`,
      );
    }
  } finally {
    await Promise.all(builds.map((build) => build.stop()));
  }
}

await main();
