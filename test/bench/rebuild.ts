import { Command, InvalidArgumentError } from 'commander';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { newId } from '../../packages/ids/object-id.ts';
import { physicalCollectionName } from '../../packages/projection-runtime/projection.ts';
import { ProjectionRunner } from '../../packages/projection-runtime/projection-runner.ts';
import { ReadStoreBuild } from '../../packages/projection-runtime/read-store-build.ts';
import { SqliteBuildFile } from '../../packages/readstore/sqlite-build-file.ts';
import { SqliteDocumentStore } from '../../packages/readstore/sqlite-document-store.ts';
import { allProjections } from '../../services/resources/registries.ts';
import { accountResource } from '../../packages/domain/account/account-events.ts';
import { seedCustomerCreations } from '../support/seed-log.ts';

/**
 * `npm run bench:rebuild [-- --events N --runs R]`: the projection rebuild rate without a service
 * around it. A log of N customer creations (10 accounts, one append per customer, as the service
 * makes them) is seeded once and kept in the temporary directory; each run copies it, starts a
 * `ProjectionRunner` with every projection of the service on an empty read store, and times it
 * (wall clock, and this process's CPU time, which a busy machine disturbs less) from start until
 * every projection has committed the last event (with `--indexes`, every
 * collection's list indexes exist from the start, as when a service answers lists during the
 * rebuild; without, the runner alone decides when they are made). Prints events per second, the
 * CPU seconds of the process, of its main thread and of its busiest other thread (the writer), the
 * process's RSS and V8 heap after the run and the read store's size on disk.
 */

const ACCOUNTS = 10;

const options = new Command()
  .name('bench:rebuild')
  .option('--events <count>', 'customer creations in the log', positiveCount, 20_000)
  .option('--runs <count>', 'rebuilds to time, one after the other', positiveCount, 3)
  .option('--fresh-log', 'seed the log again even when a seeded copy exists')
  .option(
    '--catch-up-batch <count>',
    "most events per batch while catching up (the runner's default otherwise)",
    positiveCount,
  )
  .option(
    '--live-file',
    "project through the serving process's runner into a live WAL read store (as catching up at start does) instead of a full rebuild's own file",
  )
  .option(
    '--one-thread',
    "the file build's SQLite writes on the projecting thread, as before they had a thread of their own (to compare)",
  )
  .option('--batch <count>', "events per batch of a full rebuild's file build (its default otherwise)", positiveCount)
  .option(
    '--indexes',
    "create every collection's list indexes before the rebuild, as a service answering lists during it has them",
  )
  .parse()
  .opts<{
    events: number;
    runs: number;
    freshLog?: boolean;
    indexes?: boolean;
    catchUpBatch?: number;
    liveFile?: boolean;
    oneThread?: boolean;
    batch?: number;
  }>();

function positiveCount(raw: string): number {
  const value = Number(raw.replaceAll(/[_,]/g, ''));
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError('a whole number of at least 1');
  return value;
}

const format = (value: number, digits = 0): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mib = (bytes: number): string => `${format(bytes / 1024 / 1024, 1)} MiB`;

/** The seeded log of `events` customer creations, made once and kept for later runs. */
async function seededLog(events: number): Promise<string> {
  const dir = join(tmpdir(), 'bench-rebuild-logs');
  const path = join(dir, `customers-${events}.sqlite`);
  if (existsSync(path) && !options.freshLog) return path;
  mkdirSync(dir, { recursive: true });
  const seeding = `${path}.seeding`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${seeding}${suffix}`, { force: true });
  const accounts = Array.from({ length: ACCOUNTS }, () => newId(accountResource));
  const started = performance.now();
  await seedCustomerCreations(seeding, accounts, 0, events, (next) =>
    process.stdout.write(`\rseeded ${format(next)} of ${format(events)} events`),
  );
  for (const suffix of ['-wal', '-shm']) rmSync(`${seeding}${suffix}`, { force: true });
  renameSync(seeding, path);
  const seconds = (performance.now() - started) / 1000;
  console.log(`\rseeded ${format(events)} events in ${format(seconds, 1)} s (${format(events / seconds)} events/s)`);
  return path;
}

/** User + system CPU seconds of one thread of this process (`/proc/self/task/<tid>/stat`, in clock ticks of 10 ms). */
function threadCpuSeconds(tid: number | string): number {
  const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const mainThreadCpuSeconds = (): number => threadCpuSeconds(process.pid);

/**
 * Seconds one thread of this process has run and has waited on a run queue for a core
 * (`/proc/self/task/<tid>/schedstat`, in ns): the rest of a span of wall time it was blocked
 * (waiting for the other thread, or for the disk), whatever the machine's load.
 */
function threadSchedule(tid: number | string): { running: number; queued: number } {
  const [running, queued] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
  return { running: running! / 1e9, queued: queued! / 1e9 };
}

/** How long a thread was blocked in a span of `wallSeconds`, from its schedule at either end. */
const blockedSeconds = (
  wallSeconds: number,
  before: { running: number; queued: number },
  after: { running: number; queued: number },
): number => wallSeconds - (after.running - before.running) - (after.queued - before.queued);

/**
 * The CPU seconds of the busiest thread other than the main one (the build's SQLite writer
 * thread), sampled every 100 ms while a run lasts: the thread has exited (and left
 * `/proc/self/task`) by the end of the run. `stop()` returns the figure.
 */
function busiestOtherThread(): {
  now: () => number;
  stop: () => number;
  schedule: () => { running: number; queued: number; since: number } | null;
} {
  const seen = new Map<string, number>();
  const before = new Map<string, number>();
  const schedules = new Map<string, { first: ReturnType<typeof threadSchedule>; at: number }>();
  const sample = (): void => {
    for (const tid of readdirSync('/proc/self/task')) {
      if (tid === String(process.pid)) continue;
      try {
        const seconds = threadCpuSeconds(tid);
        if (!before.has(tid)) {
          before.set(tid, seconds);
          schedules.set(tid, { first: threadSchedule(tid), at: performance.now() });
        }
        seen.set(tid, seconds);
      } catch {
        // The thread exited between the listing and the read.
      }
    }
  };
  const busiestTid = (): string | undefined => {
    let found: string | undefined;
    let most = -1;
    for (const [tid, seconds] of seen) {
      const used = seconds - (before.get(tid) ?? 0);
      if (used > most) [found, most] = [tid, used];
    }
    return found;
  };
  const busiest = (): number => {
    sample();
    return Math.max(0, ...[...seen].map(([tid, seconds]) => seconds - (before.get(tid) ?? 0)));
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    now: busiest,
    stop: () => {
      clearInterval(timer);
      return busiest();
    },
    /** The busiest thread's schedule now, less its first sample's, and the seconds since that sample. */
    schedule: () => {
      const tid = busiestTid();
      const first = tid === undefined ? undefined : schedules.get(tid);
      if (!tid || !first) return null;
      try {
        const now = threadSchedule(tid);
        return {
          running: now.running - first.first.running,
          queued: now.queued - first.first.queued,
          since: (performance.now() - first.at) / 1000,
        };
      } catch {
        return null;
      }
    },
  };
}

interface RunResult {
  seconds: number;
  /** Until the last commit: without what the runner does once caught up. */
  projectedSeconds: number;
  /** CPU time of this process (user + system): steadier than wall time on a shared machine. */
  cpuSeconds: number;
  /** CPU time of the main thread alone: with a core free for the others, what the wall time follows. */
  mainThreadCpuSeconds: number;
  /** Its part until the last commit (the rest of the time until then it waited, or the machine ran something else). */
  mainThreadCpuSecondsProjecting: number;
  /** Until the last commit: seconds the main thread and the writer thread were blocked (neither running nor waiting for a core). */
  mainThreadBlockedSeconds: number;
  writerThreadBlockedSeconds: number | null;
  /** CPU time of the busiest other thread (the writer thread, when there is one), and its part after the last commit. */
  otherThreadCpuSeconds: number;
  otherThreadCpuSecondsAfter: number;
  eventsPerSecond: number;
  rss: number;
  heapUsed: number;
  readStoreBytes: number;
}

/** What `projections rebuild --all` does in the CLI: a file of its own, built, indexed, sealed. */
async function buildFileOnce(log: string, events: number): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rebuild-'));
  try {
    // The build only reads the log: the seeded file is read in place (a copy of ten million events is 11 GB).
    const eventStore = new SqliteEventStore(log);
    const path = join(dir, 'read.1.sqlite');
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const mainBefore = mainThreadCpuSeconds();
    const mainScheduleBefore = threadSchedule(process.pid);
    const otherThread = busiestOtherThread();
    const readStore = options.oneThread
      ? new SqliteDocumentStore(path, { bulkBuild: true })
      : new SqliteBuildFile(path);
    if (options.indexes)
      for (const projection of allProjections())
        for (const [logical, collectionOptions] of Object.entries(projection.collections))
          readStore.collection(physicalCollectionName(logical, 1), collectionOptions);
    const build = new ReadStoreBuild(
      eventStore,
      readStore,
      allProjections().map((projection) => ({ projection, generation: 1 })),
      options.batch ? { batchSize: options.batch } : {},
    );
    await build.catchUp();
    const projected = (performance.now() - started) / 1000;
    const mainProjecting = mainThreadCpuSeconds() - mainBefore;
    const mainBlocked = blockedSeconds(projected, mainScheduleBefore, threadSchedule(process.pid));
    const otherThreadProjecting = otherThread.now();
    const writerSchedule = otherThread.schedule();
    await build.finish(new Date().toISOString());
    await readStore.seal();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const memory = process.memoryUsage();
    await eventStore.close();
    return {
      seconds,
      projectedSeconds: projected,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      mainThreadCpuSeconds: mainThreadCpuSeconds() - mainBefore,
      mainThreadCpuSecondsProjecting: mainProjecting,
      mainThreadBlockedSeconds: mainBlocked,
      writerThreadBlockedSeconds: writerSchedule
        ? writerSchedule.since - writerSchedule.running - writerSchedule.queued
        : null,
      ...otherThreadCpu(otherThread.stop(), otherThreadProjecting),
      eventsPerSecond: events / seconds,
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      readStoreBytes: statSync(path).size,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function otherThreadCpu(total: number, projecting: number) {
  return { otherThreadCpuSeconds: total, otherThreadCpuSecondsAfter: total - projecting };
}

async function rebuildOnce(log: string, events: number): Promise<RunResult> {
  if (!options.liveFile) return buildFileOnce(log, events);
  const dir = mkdtempSync(join(tmpdir(), 'bench-rebuild-'));
  try {
    copyFileSync(log, join(dir, 'events.sqlite'));
    const eventStore = new SqliteEventStore(join(dir, 'events.sqlite'));
    const readStore = new SqliteDocumentStore(join(dir, 'read.sqlite'));
    const head = await eventStore.headPosition();
    const projections = allProjections();
    if (options.indexes)
      for (const projection of projections)
        for (const [logical, collectionOptions] of Object.entries(projection.collections))
          readStore.collection(physicalCollectionName(logical, 1), collectionOptions);
    const runner = new ProjectionRunner(eventStore, readStore, projections, {
      onError: (error) => console.error('projection failed:', error),
      ...(options.catchUpBatch ? { catchUpBatchSize: options.catchUpBatch } : {}),
    });
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const mainBefore = mainThreadCpuSeconds();
    const mainScheduleBefore = threadSchedule(process.pid);
    const otherThread = busiestOtherThread();
    const done = new Promise<void>((resolve) => {
      const behind = new Set(projections.map((projection) => projection.name));
      runner.on('committed', (projection, _generation, position) => {
        if (position >= head) behind.delete(projection);
        if (behind.size === 0) resolve();
      });
    });
    await runner.start();
    await done;
    const projected = (performance.now() - started) / 1000;
    const mainProjecting = mainThreadCpuSeconds() - mainBefore;
    const mainBlocked = blockedSeconds(projected, mainScheduleBefore, threadSchedule(process.pid));
    const otherThreadProjecting = otherThread.now();
    // Stopping waits for the last batch to finish, with whatever the runner does after it (making
    // the list indexes once caught up).
    await runner.stop();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const memory = process.memoryUsage();
    await readStore.close();
    await eventStore.close();
    const readStoreBytes = ['read.sqlite', 'read.sqlite-wal']
      .map((file) => join(dir, file))
      .filter((file) => existsSync(file))
      .reduce((sum, file) => sum + statSync(file).size, 0);
    return {
      seconds,
      projectedSeconds: projected,
      cpuSeconds,
      mainThreadCpuSeconds: mainThreadCpuSeconds() - mainBefore,
      mainThreadCpuSecondsProjecting: mainProjecting,
      mainThreadBlockedSeconds: mainBlocked,
      writerThreadBlockedSeconds: null,
      ...otherThreadCpu(otherThread.stop(), otherThreadProjecting),
      eventsPerSecond: events / seconds,
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      readStoreBytes,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const log = await seededLog(options.events);
console.log(
  `${format(options.events)} customer creations${options.indexes ? ', indexes from the start' : ''}, ${options.runs} run(s), node ${process.version}, ` +
    `${cpus().length} CPUs, load average ${loadavg()
      .map((load) => format(load, 2))
      .join(' ')}`,
);
console.log(
  '| run | seconds | events/s | of which after the last commit (s) | CPU seconds | events per CPU second | main thread CPU seconds (before the last commit) | events per main thread CPU second | busiest other thread CPU seconds (after the last commit) | blocked before the last commit (s): main / writer thread | RSS after | V8 heap used | read store on disk |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (let run = 1; run <= options.runs; run++) {
  const result = await rebuildOnce(log, options.events);
  console.log(
    `| ${run} | ${format(result.seconds, 2)} | ${format(result.eventsPerSecond)} | ` +
      `${format(result.seconds - result.projectedSeconds, 2)} | ${format(result.cpuSeconds, 2)} | ` +
      `${format(options.events / result.cpuSeconds)} | ${format(result.mainThreadCpuSeconds, 2)} (${format(result.mainThreadCpuSecondsProjecting, 2)}) | ` +
      `${format(options.events / result.mainThreadCpuSeconds)} | ${format(result.otherThreadCpuSeconds, 2)} (${format(result.otherThreadCpuSecondsAfter, 2)}) | ` +
      `${format(result.mainThreadBlockedSeconds, 2)} / ${result.writerThreadBlockedSeconds === null ? '—' : format(result.writerThreadBlockedSeconds, 2)} | ${mib(result.rss)} | ` +
      `${mib(result.heapUsed)} | ${mib(result.readStoreBytes)} |`,
  );
}
