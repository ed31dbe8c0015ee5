/**
 * What one acknowledged write costs the disk: the service (embedded profile, child process) under
 * autocannon on `POST /customers` and `POST /charges` (new card details), with
 * `strace -f -c -e trace=fsync,fdatasync -p <pid>` attached for the measured run and the service's
 * `/proc/<pid>/io` read before and after. Prints fsyncs and KiB written per 2xx answer.
 * Usage: npx tsx test/bench/write-path.ts (needs strace). Env: BENCH_DURATION (default 5),
 * BENCH_CONNECTIONS (default 32), BENCH_WARMUP (default 1).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { removeDataDir, startService } from '../support/service-process.ts';
import { BENCH_SERVICE_ENV as SERVICE_ENV, CHARGE_BODY, CUSTOMER_BODY } from './bench-requests.ts';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 1);

function writeBytes(pid: number): number {
  const match = /^write_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  return Number(match?.[1] ?? Number.NaN);
}

/** Calls of one syscall in strace's `-c` summary. */
function calls(summary: string, syscall: string): number {
  const line = summary.split('\n').find((row) => row.trim().split(/\s+/).at(-1) === syscall);
  // Columns: % time, seconds, usecs/call, calls, [errors,] syscall.
  return line ? Number(line.trim().split(/\s+/)[3]) : 0;
}

async function fire(url: string, headers: Record<string, string>, body: string, duration: number) {
  return autocannon({ url, method: 'POST', headers, body, connections: CONNECTIONS, duration, timeout: 10 });
}

const service = await startService({ env: SERVICE_ENV });
const straceDir = mkdtempSync(join(tmpdir(), 'write-path-strace-'));
try {
  if (!service.keys) throw new Error('the service did not print its keys');
  const headers = {
    'content-type': 'application/json',
    authorization: `Basic ${Buffer.from(`${service.keys.testSecretKey}:`).toString('base64')}`,
  };
  const rows: string[] = [];
  for (const [name, path, body] of [
    ['POST /customers', '/customers', CUSTOMER_BODY],
    ['POST /charges (new card details)', '/charges', CHARGE_BODY],
  ] as const) {
    const url = `${service.baseUrl}${path}`;
    await fire(url, headers, body, WARMUP_SECONDS);
    const output = join(straceDir, `${path.slice(1)}.txt`);
    const strace = spawn(
      'strace',
      ['-f', '-c', '-e', 'trace=fsync,fdatasync', '-o', output, '-p', String(service.pid)],
      { stdio: 'ignore' },
    );
    await sleep(500); // attached to every thread
    const bytesBefore = writeBytes(service.pid);
    const result = await fire(url, headers, body, DURATION_SECONDS);
    await sleep(200); // the last answers' writes
    const written = writeBytes(service.pid) - bytesBefore;
    strace.kill('SIGINT');
    await once(strace, 'exit');
    const summary = readFileSync(output, 'utf8');
    const fsyncs = calls(summary, 'fsync') + calls(summary, 'fdatasync');
    const answered = result['2xx'];
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    rows.push(
      `| ${name} | ${answered} | ${Math.round(result.requests.mean)} | ${result.latency.p99} | ${fsyncs} | ${(fsyncs / answered).toFixed(2)} | ${(written / answered / 1024).toFixed(1)} |`,
    );
  }
  console.log(`BENCH_DURATION=${DURATION_SECONDS} BENCH_CONNECTIONS=${CONNECTIONS}, strace attached`);
  console.log(
    '| scenario | 2xx answers | req/s | p99 ms | fsync + fdatasync calls | fsyncs / answer | KiB written / answer |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
} finally {
  await service.stop();
  removeDataDir(service.dataDir);
  rmSync(straceDir, { recursive: true, force: true });
}
