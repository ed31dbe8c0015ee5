import Database from 'better-sqlite3';
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { FALLBACK_CHECKPOINT_PAGES } from '../sqlite/background-wal-checkpoints.ts';
import { WriterThreadOnDemand, type WriterThreadOnDemandOptions } from '../sqlite/writer-thread-on-demand.ts';
import type { SqliteWriterThread } from '../sqlite/sqlite-writer-thread.ts';
import { WriterTransaction } from '../sqlite/writer-transaction.ts';
import type {
  CollectionOptions,
  Document,
  UntypedDocument,
  DocumentStore,
  ProjectionCheckpoint,
  ProjectionWrite,
} from './document-store.ts';
import {
  assertCollectionName,
  CHECKPOINTS_TABLE,
  INTERNAL_TABLES,
  quote,
  rowValues,
  SqliteCollection,
  SUCCESSOR_TABLE,
} from './sqlite-collection.ts';

/**
 * ReadStore adapter for the embedded profile: one SQLite table per collection, the document as
 * JSON next to the columns it is sorted and scoped by.
 */

export interface SqliteDocumentStoreOptions {
  /**
   * NORMAL (default) may lose the last commits on power loss, which read models survive by being
   * rebuilt; stores of operational state ask for FULL.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** A background thread checkpoints the file (see background-wal-checkpoints.ts): commits only do it as a fallback. */
  backgroundCheckpoints?: boolean;
  /**
   * A file that nobody reads until it is sealed (a rebuild's new read store): its rollback
   * journal in memory (better-sqlite3's defensive mode refuses none at all), no syncs, one
   * exclusive connection and a large page cache. A crash leaves the file unusable,
   * which is fine for a file the serving processes do not know of yet. `seal()` makes it an
   * ordinary WAL file and syncs it once.
   */
  bulkBuild?: boolean;
  /**
   * Projection commits run on a connection of their own on a worker thread while batches come
   * often (`WriterThreadOnDemand`: from 20 in a second, until 10 s without one; the options
   * change these): the event loop goes on answering requests while SQLite writes a batch, on the
   * machine's other core. While batches are rare they are committed on this connection, and the
   * thread's memory is not held. `commitProjection` resolves only once the batch is committed,
   * either way, so reads made after it see it. Files only (a database in memory is its
   * connection's alone).
   */
  commitsOnThread?: boolean | WriterThreadOnDemandOptions;
}

/** Another process (API, projector, worker) may hold the write lock for a moment. */
const BUSY_TIMEOUT_MS = 5000;
/** Page size of new files (bytes written per changed page; SQLite's default is 4096). */
const PAGE_SIZE_BYTES = 1024;
/** SQLite's default pages between automatic WAL checkpoints, and the count while writing in bulk (16 MiB). */
const DEFAULT_CHECKPOINT_PAGES = 1000;
const BULK_CHECKPOINT_PAGES = 16_384;
/**
 * SQLite's page cache in KiB: serving reads, and while writing in bulk (rebuilds, catching up),
 * when random inserts into every collection's id index find more of their pages in it
 * (better-sqlite3's build defaults to 16 MB per connection; `docs/benchmarks.md`, "Page caches").
 */
const PAGE_CACHE_KIB = 8_000;
const BULK_PAGE_CACHE_KIB = 16_000;
/**
 * The commits thread's connection only writes: it needs the pages its inserts touch, not the
 * readers' working set, and a cache it filled would stay in its malloc arena after it rests
 * (`docs/benchmarks.md`, "Memory").
 */
const COMMITS_THREAD_PAGE_CACHE_KIB = 2_000;
/** A build nobody reads yet: the whole working set of its id indexes stays in memory. */
export const BUILD_PAGE_CACHE_KIB = 256_000;
/**
 * A build reads its file through a memory map, up to SQLite's ceiling in this build (2 GiB): the
 * list-index builds at the end read every table once per index, page by page, and a map spares
 * them a read call and a copy per page the cache does not hold.
 */
const BUILD_MMAP_BYTES = 0x7fff0000;

export class SqliteDocumentStore implements DocumentStore {
  private readonly db: Database.Database;
  /** Pages between the automatic checkpoints commits run, outside bulk writes. */
  private readonly checkpointPages: number;
  private readonly collections = new Map<string, SqliteCollection<Document>>();
  private readonly moveCheckpoint: Database.Statement<[string, number]>;
  private readonly readCheckpoint: Database.Statement<[string], { position: number }>;
  private readonly tableNames: Database.Statement<[], { name: string }>;
  private readonly readSuccessor: Database.Statement<[], { file: string }>;
  private readonly applyBatch: Database.Transaction<
    (writes: ProjectionWrite[], checkpoints: readonly ProjectionCheckpoint[]) => void
  >;
  /** The thread projection commits run on while batches come often, when they may run on one. */
  private readonly committer: WriterThreadOnDemand | null;
  /** The settings `bulkWrites` made last, which a committing thread started now needs too. */
  private bulkSettings: readonly string[] = [];

  constructor(
    private readonly filePath: string,
    options: SqliteDocumentStoreOptions = {},
  ) {
    const synchronous = options.synchronous ?? 'NORMAL';
    if (synchronous !== 'NORMAL' && synchronous !== 'FULL')
      throw new TypeError(`Unsupported synchronous mode: ${String(synchronous)}`);
    this.db = new Database(filePath);
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Small pages: every commit writes each page it changed to the WAL whole, and a document change
    // touches a handful of pages (row, indexes, checkpoint). Takes effect when the file is created.
    this.db.pragma(`page_size = ${PAGE_SIZE_BYTES}`);
    if (options.bulkBuild) {
      this.db.pragma('locking_mode = EXCLUSIVE');
      for (const pragma of BUILD_PRAGMAS) this.db.pragma(pragma);
    } else {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${synchronous}`);
      this.db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    }
    this.checkpointPages = options.backgroundCheckpoints ? FALLBACK_CHECKPOINT_PAGES : DEFAULT_CHECKPOINT_PAGES;
    this.db.pragma(`wal_autocheckpoint = ${this.checkpointPages}`);
    const committerPragmas = [
      `busy_timeout = ${BUSY_TIMEOUT_MS}`,
      `synchronous = ${synchronous}`,
      `cache_size = -${COMMITS_THREAD_PAGE_CACHE_KIB}`,
      `wal_autocheckpoint = ${this.checkpointPages}`,
    ];
    this.committer =
      options.commitsOnThread && !options.bulkBuild && filePath !== ':memory:'
        ? new WriterThreadOnDemand(
            filePath,
            () => [...committerPragmas, ...this.bulkSettings],
            options.commitsOnThread === true ? {} : options.commitsOnThread,
          )
        : null;
    this.db.exec(STORE_TABLES_SQL);
    this.moveCheckpoint = this.db.prepare(MOVE_CHECKPOINT_SQL);
    this.readCheckpoint = this.db.prepare(`SELECT position FROM ${CHECKPOINTS_TABLE} WHERE key = ?`);
    this.tableNames = this.db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`);
    this.readSuccessor = this.db.prepare(`SELECT file FROM ${SUCCESSOR_TABLE} LIMIT 1`);
    this.applyBatch = this.db.transaction((writes: ProjectionWrite[], checkpoints: readonly ProjectionCheckpoint[]) => {
      for (const write of lastWritePerDocument(writes)) {
        const collection = this.collections.get(write.collection) ?? this.collection(write.collection);
        if (write.op === 'put') collection.applyPut(write.doc, write.position);
        else collection.applyDelete(write.id, write.position);
      }
      for (const checkpoint of checkpoints) this.moveCheckpoint.run(checkpoint.key, checkpoint.position);
    });
  }

  collection<T extends Document = UntypedDocument>(name: string, options?: CollectionOptions): SqliteCollection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new SqliteCollection(this.db, name);
      this.collections.set(name, collection);
    }
    collection.declareIndexes(options?.indexes ?? [], options?.scopeAloneListed ?? true);
    return collection as unknown as SqliteCollection<T>;
  }

  async commitProjection(writes: ProjectionWrite[], checkpoints: readonly ProjectionCheckpoint[]): Promise<void> {
    const thread = this.committer?.thread();
    if (thread) return this.commitOnThread(thread, writes, checkpoints);
    // IMMEDIATE takes the write lock up front, so busy_timeout applies instead of a failed lock upgrade.
    this.applyBatch.immediate(writes, checkpoints);
  }

  bulkWrites(enabled: boolean): void {
    // Pages between automatic checkpoints: each one copies the WAL into the file and syncs it.
    const checkpoints = `wal_autocheckpoint = ${enabled ? Math.max(BULK_CHECKPOINT_PAGES, this.checkpointPages) : this.checkpointPages}`;
    this.db.pragma(`cache_size = -${enabled ? BULK_PAGE_CACHE_KIB : PAGE_CACHE_KIB}`);
    this.db.pragma(checkpoints);
    // The connection that commits writes the pages: it needs the bulk cache too.
    const settings = [`cache_size = -${enabled ? BULK_PAGE_CACHE_KIB : COMMITS_THREAD_PAGE_CACHE_KIB}`, checkpoints];
    this.bulkSettings = settings;
    this.committer?.changeSettings(settings);
  }

  async getCheckpoint(key: string): Promise<number | null> {
    return this.readCheckpoint.get(key)?.position ?? null;
  }

  /**
   * Names the file that serves instead of this one from now on. Written in this file before the
   * pointer changes, so a process still reading here learns of the switch from the same file it
   * read (`SqliteReadFiles`), however late it looks at the pointer.
   */
  markReplacedBy(file: string): void {
    this.db.prepare(`INSERT INTO ${SUCCESSOR_TABLE} (file) VALUES (?)`).run(file);
  }

  /** The file that replaced this one, or null while this one serves. */
  replacedBy(): string | null {
    return this.readSuccessor.get()?.file ?? null;
  }

  async dropCollection(name: string): Promise<void> {
    assertCollectionName(name);
    this.db.exec(`DROP TABLE IF EXISTS ${quote(name)}`);
    this.collections.get(name)?.forgetTable();
  }

  async listCollections(prefix = ''): Promise<string[]> {
    return this.tableNames
      .all()
      .map((row) => row.name)
      .filter((name) => !INTERNAL_TABLES.has(name) && !name.startsWith('sqlite_') && name.startsWith(prefix));
  }

  async close(): Promise<void> {
    await this.committer?.close();
    this.db.close();
  }

  /**
   * The batch as `applyBatch` writes it, handed to the committing thread: its rows made here
   * (tables too, so that schema changes stay on this connection), SQLite's work there.
   */
  private async commitOnThread(
    thread: SqliteWriterThread,
    writes: ProjectionWrite[],
    checkpoints: readonly ProjectionCheckpoint[],
  ): Promise<void> {
    const committer = this.committer!;
    const transaction = new WriterTransaction();
    for (const setting of committer.takeSettings()) transaction.exec(`PRAGMA ${setting}`);
    for (const write of lastWritePerDocument(writes)) {
      const collection = this.collections.get(write.collection) ?? this.collection(write.collection);
      const sql = collection.projectionWriteSql();
      if (write.op === 'put') transaction.run(sql.put, rowValues(write.doc, write.position));
      else transaction.run(sql.delete, [write.id, write.position]);
    }
    for (const checkpoint of checkpoints) transaction.run(MOVE_CHECKPOINT_SQL, [checkpoint.key, checkpoint.position]);
    await committer.commit(thread, transaction.statements, transaction.steps);
  }

  /**
   * Ends a bulk build: closes it, makes the file an ordinary WAL database (as serving processes
   * open it) and syncs it to disk, once.
   */
  async seal(): Promise<void> {
    this.db.close();
    sealBuiltFile(this.filePath);
  }
}

/**
 * The pragmas of a file nobody reads until it is sealed: its rollback journal in memory
 * (better-sqlite3's defensive mode refuses none at all), no syncs, a large page cache, reads
 * through a memory map.
 */
export const BUILD_PRAGMAS = [
  `page_size = ${PAGE_SIZE_BYTES}`,
  'journal_mode = MEMORY',
  'synchronous = OFF',
  `cache_size = -${BUILD_PAGE_CACHE_KIB}`,
  `mmap_size = ${BUILD_MMAP_BYTES}`,
];

/** The store's own tables: projection checkpoints, and the file that replaced this one. */
export const STORE_TABLES_SQL = `
  CREATE TABLE IF NOT EXISTS ${CHECKPOINTS_TABLE} (key TEXT PRIMARY KEY, position INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS ${SUCCESSOR_TABLE} (file TEXT NOT NULL);`;

/** Moves a checkpoint (parameters: key, position); max(): never backwards, even when an older batch is replayed. */
export const MOVE_CHECKPOINT_SQL = `INSERT INTO ${CHECKPOINTS_TABLE} (key, position) VALUES (?, ?)
  ON CONFLICT (key) DO UPDATE SET position = max(position, excluded.position)`;

/** Ends a bulk build whose connections are closed: an ordinary WAL database (as serving processes open it), synced once. */
export function sealBuiltFile(path: string): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.close();
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The last write of each document, in batch order: a document changed by several events of a batch
 * is written once. Positions never decrease within a batch, so the last write is the one that counts.
 * A batch that writes each document once is returned as it is.
 */
export function lastWritePerDocument(writes: ProjectionWrite[]): ProjectionWrite[] {
  // The index of each document's last write, by collection and id.
  const last = new Map<string, Map<string, number>>();
  let repeated = false;
  for (let index = 0; index < writes.length; index++) {
    const write = writes[index]!;
    let byId = last.get(write.collection);
    if (!byId) last.set(write.collection, (byId = new Map()));
    const before = byId.size;
    byId.set(write.op === 'put' ? write.doc.id : write.id, index);
    if (byId.size === before) repeated = true;
  }
  if (!repeated) return writes;
  return writes.filter(
    (write, index) => last.get(write.collection)!.get(write.op === 'put' ? write.doc.id : write.id) === index,
  );
}
