/**
 * Where the disk writes of one scenario go: runs POST /customers or POST /charges (new card
 * details) against the service (embedded profile) with `strace -f -y -e trace=pwrite64,fsync,fdatasync`
 * attached, then prints, per file, the fsyncs and bytes written per 2xx answer, and for the
 * SQLite files the pages written by table or index (WAL frames carry their page number; the
 * object that owns a page is looked up in `dbstat` after the run).
 * Usage: npx tsx test/bench/writes-by-file.ts [customers|charges]. Env: BENCH_DURATION (default 5),
 * BENCH_CONNECTIONS (default 32).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { removeDataDir, startService } from '../support/service-process.ts';
import { BENCH_SERVICE_ENV, CHARGE_BODY, CUSTOMER_BODY } from './bench-requests.ts';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const scenario = process.argv[2] === 'charges' ? 'charges' : 'customers';
const BODY = scenario === 'customers' ? CUSTOMER_BODY : CHARGE_BODY;
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

const service = await startService({
  env: BENCH_SERVICE_ENV,
});
const straceDir = mkdtempSync(join(tmpdir(), 'writes-by-file-'));
try {
  const headers = {
    'content-type': 'application/json',
    authorization: `Basic ${Buffer.from(`${service.keys!.testSecretKey}:`).toString('base64')}`,
  };
  const url = `${service.baseUrl}/${scenario}`;
  const fire = (duration: number) =>
    autocannon({ url, method: 'POST', headers, body: BODY, connections: CONNECTIONS, duration, timeout: 10 });
  await fire(1);
  const output = join(straceDir, 'trace.txt');
  const strace = spawn(
    'strace',
    ['-f', '-y', '-s', '4', '-x', '-e', 'trace=pwrite64,fsync,fdatasync', '-o', output, '-p', String(service.pid)],
    { stdio: 'ignore' },
  );
  await sleep(500);
  const result = await fire(DURATION_SECONDS);
  await sleep(200);
  strace.kill('SIGINT');
  await once(strace, 'exit');
  const answered = result['2xx'];

  const bytes = new Map<string, number>();
  const syncs = new Map<string, number>();
  /** Pages written, by file (main database file) and page number. */
  const pages = new Map<string, Map<number, number>>();
  const countPage = (file: string, page: number) => {
    const byPage = pages.get(file) ?? new Map<number, number>();
    byPage.set(page, (byPage.get(page) ?? 0) + 1);
    pages.set(file, byPage);
  };
  for (const line of readFileSync(output, 'utf8').split('\n')) {
    const write = /pwrite64\(\d+<([^>]+)>, "((?:\\x[0-9a-f]{2}|[^"])*)"(?:\.\.\.)?, (\d+), (\d+)\) = (\d+)/.exec(line);
    if (write) {
      const [, file, data, size, offset] = write as unknown as [string, string, string, string, string];
      const name = basename(file);
      bytes.set(name, (bytes.get(name) ?? 0) + Number(size));
      if (name.endsWith('-wal') && Number(size) === FRAME_HEADER_BYTES && Number(offset) >= WAL_HEADER_BYTES) {
        const raw = Buffer.from(
          data.replace(/\\x([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        );
        if (raw.length >= 4) countPage(name.slice(0, -'-wal'.length), raw.readUInt32BE(0));
      }
      continue;
    }
    const sync = /(?:fsync|fdatasync)\(\d+<([^>]+)>\)/.exec(line);
    if (sync) syncs.set(basename(sync[1]!), (syncs.get(basename(sync[1]!)) ?? 0) + 1);
  }
  console.log(`${scenario}: ${answered} answers`);
  console.log('| file | fsyncs / answer | KiB written / answer |');
  for (const name of new Set([...bytes.keys(), ...syncs.keys()]))
    console.log(
      `| ${name} | ${((syncs.get(name) ?? 0) / answered).toFixed(2)} | ${((bytes.get(name) ?? 0) / answered / 1024).toFixed(1)} |`,
    );
  await service.stop();
  for (const [file, byPage] of pages) {
    const db = new Database(join(service.dataDir, file), { readonly: true });
    const owner = new Map(
      db
        .prepare<[], { name: string; pageno: number }>('SELECT name, pageno FROM dbstat')
        .all()
        .map((row) => [row.pageno, row.name]),
    );
    db.close();
    const byObject = new Map<string, number>();
    for (const [page, count] of byPage) {
      const name = page === 1 ? '(header page)' : (owner.get(page) ?? '(freed since)');
      byObject.set(name, (byObject.get(name) ?? 0) + count);
    }
    console.log(`\n${file}: WAL frames (pages) per answer, by table or index`);
    for (const [name, count] of [...byObject].sort((a, b) => b[1] - a[1]).slice(0, 15))
      console.log(`  ${(count / answered).toFixed(2)}  ${name}`);
  }
} finally {
  await service.stop().catch(() => undefined);
  removeDataDir(service.dataDir);
  if (!process.env.KEEP_TRACE) rmSync(straceDir, { recursive: true, force: true });
  else console.log(straceDir);
}
