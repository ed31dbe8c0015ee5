import { SqliteWriterThread, type WriterSteps } from './sqlite-writer-thread.ts';

/** Commits within one second from which they move to the thread. */
const DEFAULT_START_AT_PER_SECOND = 20;
/** How long the thread goes on without a commit before it exits. */
const DEFAULT_REST_AFTER_MS = 10_000;

export interface WriterThreadOnDemandOptions {
  /** Commits within one second from which the thread is started (default 20). */
  startAtPerSecond?: number;
  /** How long the thread runs without a commit before it exits (default 10 s). */
  restAfterMs?: number;
}

/**
 * A SQLite writer thread (`SqliteWriterThread`) that runs only while commits come often. The
 * thread pays under write load, when the event loop has requests to answer while SQLite commits;
 * it costs its own V8 isolate, a second better-sqlite3 and a connection's page cache (10–13 MiB),
 * and while writes are rare a commit on the calling thread costs it a fraction of a millisecond.
 *
 * So each commit asks `thread()` where to run: null (the caller commits on its own connection)
 * until `startAtPerSecond` commits came within one second; the thread is then started, and takes
 * the commits once its connection is open (until then they go on without it, so that no commit
 * waits for the thread's start). After `restAfterMs` without a commit it exits, and the next
 * commit runs on the caller's connection again, without waiting for a start.
 *
 * The caller must not commit on its own connection while a commit on the thread is in flight
 * (both take the file's write lock): `thread()` keeps returning the thread while one is.
 */
export class WriterThreadOnDemand {
  private running: SqliteWriterThread | null = null;
  /** Whether the running thread's connection is open (its first, empty, transaction has committed). */
  private ready = false;
  private inFlight = 0;
  private windowStartedAt = Number.NEGATIVE_INFINITY;
  private commitsInWindow = 0;
  private lastCommitAt = 0;
  private restCheck: NodeJS.Timeout | null = null;
  /** Settings the running thread's connection gets with its next transaction. */
  private settingsToSend: string[] = [];
  private closed = false;
  private readonly startAtPerSecond: number;
  private readonly restAfterMs: number;

  /** `pragmas`: what a new thread's connection is set up with, read at each start. */
  constructor(
    private readonly path: string,
    private readonly pragmas: () => readonly string[],
    options: WriterThreadOnDemandOptions = {},
  ) {
    this.startAtPerSecond = options.startAtPerSecond ?? DEFAULT_START_AT_PER_SECOND;
    this.restAfterMs = options.restAfterMs ?? DEFAULT_REST_AFTER_MS;
  }

  /** Whether a thread runs now (started, not yet rested). */
  get started(): boolean {
    return this.running !== null;
  }

  /**
   * Counts a commit about to be made and says where: the thread, or null for the caller's own
   * connection. A thread that stopped by itself (out of memory, say) is let go, and a new one
   * starts when commits come often again.
   */
  thread(): SqliteWriterThread | null {
    const now = Date.now();
    this.lastCommitAt = now;
    if (now - this.windowStartedAt >= 1000) {
      this.windowStartedAt = now;
      this.commitsInWindow = 0;
    }
    this.commitsInWindow += 1;
    if (this.running?.stopped && this.inFlight === 0) this.letGo();
    if (!this.running && !this.closed && this.commitsInWindow >= this.startAtPerSecond) this.start();
    return this.running && (this.ready || this.inFlight > 0) ? this.running : null;
  }

  /** Runs a transaction on `thread` (from `thread()`), with the settings changed since the last. */
  async commit(thread: SqliteWriterThread, statements: readonly string[], steps: WriterSteps): Promise<void> {
    this.inFlight += 1;
    try {
      await thread.transaction(statements, steps);
    } finally {
      this.inFlight -= 1;
    }
  }

  /** Settings changed on the caller's connection that the thread's needs too (sent with its next transaction). */
  changeSettings(settings: readonly string[]): void {
    if (this.running) this.settingsToSend = [...settings];
  }

  /** The settings to send with the next transaction on the thread, once. */
  takeSettings(): string[] {
    const settings = this.settingsToSend;
    this.settingsToSend = [];
    return settings;
  }

  /** Stops the thread (once every commit given to it has run); no other starts. */
  async close(): Promise<void> {
    this.closed = true;
    await this.rest();
  }

  private start(): void {
    const thread = new SqliteWriterThread(this.path, this.pragmas());
    this.running = thread;
    this.ready = false;
    this.settingsToSend = [];
    // An empty transaction: once it has committed, the thread's connection is open and can write.
    thread.transaction([], []).then(
      () => {
        if (this.running === thread) this.ready = true;
      },
      () => {
        // The thread could not start: commits stay on the caller's connection, and the next
        // `thread()` lets it go.
      },
    );
    const checkEvery = Math.max(10, Math.floor(this.restAfterMs / 4));
    this.restCheck = setInterval(() => {
      if (this.inFlight === 0 && Date.now() - this.lastCommitAt >= this.restAfterMs) void this.rest();
    }, checkEvery);
    // Resting never keeps the process alive.
    this.restCheck.unref();
  }

  /** From now on commits run on the caller's connection; the thread closes once its commits have run. */
  private async rest(): Promise<void> {
    const thread = this.letGo();
    await thread?.close();
  }

  private letGo(): SqliteWriterThread | null {
    const thread = this.running;
    this.running = null;
    this.ready = false;
    if (this.restCheck) clearInterval(this.restCheck);
    this.restCheck = null;
    if (thread?.stopped) void thread.close();
    return thread?.stopped ? null : thread;
  }
}
