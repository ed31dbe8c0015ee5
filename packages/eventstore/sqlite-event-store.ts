import Database from 'better-sqlite3';
import type { Database as Connection, Statement } from 'better-sqlite3';
import {
  type AppendResult,
  type EventHandler,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './event-store.ts';
import { FALLBACK_CHECKPOINT_PAGES } from '../sqlite/background-wal-checkpoints.ts';
import { LimitedStatement } from '../sqlite/limited-statement.ts';
import { WalSync, type SyncFile } from '../sqlite/wal-sync.ts';
import { WriterTransaction } from '../sqlite/writer-transaction.ts';
import { AppendThreadOnDemand, type AppendThreadOptions } from './append-thread-on-demand.ts';
import { eventHash, GENESIS_HASH } from './event-hash.ts';
import { SqliteAppendThread } from './sqlite-append-thread.ts';
import { addHashColumnToOlderFiles, SCHEMA, toRecordedEvent, type EventRow } from './sqlite-event-table.ts';
import {
  addAppend,
  groupCommitOn,
  settledAppends,
  type GroupOutcomes,
  type GroupRequest,
  type Settled,
} from './sqlite-group-commit.ts';
import { SqliteSubscription } from './sqlite-subscription.ts';

/** How long a writer waits for another connection (e.g. an operator CLI) to release its lock. */
const BUSY_TIMEOUT_MS = 5_000;
/** Events a subscription reads per query while catching up. */
const CATCH_UP_BATCH_SIZE = 500;
/** How often live subscriptions look for appends made through another connection to the file. */
const POLL_INTERVAL_MS = 100;
/**
 * Page size of new files (SQLite's default is 4096). A commit writes every page it changed to the
 * WAL whole, and an append changes a page of each unique index at a random place (its event id,
 * its stream id): smaller pages are fewer bytes per append. Existing files keep their page size.
 */
const PAGE_SIZE_BYTES = 1024;
/**
 * SQLite's page cache for the events file, in KiB (better-sqlite3's build defaults to 16 MB per
 * connection). Appends touch a few pages at random places of the unique indexes and reads are of
 * recent streams and the log's tail: a larger cache mostly keeps pages nobody reads again, and
 * costs resident memory (`docs/benchmarks.md`, "Page caches").
 */
const PAGE_CACHE_KIB = 4_000;
/** Appends one group commit holds at most; a full group is written without waiting for the event loop to idle. */
const MAX_GROUP_SIZE = 128;
/** How long writes riding with the next append (`carryInNextCommit`) wait for one before committing alone. */
const PASSENGER_MAX_WAIT_MS = 200;

/** An append waiting in the queue for its group's commit. */
interface QueuedAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/**
 * A write to another table of the events file that must be durable no later than the next append
 * (e.g. a vault entry an event will reference): it is committed in the next group commit.
 */
export interface CommitPassenger {
  /**
   * Adds its statements to the group's transaction, as the group is made (on the event loop: the
   * group may commit on another thread's connection); asked again for the next group if this one
   * fails.
   */
  write(transaction: WriterTransaction): void;
  /** Called once the group that carried the write has committed (it is on disk once an append of it or a later one resolves). */
  committed?(): void;
}

/** SQLite's "no limit" for LIMIT clauses. */
const NO_LIMIT = -1;

/**
 * EventStore adapter for the embedded profile: one SQLite file, one `events` table.
 *
 * - Position is the row's AUTOINCREMENT key. SQLite has a single writer, so positions are committed in
 *   increasing order and a reader never sees a gap that fills in later.
 * - Durability: an append resolves only after its transaction is on disk. Commits run with
 *   `synchronous = NORMAL` and the write-ahead log is synced on the thread pool afterwards
 *   (`WalSync`), so the event loop serves other requests during the disk's flush; reads
 *   (`readStream`, `readAll`, subscriptions) hand out only events that are on disk, waiting for the
 *   sync when they find newer ones (also another process's), so nothing acts on an event a power
 *   loss could still take back.
 * - Group commit: appends made while the event loop is busy (concurrent requests) queue up and are
 *   written in one transaction when the loop next idles (`setImmediate`) or when MAX_GROUP_SIZE are
 *   waiting; one sync covers every group committed before it began. Each append has its own
 *   revision check, in the order it was made, and writes nothing when it fails (a single event is
 *   one INSERT, a batch has a savepoint): a conflicting append fails alone, the others of its group
 *   commit. Every promise of the group settles only
 *   after the group's commit is on disk.
 * - Retried appends are idempotent: if every event of a batch is already recorded, contiguously and in
 *   the same order, in this stream at the place the expected revision points to, the append succeeds
 *   again with the original result and writes nothing. Any other reuse of a recorded event id is a
 *   conflict (WrongExpectedRevisionError), like an append at the wrong revision.
 * - Subscriptions are woken in-process right after an append, and by polling `PRAGMA data_version`
 *   for appends made by another process (or another instance) on the same file.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Connection;
  private readonly selectStream: LimitedStatement<[string, number], EventRow>;
  private readonly selectAll: LimitedStatement<[number], EventRow>;
  private readonly selectHeadPosition: Statement<[], number | null>;
  /** The group commit on this connection (the event loop's). */
  private readonly commitHere: (request: GroupRequest) => GroupOutcomes;
  /** The group commits' thread, under write load; none when the options leave it out. */
  private readonly appendThread: AppendThreadOnDemand | null;
  /** The groups given to the thread whose outcomes have not come back yet. */
  private readonly groupsOnThread = new Set<Promise<void>>();
  /** A group failed on the thread: it refuses the groups after it until one tells it to resume. */
  private threadRefusing = false;
  private queue: QueuedAppend[] = [];
  private passengers: CommitPassenger[] = [];
  private flushScheduled: NodeJS.Immediate | undefined;
  private passengerTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly subscriptions = new Set<SqliteSubscription>();
  private poller: NodeJS.Timeout | undefined;
  private lastDataVersion = 0;
  private readonly walSync: WalSync;

  constructor(
    filePath: string,
    private readonly options: {
      /** Told of every group commit once it is on disk: how many appends it carried (for metrics). */
      onGroupCommit?: (appends: number) => void;
      /** A background thread checkpoints the file (see background-wal-checkpoints.ts): commits only do it as a fallback. */
      backgroundCheckpoints?: boolean;
      /** How the write-ahead log is flushed to disk (fdatasync on the thread pool; tests hold it back). */
      syncFile?: SyncFile;
      /** When group commits run on a thread of their own (`AppendThreadOnDemand`); by default, never. */
      appendThread?: AppendThreadOptions;
    } = {},
  ) {
    this.db = new Database(filePath, { timeout: BUSY_TIMEOUT_MS });
    // Takes effect only when the file is created (before WAL mode fixes it).
    this.db.pragma(`page_size = ${PAGE_SIZE_BYTES}`);
    this.db.pragma('journal_mode = WAL');
    // Commits do not sync: WalSync does, off the event loop, before anything is answered or read.
    const writerPragmas = ['synchronous = NORMAL', `cache_size = -${PAGE_CACHE_KIB}`];
    if (options.backgroundCheckpoints) writerPragmas.push(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
    for (const pragma of writerPragmas) this.db.pragma(pragma);
    this.db.exec(SCHEMA);
    addHashColumnToOlderFiles(this.db);

    this.selectStream = new LimitedStatement(
      this.db,
      (limit) => `SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ${limit}`,
    );
    this.selectAll = new LimitedStatement(
      this.db,
      (limit) => `SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ${limit}`,
    );
    this.selectHeadPosition = this.db.prepare<[], number | null>('SELECT MAX(position) FROM events').pluck();
    this.commitHere = groupCommitOn(this.db);
    this.appendThread = options.appendThread
      ? new AppendThreadOnDemand(
          // A sync held back or replaced (tests) stays with WalSync.
          () => new SqliteAppendThread(filePath, writerPragmas, BUSY_TIMEOUT_MS, options.syncFile === undefined),
          options.appendThread,
        )
      : null;
    this.walSync = new WalSync(filePath, () => this.selectHeadPosition.get() ?? 0, options.syncFile);
  }

  appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new RangeError(`Stream ${streamId}: nothing to append`));
    if (this.closed) return Promise.reject(new Error(`Stream ${streamId}: the event store is closed`));
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ streamId, events, expected: options.expectedRevision, resolve, reject });
      if (this.queue.length >= MAX_GROUP_SIZE) this.flush();
      else this.flushScheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Whether the group commits' thread runs now (`AppendThreadOnDemand`). */
  get appendThreadRunning(): boolean {
    return this.appendThread?.started ?? false;
  }

  /**
   * Queues a write to the events file that commits with the next group of appends, so that it costs
   * no fsync of its own and is on disk no later than any append made after this call. When no
   * append comes within PASSENGER_MAX_WAIT_MS it commits alone. Lost if the process dies first,
   * together with every append that could have depended on it.
   */
  carryInNextCommit(passenger: CommitPassenger): void {
    this.passengers.push(passenger);
    this.passengerTimer ??= setTimeout(() => this.flush(), PASSENGER_MAX_WAIT_MS);
  }

  /**
   * Commits a write to another table of the events file in a group made at once (with the appends
   * waiting, after any group committing now), and resolves once it is on disk.
   */
  commitNow(write: (transaction: WriterTransaction) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.carryInNextCommit({ write, committed: () => void this.walSync.syncWritesSoFar().then(resolve, reject) });
      this.flushScheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Runs a read (or a schema change) on the events file's connection, outside any group. */
  withConnection<T>(use: (db: Connection) => T): T {
    return use(this.db);
  }

  /**
   * Commits the queued appends (up to MAX_GROUP_SIZE) and every passenger in one transaction, on
   * this connection or the appends' thread, then settles their promises once it is synced. The
   * thread commits the groups given to it in order; when one fails it refuses the ones given after
   * it (they fail too, their passengers riding again) until the next group tells it to resume, so
   * that no append commits after a failed group whose passengers it may refer to.
   */
  private flush(): void {
    if (this.flushScheduled) clearImmediate(this.flushScheduled);
    this.flushScheduled = undefined;
    if (this.passengerTimer) clearTimeout(this.passengerTimer);
    this.passengerTimer = undefined;
    const group = this.queue.length > MAX_GROUP_SIZE ? this.queue.splice(0, MAX_GROUP_SIZE) : this.queue;
    if (group === this.queue) this.queue = [];
    const passengers = this.passengers;
    this.passengers = [];
    if (group.length === 0 && passengers.length === 0) return;
    if (this.queue.length > 0) this.flushScheduled = setImmediate(() => this.flush());
    let request: GroupRequest;
    try {
      request = groupRequest(group, passengers);
    } catch (error) {
      this.groupFailed(group, passengers, error);
      return;
    }
    const thread = this.appendThread?.thread() ?? null;
    if (thread === null) {
      let outcomes: GroupOutcomes;
      try {
        outcomes = this.commitHere(request);
      } catch (error) {
        this.groupFailed(group, passengers, error);
        return;
      }
      this.groupCommitted(group, passengers, settledAppends(request, outcomes));
      return;
    }
    if (this.threadRefusing) request.resume = true;
    this.threadRefusing = false;
    const landed: Promise<void> = this.appendThread!.commit(thread, request).then(
      ({ outcomes, synced }) => {
        this.groupsOnThread.delete(landed);
        this.groupCommitted(group, passengers, settledAppends(request, outcomes), synced);
      },
      (error: unknown) => {
        this.groupsOnThread.delete(landed);
        this.threadRefusing = true;
        this.groupFailed(group, passengers, error);
      },
    );
    this.groupsOnThread.add(landed);
  }

  /** Nothing of the group is written: its appends fail, its passengers ride with the next group. */
  private groupFailed(group: QueuedAppend[], passengers: CommitPassenger[], error: unknown): void {
    // Passengers ride again with the next group, so that an append that refers to one can never be
    // durable without it. (Unless the store is closing: then they are lost with the appends that
    // could refer to them.)
    if (!this.closed) this.passengers.unshift(...passengers);
    if (this.passengers.length > 0) this.passengerTimer ??= setTimeout(() => this.flush(), PASSENGER_MAX_WAIT_MS);
    for (const append of group) append.reject(error);
  }

  /**
   * The group has committed: its appends settle once the log is synced through it (`synced`: the
   * appends' thread synced it already, or its sync failed).
   */
  private groupCommitted(
    group: QueuedAppend[],
    passengers: CommitPassenger[],
    outcomes: Settled[],
    synced: boolean | Error = false,
  ): void {
    for (const passenger of passengers) passenger.committed?.();
    const last = Math.max(0, ...outcomes.map((outcome) => (outcome.ok ? outcome.result.position : 0)));
    if (synced === true) this.walSync.syncedThrough(last);
    const settle = (syncError?: unknown): void => {
      group.forEach((append, index) => {
        const outcome = outcomes[index]!;
        if (outcome.ok && syncError === undefined) append.resolve(outcome.result);
        else append.reject(outcome.ok ? syncError : outcome.error);
      });
    };
    if (synced instanceof Error) settle(synced);
    else if (last === 0 || synced) {
      this.options.onGroupCommit?.(group.length);
      settle();
    } else
      this.walSync.through(last).then(
        () => {
          this.options.onGroupCommit?.(group.length);
          settle();
        },
        (error: unknown) => settle(error),
      );
    // Subscribers read what is on disk only: woken now, they wait for the same sync.
    if (group.length > 0) for (const subscription of this.subscriptions) subscription.wake();
  }

  async readStream(
    streamId: string,
    options: { fromRevision?: number; maxCount?: number } = {},
  ): Promise<RecordedEvent[]> {
    const rows = this.selectStream.withLimit(options.maxCount ?? NO_LIMIT).all(streamId, options.fromRevision ?? 0);
    await this.onDisk(rows);
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const events = this.readAllNow(options.afterPosition ?? 0, options.maxCount ?? NO_LIMIT);
    await this.onDisk(events);
    return events;
  }

  /** Waits until the rows read (in position order) are on disk: they may be commits not yet synced. */
  private async onDisk(rows: readonly { position: number }[]): Promise<void> {
    const last = rows.at(-1)?.position ?? 0;
    if (last > this.walSync.durablePosition) await this.walSync.through(last);
  }

  async headPosition(): Promise<number> {
    return this.selectHeadPosition.get() ?? 0;
  }

  subscribeToAll(handler: EventHandler, options: SubscribeOptions = {}): Subscription {
    const subscription = new SqliteSubscription(
      (afterPosition) => this.readAllNow(afterPosition, CATCH_UP_BATCH_SIZE),
      (batch) => this.onDisk(batch),
      handler,
      options,
      () => this.forget(subscription),
    );
    this.subscriptions.add(subscription);
    this.startPolling();
    return subscription;
  }

  async close(): Promise<void> {
    // Appends already made are written (and answered) before the file closes.
    this.closed = true;
    this.flush();
    // A group that failed on the thread may have given its passengers back to a last group.
    while (this.groupsOnThread.size > 0) {
      await Promise.all(this.groupsOnThread);
      this.flush();
    }
    await this.appendThread?.close();
    await Promise.all([...this.subscriptions].map((subscription) => subscription.unsubscribe()));
    this.stopPolling();
    await this.walSync.close();
    this.db.close();
  }

  /**
   * Stores the hash of every event recorded before the log kept hashes, stream by stream in
   * revision order (the one-time `audit seal-existing`); events already hashed keep theirs and the
   * chain continues from them. Returns the number of events sealed.
   */
  async sealUnhashedEvents(onProgress?: (sealed: number, total: number) => void): Promise<number> {
    const total = this.db.prepare<[], number>('SELECT COUNT(*) FROM events WHERE hash IS NULL').pluck().get() ?? 0;
    const streams = this.db
      .prepare<[], string>('SELECT DISTINCT stream_id FROM events WHERE hash IS NULL')
      .pluck()
      .all();
    const setHash = this.db.prepare<[string, number]>('UPDATE events SET hash = ? WHERE position = ?');
    let sealed = 0;
    const sealTransaction = this.db.transaction((streamId: string) => {
      let previousHash = GENESIS_HASH;
      for (const row of this.selectStream.withLimit(NO_LIMIT).all(streamId, 0)) {
        const hash = row.hash ?? eventHash(previousHash, toRecordedEvent(row));
        if (row.hash === null) {
          setHash.run(hash, row.position);
          sealed += 1;
        }
        previousHash = hash;
      }
    });
    const sealStream = sealTransaction.immediate.bind(sealTransaction);
    for (const streamId of streams) {
      sealStream(streamId);
      onProgress?.(sealed, total);
    }
    return sealed;
  }

  private readAllNow(afterPosition: number, maxCount: number): RecordedEvent[] {
    return this.selectAll.withLimit(maxCount).all(afterPosition).map(toRecordedEvent);
  }

  private startPolling(): void {
    if (this.poller) return;
    this.lastDataVersion = this.dataVersion();
    this.poller = setInterval(() => {
      // data_version changes only when another connection committed to the file.
      const version = this.dataVersion();
      if (version === this.lastDataVersion) return;
      this.lastDataVersion = version;
      for (const subscription of this.subscriptions) subscription.wake();
    }, POLL_INTERVAL_MS);
  }

  private stopPolling(): void {
    clearInterval(this.poller);
    this.poller = undefined;
  }

  private dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  private forget(subscription: SqliteSubscription): void {
    this.subscriptions.delete(subscription);
    if (this.subscriptions.size === 0) this.stopPolling();
  }
}

/**
 * A group's request: its passengers' writes, then its appends (their JSON and canonical JSON made
 * here). An append whose events cannot be made JSON fails alone, as it would inside the
 * transaction, and is left out of the group.
 */
function groupRequest(group: QueuedAppend[], passengers: readonly CommitPassenger[]): GroupRequest {
  const carried = new WriterTransaction();
  for (const passenger of passengers) passenger.write(carried);
  const appends: unknown[] = [];
  for (let index = 0; index < group.length;) {
    const append = group[index]!;
    const length = appends.length;
    try {
      addAppend(appends, append.streamId, append.events, append.expected);
      index += 1;
    } catch (error) {
      appends.length = length;
      group.splice(index, 1);
      append.reject(error);
    }
  }
  return { statements: carried.statements, steps: carried.steps, appends };
}
