import type { LandedGroup, SqliteAppendThread } from './sqlite-append-thread.ts';
import type { GroupRequest } from './sqlite-group-commit.ts';

/** When the events file's group commits move to a thread of their own, and when it exits. */
export interface AppendThreadOptions {
  /** Group commits within one second from which the thread is started; 0 starts it with the store. */
  startAtPerSecond: number;
  /** How long the thread runs without a group commit before it exits. */
  restAfterMs: number;
}

export const APPEND_THREAD_UNDER_LOAD: AppendThreadOptions = { startAtPerSecond: 20, restAfterMs: 10_000 };

/**
 * The events file's append thread (`SqliteAppendThread`), run only while group commits come
 * often: it pays under write load, when the event loop has requests to answer while SQLite
 * commits, and costs its own V8 isolate, a second better-sqlite3 and a connection's page cache,
 * which an idle service need not hold; while appends are rare a commit on the event loop costs it
 * a fraction of a millisecond. So each group asks `thread()` where to run: null (the store's own
 * connection) until `startAtPerSecond` groups came within one second; the thread then takes the
 * groups once its connection is open (until then they go on without it, so that no append waits
 * for the thread's start). After `restAfterMs` without a group it exits, and the next group runs
 * on the store's connection again, without waiting for a start. While a group is on the thread,
 * `thread()` keeps returning it, so the two connections never commit at once.
 */
export class AppendThreadOnDemand {
  private running: SqliteAppendThread | null = null;
  private ready = false;
  private inFlight = 0;
  private windowStartedAt = Number.NEGATIVE_INFINITY;
  private groupsInWindow = 0;
  private lastGroupAt = 0;
  private restCheck: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly open: () => SqliteAppendThread,
    private readonly options: AppendThreadOptions,
  ) {
    if (options.startAtPerSecond <= 0) this.start();
  }

  /** Whether a thread runs now (started, not yet rested). */
  get started(): boolean {
    return this.running !== null;
  }

  /**
   * Counts a group about to be committed and says where: the thread, or null for the store's own
   * connection. A thread that stopped by itself is let go, and a new one starts when groups come
   * often again.
   */
  thread(): SqliteAppendThread | null {
    const now = Date.now();
    this.lastGroupAt = now;
    if (now - this.windowStartedAt >= 1000) {
      this.windowStartedAt = now;
      this.groupsInWindow = 0;
    }
    this.groupsInWindow += 1;
    if (this.running?.stopped && this.inFlight === 0) this.letGo();
    if (!this.running && !this.closed && this.groupsInWindow >= this.options.startAtPerSecond) this.start();
    return this.running && (this.ready || this.inFlight > 0 || this.options.startAtPerSecond <= 0)
      ? this.running
      : null;
  }

  /** Commits a group on `thread` (from `thread()`). */
  async commit(thread: SqliteAppendThread, request: GroupRequest): Promise<LandedGroup> {
    this.inFlight += 1;
    try {
      return await thread.commit(request);
    } finally {
      this.inFlight -= 1;
    }
  }

  /** Stops the thread once every group given to it has run; no other starts. */
  async close(): Promise<void> {
    this.closed = true;
    const thread = this.letGo();
    await thread?.close();
  }

  private start(): void {
    const thread = this.open();
    this.running = thread;
    this.ready = false;
    void thread.opened.then(() => {
      if (this.running === thread && !thread.stopped) this.ready = true;
    });
    if (!Number.isFinite(this.options.restAfterMs)) return;
    const checkEvery = Math.max(10, Math.floor(this.options.restAfterMs / 4));
    this.restCheck = setInterval(() => {
      if (this.inFlight === 0 && Date.now() - this.lastGroupAt >= this.options.restAfterMs) {
        const resting = this.letGo();
        void resting?.close();
      }
    }, checkEvery);
    // Resting never keeps the process alive.
    this.restCheck.unref();
  }

  private letGo(): SqliteAppendThread | null {
    const thread = this.running;
    this.running = null;
    this.ready = false;
    if (this.restCheck) clearInterval(this.restCheck);
    this.restCheck = null;
    if (thread?.stopped) void thread.close();
    return thread?.stopped ? null : thread;
  }
}
