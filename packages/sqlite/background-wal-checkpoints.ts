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

export interface BackgroundCheckpointOptions {
  intervalMs?: number;
  /** Told of a checkpoint that failed (the file is tried again at the next interval). */
  onFailure?: (file: string, message: string) => void;
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
 * The worker is plain JavaScript evaluated in the thread (no module of ours to resolve, the same
 * under tsx and in the build) and loads the same better-sqlite3 the service uses.
 */
export class BackgroundWalCheckpoints {
  private constructor(private readonly worker: Worker) {}

  static start(files: readonly string[], options: BackgroundCheckpointOptions = {}): BackgroundWalCheckpoints {
    const worker = new Worker(CHECKPOINT_LOOP, {
      eval: true,
      // Not the parent's flags (e.g. a TypeScript loader): the loop is plain JavaScript.
      execArgv: [],
      // The loop holds almost nothing: a small heap keeps the thread's memory small.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
      workerData: {
        files,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
      },
    });
    worker.on('message', (message: { file: string; message: string }) =>
      options.onFailure?.(message.file, message.message),
    );
    worker.on('error', (error) => options.onFailure?.('(checkpoint thread)', error.message));
    // Checkpoints never keep the process alive: it checkpoints each file itself when it closes it.
    worker.unref();
    return new BackgroundWalCheckpoints(worker);
  }

  /** Checkpoints `next` instead of `previous` from now on (a read store file replaced by a rebuild's). */
  replace(previous: string, next: string): void {
    this.worker.postMessage({ replace: previous, with: next });
  }

  /** Stops the thread after the checkpoint it may be running, and closes its connections. */
  async stop(): Promise<void> {
    const exited = new Promise<void>((resolveExit) => this.worker.once('exit', () => resolveExit()));
    // Held again until it has exited: otherwise a process with nothing else left to do would end
    // while this waits, and whatever was to follow the stop would never run.
    this.worker.ref();
    this.worker.postMessage('stop');
    await exited;
  }
}

/**
 * The thread's loop. A file is checkpointed when another connection committed to it since its
 * last complete checkpoint (`PRAGMA data_version` changes then); a checkpoint that could not copy
 * everything (a reader still needed older pages) is tried again at the next interval.
 */
const CHECKPOINT_LOOP = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
let files = workerData.files.map((path) => ({ path, db: null, checkpointedVersion: null }));
function checkpointAll() {
  for (const file of files) {
    try {
      file.db ??= new Database(file.path, { fileMustExist: true, timeout: 0 });
      const version = file.db.pragma('data_version', { simple: true });
      if (version === file.checkpointedVersion) continue;
      const [result] = file.db.pragma('wal_checkpoint(PASSIVE)');
      if (result.busy === 0 && result.checkpointed === result.log) file.checkpointedVersion = version;
    } catch (error) {
      parentPort.postMessage({ file: file.path, message: String(error && error.message) });
    }
  }
}
const timer = setInterval(checkpointAll, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (typeof message === 'object' && message.replace) {
    for (const file of files) if (file.path === message.replace) file.db?.close();
    files = files.filter((file) => file.path !== message.replace);
    files.push({ path: message.with, db: null, checkpointedVersion: null });
    return;
  }
  if (message !== 'stop') return;
  clearInterval(timer);
  for (const file of files) file.db?.close();
  parentPort.close();
});
`;
