import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Pages a connection lets its write-ahead log grow to before it checkpoints by itself, inside a
 * commit, when checkpoints run in the background: only reached if the background thread stops
 * keeping up (or stops), so that the log stays bounded whatever happens to it.
 */
export const FALLBACK_CHECKPOINT_PAGES = 65_536;

/** How often the background thread looks for new commits to checkpoint. */
const DEFAULT_INTERVAL_MS = 250;

/**
 * How long the thread goes on with nothing to checkpoint before it exits: its isolate holds about
 * 13 MiB, and starting it again costs about 40 ms of CPU, nearly all of it on the new thread.
 */
const DEFAULT_IDLE_EXIT_MS = 2000;

/**
 * While the thread rests, how long a trickle of commits (the projections lease is renewed every
 * 3 s) waits for its checkpoint, and how much a `-wal` file may grow before one starts at once.
 */
const DEFAULT_TRICKLE_WAIT_MS = 30_000;
const DEFAULT_WAKE_GROWTH_BYTES = 1024 * 1024;

export interface BackgroundCheckpointOptions {
  intervalMs?: number;
  /** How long the thread runs without new commits before it exits. */
  idleExitMs?: number;
  /** While it rests: how long changed `-wal` files wait before it starts again, */
  trickleWaitMs?: number;
  /** ... unless one of them grew by this much since it exited. */
  wakeGrowthBytes?: number;
  /** Told of a checkpoint that failed (the file is tried again at the next interval). */
  onFailure?: (file: string, message: string) => void;
  /**
   * Start as if the thread had just exited for want of commits: no thread until a log grows by
   * `wakeGrowthBytes`, or `trickleWaitMs` after the start when a log holds commits already (a
   * service's start, whose own few commits can wait). By default the thread starts at once.
   */
  waitForCommits?: boolean;
}

/** A `-wal` file's size and modification time. */
interface LogState {
  size: number;
  mtimeMs: number;
}

/** What the thread reports when it exits for want of commits: each `-wal` file as it last saw it. */
interface RestingLogs {
  resting: [file: string, log: LogState | null][];
}

/**
 * WAL checkpoints of the embedded SQLite files, run on a thread of their own. A checkpoint copies
 * the write-ahead log back into the database file and syncs both; by default SQLite runs one in
 * the connection that commits, inside the commit, whenever the log passes 1,000 pages, so every
 * few hundred requests one of them held the event loop for a disk sync and everything queued
 * behind it waited. Here a worker thread with its own connection to each file runs passive
 * checkpoints (they never block the writer or readers, and copy only what no reader still needs)
 * after each file has new commits; the writers keep a far higher automatic threshold
 * (FALLBACK_CHECKPOINT_PAGES) in case this thread falls behind.
 *
 * The thread runs only while there is something to copy: once every file is fully checkpointed
 * and nothing was committed for `idleExitMs`, it exits. The event loop then looks at the `-wal`
 * files (one `stat` each per interval, on libuv's thread pool) and starts it again once one of
 * them grew by `wakeGrowthBytes`, or `trickleWaitMs` after the first change it saw: a burst of
 * writes is checkpointed at once, a trickle (the projections lease) in one go now and then.
 *
 * The worker is plain JavaScript evaluated in the thread (no module of ours to resolve, the same
 * under tsx and in the build) and loads the same better-sqlite3 the service uses.
 */
export class BackgroundWalCheckpoints {
  private worker: Worker | null = null;
  /** The `-wal` files as the thread last saw them before it exited for want of commits. */
  private restingLogs = new Map<string, LogState | null>();
  /** When the event loop first saw a `-wal` file changed since the thread exited. */
  private changeSeenAt: number | null = null;
  private watch: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly intervalMs: number;
  private readonly idlePasses: number;
  private readonly trickleWaitMs: number;
  private readonly wakeGrowthBytes: number;
  private readonly onFailure: BackgroundCheckpointOptions['onFailure'];

  private constructor(
    private files: string[],
    options: BackgroundCheckpointOptions,
  ) {
    this.intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.idlePasses = Math.max(1, Math.ceil((options.idleExitMs ?? DEFAULT_IDLE_EXIT_MS) / this.intervalMs));
    this.trickleWaitMs = options.trickleWaitMs ?? DEFAULT_TRICKLE_WAIT_MS;
    this.wakeGrowthBytes = options.wakeGrowthBytes ?? DEFAULT_WAKE_GROWTH_BYTES;
    this.onFailure = options.onFailure;
  }

  static start(files: readonly string[], options: BackgroundCheckpointOptions = {}): BackgroundWalCheckpoints {
    const checkpoints = new BackgroundWalCheckpoints([...files], options);
    if (!options.waitForCommits) checkpoints.startThread();
    else {
      const logs = checkpoints.files.map((file): [string, LogState | null] => [file, walStateNow(file)]);
      // What the logs hold already is copied after a trickle's wait, unless more commits come sooner.
      checkpoints.watchLogs(logs, logs.some(([, log]) => (log?.size ?? 0) > 0) ? Date.now() : null);
    }
    return checkpoints;
  }

  /** Whether the thread runs now (it exits while there is nothing to checkpoint). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Checkpoints `next` instead of `previous` from now on (a read store file replaced by a rebuild's). */
  replace(previous: string, next: string): void {
    this.files = [...this.files.filter((file) => file !== previous), next];
    this.worker?.postMessage({ replace: previous, with: next });
  }

  /** Stops the thread after the checkpoint it may be running, and closes its connections. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.watch) clearInterval(this.watch);
    this.watch = null;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolveExit) => worker.once('exit', () => resolveExit()));
    // Held again until it has exited: otherwise a process with nothing else left to do would end
    // while this waits, and whatever was to follow the stop would never run.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  }

  private startThread(): void {
    const worker = new Worker(CHECKPOINT_LOOP, {
      eval: true,
      // Not the parent's flags (e.g. a TypeScript loader): the loop is plain JavaScript.
      execArgv: [],
      // The loop holds almost nothing: a small heap keeps the thread's memory small. V8 takes the young
      // generation's size from --max-semi-space-size instead when the process has it (`npm start` does).
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
      workerData: {
        files: this.files,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        intervalMs: this.intervalMs,
        idlePasses: this.idlePasses,
      },
    });
    this.worker = worker;
    worker.on('message', (message: { file: string; message: string } | RestingLogs) => {
      if ('resting' in message) this.rest(worker, message.resting);
      else this.onFailure?.(message.file, message.message);
    });
    worker.on('error', (error) => this.onFailure?.('(checkpoint thread)', error.message));
    // Checkpoints never keep the process alive: it checkpoints each file itself when it closes it.
    worker.unref();
  }

  /** The thread exited for want of commits: watch the logs until there is enough to copy. */
  private rest(worker: Worker, logs: RestingLogs['resting']): void {
    if (this.worker !== worker || this.stopped) return;
    this.worker = null;
    this.watchLogs(logs, null);
  }

  /** Watches the logs, seen as `logs` last (changed since `changeSeenAt`), until there is enough to copy. */
  private watchLogs(logs: RestingLogs['resting'], changeSeenAt: number | null): void {
    this.restingLogs = new Map(logs);
    this.changeSeenAt = changeSeenAt;
    this.watch = setInterval(() => void this.wakeOnCommits(), this.intervalMs);
    this.watch.unref();
  }

  private async wakeOnCommits(): Promise<void> {
    const files = this.files;
    const logs = await Promise.all(files.map((file) => walState(file)));
    if (this.stopped || this.worker || !this.watch) return;
    let changed = false;
    let grown = false;
    files.forEach((file, index) => {
      const now = logs[index];
      if (!now) return;
      // A file replaced since the thread exited is unknown to it: it is checkpointed at once.
      if (!this.restingLogs.has(file)) grown = true;
      const before = this.restingLogs.get(file) ?? { size: 0, mtimeMs: Number.NaN };
      if (now.size !== before.size || now.mtimeMs !== before.mtimeMs) changed = true;
      if (now.size >= before.size + this.wakeGrowthBytes) grown = true;
    });
    if (changed) this.changeSeenAt ??= Date.now();
    if (!grown && (this.changeSeenAt === null || Date.now() - this.changeSeenAt < this.trickleWaitMs)) return;
    clearInterval(this.watch);
    this.watch = null;
    this.startThread();
  }
}

/** A `-wal` file's size and modification time now (null while there is none). */
function walStateNow(file: string): LogState | null {
  try {
    const { size, mtimeMs } = statSync(`${file}-wal`);
    return { size, mtimeMs };
  } catch {
    return null;
  }
}

/** A `-wal` file's size and modification time (null while there is none), as the thread reads them. */
async function walState(file: string): Promise<LogState | null> {
  try {
    const { size, mtimeMs } = await stat(`${file}-wal`);
    return { size, mtimeMs };
  } catch {
    return null;
  }
}

/**
 * The thread's loop. A file is checkpointed when another connection committed to it since its
 * last complete checkpoint (`PRAGMA data_version` changes then); a checkpoint that could not copy
 * everything (a reader still needed older pages) is tried again at the next interval. After
 * `idlePasses` passes in a row with nothing to do it closes its connections, reports the `-wal`
 * files as it saw them before the last pass (a commit after that changes them) and exits.
 */
const CHECKPOINT_LOOP = `
const { statSync } = require('node:fs');
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
let files = workerData.files.map((path) => ({ path, db: null, checkpointedVersion: null }));
let quietPasses = 0;
function walState(path) {
  try {
    const { size, mtimeMs } = statSync(path + '-wal');
    return { size, mtimeMs };
  } catch {
    return null;
  }
}
function checkpointAll() {
  const logs = files.map((file) => [file.path, walState(file.path)]);
  let busy = false;
  for (const file of files) {
    try {
      file.db ??= new Database(file.path, { fileMustExist: true, timeout: 0 });
      const version = file.db.pragma('data_version', { simple: true });
      if (version === file.checkpointedVersion) continue;
      busy = true;
      const [result] = file.db.pragma('wal_checkpoint(PASSIVE)');
      if (result.busy === 0 && result.checkpointed === result.log) file.checkpointedVersion = version;
    } catch (error) {
      parentPort.postMessage({ file: file.path, message: String(error && error.message) });
    }
  }
  quietPasses = busy ? 0 : quietPasses + 1;
  if (quietPasses < workerData.idlePasses) return;
  parentPort.postMessage({ resting: logs });
  stop();
}
function stop() {
  clearInterval(timer);
  for (const file of files) file.db?.close();
  parentPort.close();
}
const timer = setInterval(checkpointAll, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (typeof message === 'object' && message.replace) {
    for (const file of files) if (file.path === message.replace) file.db?.close();
    files = files.filter((file) => file.path !== message.replace);
    files.push({ path: message.with, db: null, checkpointedVersion: null });
    return;
  }
  if (message === 'stop') stop();
});
`;
