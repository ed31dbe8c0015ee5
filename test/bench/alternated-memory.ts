import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { removeDataDir, startService } from '../support/service-process.ts';
import { processCpuMicros } from './process-cpu.ts';
import { BENCH_SERVICE_ENV as SERVICE_ENV, CHARGE_BODY, CUSTOMER_BODY } from './bench-requests.ts';

/**
 * The resident memory of two or more builds of the service, in alternated runs of the same
 * minutes: `npx tsx test/bench/alternated-memory.ts [--rounds R] <checkout> <checkout> …`, each
 * checkout a worktree whose `dist/` holds its production build (`npm run build`), started as its
 * own `npm start` runs it (fresh data directory, rate limit lifted). Per run, as `npm run bench`
 * goes: memory 3 s after `service started`; 200 customers and a charge; 12 s idle (the bare
 * endpoint's scenarios there); the service's five scenarios at 32 connections (1 s warm-up, then
 * BENCH_DURATION seconds, default 5), with the server's CPU per answer and its main thread's; memory
 * right after them and 12 s later. Memory is `VmRSS` / `VmHWM` / `RssAnon` / `RssFile` of
 * `/proc/<pid>/status` and the resident pages of `/proc/<pid>/smaps` by kind of mapping (the `node`
 * binary, malloc's main heap, V8's 256 KiB heap pages, malloc's other arenas, other anonymous
 * memory, other files), with the thread count and the one-minute load average. The order of the
 * builds is reversed every other round.
 */

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
/** V8 reserves its heap in pages of this size; glibc's arenas other than the main heap are aligned to 64 MiB. */
const V8_PAGE_BYTES = 256 * 1024;
const ARENA_ALIGNMENT = 64 * 1024 * 1024;

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
const mib = (kib: number) => Math.round(kib / 102.4) / 10;

interface Memory {
  rss: number;
  peak: number;
  anon: number;
  file: number;
  threads: number;
  load: number;
  byMapping: Record<string, number>;
}

/** What a mapping of `/proc/<pid>/smaps` is, from its header line. */
function mappingKind(start: number, end: number, path: string): string {
  if (path === '') {
    if (end - start === V8_PAGE_BYTES) return 'v8 pages';
    return start % ARENA_ALIGNMENT === 0 ? 'malloc arenas' : 'other anonymous';
  }
  if (path === '[heap]') return 'malloc main heap';
  if (path.startsWith('/') && path.endsWith('/node')) return 'node binary';
  return path.startsWith('/') ? 'other files' : 'other anonymous';
}

function memory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  const byMapping: Record<string, number> = {};
  let kind = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) kind = mappingKind(parseInt(header[1]!, 16), parseInt(header[2]!, 16), header[3]!);
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) byMapping[kind] = (byMapping[kind] ?? 0) + Number(rss[1]);
  }
  for (const name of Object.keys(byMapping)) byMapping[name] = mib(byMapping[name]!);
  return {
    rss: mib(kib('VmRSS')),
    peak: mib(kib('VmHWM')),
    anon: mib(kib('RssAnon')),
    file: mib(kib('RssFile')),
    threads: readdirSync(`/proc/${pid}/task`).length,
    load: Math.round(loadavg()[0]! * 100) / 100,
    byMapping,
  };
}

async function expectOk(url: string, init: RequestInit): Promise<{ id: string }> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

async function run(checkout: string): Promise<object> {
  const service = await startService({ root: checkout, env: SERVICE_ENV });
  try {
    await sleep(3000);
    const idle = memory(service.pid);
    const auth = { authorization: `Basic ${Buffer.from(`${service.keys!.testSecretKey}:`).toString('base64')}` };
    const json = { ...auth, 'content-type': 'application/json' };
    let customerId = '';
    for (let i = 0; i < 200; i++) {
      const customer = await expectOk(`${service.baseUrl}/customers`, {
        method: 'POST',
        headers: json,
        body: CUSTOMER_BODY,
      });
      customerId ||= customer.id;
    }
    const charge = await expectOk(`${service.baseUrl}/charges`, { method: 'POST', headers: json, body: CHARGE_BODY });
    await sleep(12_000);
    const scenarios: [string, 'GET' | 'POST', string, string | undefined][] = [
      ['read by id', 'GET', `/customers/${customerId}`, undefined],
      ['list', 'GET', '/customers?limit=10', undefined],
      ['charge by id', 'GET', `/charges/${charge.id}`, undefined],
      ['create', 'POST', '/customers', CUSTOMER_BODY],
      ['charge', 'POST', '/charges', CHARGE_BODY],
    ];
    const cpu: Record<string, string> = {};
    for (const [name, method, path, body] of scenarios) {
      const options = { url: service.baseUrl + path, method, headers: body ? json : auth, body, connections: 32 };
      await autocannon({ ...options, duration: 1 });
      const processBefore = processCpuMicros(service.pid) ?? Number.NaN;
      const mainBefore = processCpuMicros(service.pid, true) ?? Number.NaN;
      const result = await autocannon({ ...options, duration: DURATION_SECONDS });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${name}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
      const perAnswer = (micros: number) => Math.round(micros / result['2xx']);
      cpu[name] =
        `${perAnswer((processCpuMicros(service.pid) ?? Number.NaN) - processBefore)} µs ` +
        `(main thread ${perAnswer((processCpuMicros(service.pid, true) ?? Number.NaN) - mainBefore)})`;
    }
    const after = memory(service.pid);
    await sleep(12_000);
    return { checkout, idle, after, twelveSecondsLater: memory(service.pid), cpu };
  } finally {
    await service.stop();
    removeDataDir(service.dataDir);
  }
}

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt === -1 ? 3 : Number(args.splice(roundsAt, 2)[1]);
const checkouts = args.map((checkout) => resolve(checkout));
if (checkouts.length === 0 || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: npx tsx test/bench/alternated-memory.ts [--rounds R] <checkout> <checkout> …');
  process.exit(2);
}
for (let round = 1; round <= rounds; round++)
  for (const checkout of round % 2 === 1 ? checkouts : [...checkouts].reverse())
    console.log(JSON.stringify({ round, ...(await run(checkout)) }));
