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
import { eventHash, GENESIS_HASH } from './event-hash.ts';
import { addHashColumnToOlderFiles, SCHEMA, toRecordedEvent, type EventRow } from './sqlite-event-table.ts';
import { SqliteStreamAppends } from './sqlite-stream-appends.ts';
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
  /** Runs inside the group's transaction; written again with the next group if this one fails. */
  write(db: Connection): void;
  /** Called once the group that carried the write has committed (it is on disk once an append of it or a later one resolves). */
  committed?(): void;
}

/** How one append of a group ended. */
type Settled = { ok: true; result: AppendResult } | { ok: false; error: unknown };

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
  /** One append inside the group's transaction: one that fails writes nothing and fails alone. */
  private readonly streams: SqliteStreamAppends;
  private readonly commitGroup: (group: QueuedAppend[], passengers: CommitPassenger[]) => Settled[];
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
    } = {},
  ) {
    this.db = new Database(filePath, { timeout: BUSY_TIMEOUT_MS });
    // Takes effect only when the file is created (before WAL mode fixes it).
    this.db.pragma(`page_size = ${PAGE_SIZE_BYTES}`);
    this.db.pragma('journal_mode = WAL');
    // Commits do not sync: WalSync does, off the event loop, before anything is answered or read.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    if (options.backgroundCheckpoints) this.db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
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
    this.streams = new SqliteStreamAppends(this.db, this.selectStream);
    const group = this.db.transaction(this.writeGroup.bind(this));
    // BEGIN IMMEDIATE takes the write lock before the revision checks, so no other connection can append in between.
    this.commitGroup = group.immediate.bind(group);
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

  /** Resolves once every write made to the file so far, appends or not (`withConnection`), is on disk. */
  syncWritesSoFar(): Promise<void> {
    return this.walSync.syncWritesSoFar();
  }

  /** Runs a read (or a schema change) on the events file's connection, outside any group. */
  withConnection<T>(use: (db: Connection) => T): T {
    return use(this.db);
  }

  /** Commits every queued append and passenger in one transaction, then settles their promises. */
  private flush(): void {
    if (this.flushScheduled) clearImmediate(this.flushScheduled);
    if (this.passengerTimer) clearTimeout(this.passengerTimer);
    this.flushScheduled = undefined;
    this.passengerTimer = undefined;
    const group = this.queue;
    const passengers = this.passengers;
    this.queue = [];
    this.passengers = [];
    if (group.length === 0 && passengers.length === 0) return;
    let outcomes: Settled[];
    try {
      outcomes = this.commitGroup(group, passengers);
    } catch (error) {
      // Nothing of the group is written. Passengers ride again with the next group, so that an append
      // that refers to one can never be durable without it.
      // (Unless the store is closing: then they are lost with the appends that could refer to them.)
      if (!this.closed) this.passengers.unshift(...passengers);
      if (this.passengers.length > 0) this.passengerTimer ??= setTimeout(() => this.flush(), PASSENGER_MAX_WAIT_MS);
      for (const append of group) append.reject(error);
      return;
    }
    for (const passenger of passengers) passenger.committed?.();
    const last = Math.max(0, ...outcomes.map((outcome) => (outcome.ok ? outcome.result.position : 0)));
    const settle = (syncError?: unknown): void => {
      group.forEach((append, index) => {
        const outcome = outcomes[index]!;
        if (outcome.ok && syncError === undefined) append.resolve(outcome.result);
        else append.reject(outcome.ok ? syncError : outcome.error);
      });
    };
    if (last === 0) {
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

  private writeGroup(group: QueuedAppend[], passengers: CommitPassenger[]): Settled[] {
    for (const passenger of passengers) passenger.write(this.db);
    return group.map((append): Settled => {
      try {
        return { ok: true, result: this.streams.append(append.streamId, append.events, append.expected) };
      } catch (error) {
        // An error that ended the transaction itself (a full disk, an I/O error) fails the whole
        // group: nothing of it is written, and no later append may commit outside it.
        if (!this.db.inTransaction) throw error;
        return { ok: false, error };
      }
    });
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
