import { closeSync, fdatasync, fdatasyncSync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Flushes a file's written data to the disk; the default runs `fdatasync` on libuv's thread pool. */
export type SyncFile = (fd: number) => Promise<void>;

const fdatasyncOnThreadPool: SyncFile = (fd) =>
  new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));

/**
 * Makes the commits of a SQLite file in WAL mode durable off the event loop. The connection
 * commits with `synchronous=NORMAL`: the commit writes its frames to the `-wal` file (the page
 * cache) and is visible at once, but is not yet on disk. `through(position)` then syncs the `-wal`
 * file on the thread pool and resolves once every commit up to that log position is on disk.
 *
 * One sync runs at a time; whoever asks while it runs shares the next one, which covers every
 * commit made meanwhile (a sync flushes the whole file, whichever connection or process wrote it).
 * A commit that a sync covers is one whose position the file's head showed before the sync began.
 * Checkpoints (which copy the log into the database file) sync the log first themselves, so a
 * commit already copied out of the log is on disk too.
 */
export class WalSync {
  private durable: number;
  private readonly fd: number;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private closed = false;

  /**
   * Opens the `-wal` file of `databasePath` (the connection has it open in WAL mode) and syncs it
   * and its directory once, so that what is in the file now is durable, a new log file included.
   */
  constructor(
    databasePath: string,
    private readonly headPosition: () => number,
    private readonly syncFile: SyncFile = fdatasyncOnThreadPool,
  ) {
    this.fd = openWriteAheadLog(databasePath);
    fdatasyncSync(this.fd);
    const directory = openSync(dirname(databasePath), 'r');
    try {
      fsyncSync(directory);
    } finally {
      closeSync(directory);
    }
    this.durable = headPosition();
  }

  /** The highest log position known to be on disk. */
  get durablePosition(): number {
    return this.durable;
  }

  /** Resolves once every commit up to `position` is on disk; rejects if a sync fails. */
  async through(position: number): Promise<void> {
    while (this.durable < position) await this.nextSync();
  }

  /** Resolves once every write made to the file so far is on disk (writes that have no log position). */
  async syncWritesSoFar(): Promise<void> {
    await this.nextSync();
  }

  /** Waits for syncs under way, then lets go of the file. */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.next]);
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private nextSync(): Promise<void> {
    if (!this.running) {
      this.running = this.sync().finally(() => (this.running = undefined));
      return this.running;
    }
    // Commits made while a sync runs may have missed it: they share the one after it.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.nextSync();
      });
    return this.next;
  }

  private async sync(): Promise<void> {
    const head = this.headPosition();
    await this.syncFile(this.fd);
    this.durable = Math.max(this.durable, head);
  }
}

function openWriteAheadLog(databasePath: string): number {
  try {
    return openSync(`${databasePath}-wal`, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(
      `${databasePath} has no write-ahead log file: it must be in WAL mode, on a local file system that supports it`,
      { cause: error },
    );
  }
}
