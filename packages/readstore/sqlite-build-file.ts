import Database from 'better-sqlite3';
import { SqliteWriterThread } from '../sqlite/sqlite-writer-thread.ts';
import { WriterTransaction } from '../sqlite/writer-transaction.ts';
import type {
  Collection,
  CollectionOptions,
  Document,
  DocumentStore,
  ProjectionCheckpoint,
  ProjectionWrite,
  UntypedDocument,
} from './document-store.ts';
import { listIndexFields } from './list-indexes.ts';
import {
  assertCollectionName,
  CHECKPOINTS_TABLE,
  createListIndexSql,
  createTableSql,
  projectionWriteSql,
  putSql,
  quote,
  rowValues,
} from './sqlite-collection.ts';
import {
  BUILD_PAGE_CACHE_KIB,
  BUILD_PRAGMAS,
  lastWritePerDocument,
  MOVE_CHECKPOINT_SQL,
  sealBuiltFile,
  STORE_TABLES_SQL,
} from './sqlite-document-store.ts';

/** Another connection to the file (the writer thread, or this one's reads) holds its lock for a moment. */
const BUSY_TIMEOUT_MS = 60_000;
/**
 * Documents written between two commits. Every commit writes each page it changed, and a batch's
 * inserts into the id indexes (random ids) change pages all over them: committing every batch of
 * a million-document build rewrites most of those pages each time (`docs/benchmarks.md`, "Rebuilds").
 */
const DOCUMENTS_PER_COMMIT = 100_000;
/**
 * And at most this much document JSON: the pages a transaction changed stay in the writer's
 * page cache until it commits (it never spills them to the file: that would lock this build's
 * reads out until a commit that only the reading thread can ask for).
 */
const JSON_BYTES_PER_COMMIT = 64 * 1024 * 1024;
/**
 * Batches handed to the writer and not yet written, at most: the caller projects ahead while the
 * writer is slower for a while (a commit of `DOCUMENTS_PER_COMMIT` documents takes as long as
 * several batches), within this bound and `JSON_BYTES_IN_FLIGHT` of their documents' JSON.
 */
const BATCHES_IN_FLIGHT = 4;
const JSON_BYTES_IN_FLIGHT = 64 * 1024 * 1024;
/**
 * How the list indexes are sorted when they are made: SQLite's sorter cuts its input into runs as
 * large as the page cache, and with helper threads sorts each run on one of them while the
 * writer reads on; a run as large as the build's cache would hold a million entries, so no
 * helper would ever start (`docs/benchmarks.md`, "Rebuilds").
 */
const INDEX_SORT_THREADS = 2;
const INDEX_SORT_RUN_KIB = 16 * 1024;

/**
 * A read store file that nobody reads yet, built by a full rebuild (`docs/architecture.md`,
 * "Blue/green rebuilds"), written as `SqliteDocumentStore`'s bulk build writes it (journal in
 * memory, no syncs) but by a connection on a thread of its own (`SqliteWriterThread`): a commit
 * is handed to that thread and `commitProjection` returns at once, so SQLite writes on the other
 * core while the caller projects the next batches. Up to `BATCHES_IN_FLIGHT` batches are in
 * flight (the next call waits for the oldest; a failure is the first call's that learns of it, and
 * every later one's). Batches share a SQLite commit until they have written `DOCUMENTS_PER_COMMIT`
 * documents. Reads see every write handed over: those of the batches in flight from memory, the
 * rest from the file through a read-only connection, after a commit of their own when they were
 * written since the last one (the
 * documents a projection reads again several batches later are few in a rebuild: most of its
 * reads are of documents the build never wrote, which it does not read at all).
 * `seal()` commits and ends the build. Only what a build uses is offered: reads by id, checkpoints, puts,
 * list indexes; lists and counts are the sealed file's.
 */
export class SqliteBuildFile implements DocumentStore {
  private readonly writer: SqliteWriterThread;
  private reader: Database.Database | null = null;
  private readonly readById = new Map<string, Database.Statement<[string], { doc: string }>>();
  private readonly tables = new Set<string>();
  private readonly indexes = new Set<string>();
  /** The writes handed to the writer and not yet acknowledged. */
  private inFlight: Promise<void> = Promise.resolve();
  /** The first write that failed: every call from then on fails with it. */
  private failure: Error | null = null;
  /** The batches in flight, oldest first: what each writes, by collection and id (JSON; null: deleted). */
  private readonly batchesInFlight: BatchInFlight[] = [];
  private jsonBytesInFlight = 0;
  /** Whether writes were handed over since the last commit, and the documents they wrote (by `documentKey`). */
  private uncommittedWrites = false;
  private uncommittedDocs = new Set<string>();
  private uncommittedJsonBytes = 0;
  /** The documents of each commit handed over, until it lands. */
  private readonly committing: { docs: ReadonlySet<string>; landed: Promise<void> }[] = [];
  private sealed = false;

  constructor(private readonly path: string) {
    this.writer = new SqliteWriterThread(path, [
      ...BUILD_PRAGMAS,
      `busy_timeout = ${BUSY_TIMEOUT_MS}`,
      'cache_spill = OFF',
    ]);
    void this.write(new WriterTransaction().exec(STORE_TABLES_SQL), false);
  }

  collection<T extends Document = UntypedDocument>(name: string, options?: CollectionOptions): Collection<T> {
    assertCollectionName(name);
    const indexes = listIndexFields(options?.indexes ?? [], options?.scopeAloneListed ?? true)
      .map((fields) => createListIndexSql(name, fields))
      .filter((sql) => !this.indexes.has(sql));
    if (indexes.length > 0) {
      const transaction = this.withTable(new WriterTransaction(), name);
      transaction.exec(`PRAGMA threads = ${INDEX_SORT_THREADS}; PRAGMA cache_size = -${INDEX_SORT_RUN_KIB}`);
      for (const sql of indexes) {
        this.indexes.add(sql);
        transaction.exec(sql);
      }
      transaction.exec(`PRAGMA threads = 0; PRAGMA cache_size = -${BUILD_PAGE_CACHE_KIB}`);
      void this.write(transaction, false);
    }
    return new BuildCollection<T>(this, name);
  }

  async commitProjection(writes: ProjectionWrite[], checkpoints: readonly ProjectionCheckpoint[]): Promise<void> {
    await this.roomInFlight();
    const transaction = new WriterTransaction();
    const docs = new Map<string, string | null>();
    let jsonBytes = 0;
    for (const write of lastWritePerDocument(writes)) {
      this.withTable(transaction, write.collection);
      if (write.op === 'put') {
        const row = rowValues(write.doc, write.position);
        transaction.run(projectionWriteSql(write.collection).put, row);
        const json = row[ROW_JSON] as string;
        jsonBytes += json.length;
        docs.set(documentKey(write.collection, write.doc.id), json);
      } else {
        transaction.run(projectionWriteSql(write.collection).delete, [write.id, write.position]);
        docs.set(documentKey(write.collection, write.id), null);
      }
    }
    for (const checkpoint of checkpoints) transaction.run(MOVE_CHECKPOINT_SQL, [checkpoint.key, checkpoint.position]);
    for (const key of docs.keys()) this.uncommittedDocs.add(key);
    this.uncommittedJsonBytes += jsonBytes;
    const commit =
      this.uncommittedDocs.size >= DOCUMENTS_PER_COMMIT || this.uncommittedJsonBytes >= JSON_BYTES_PER_COMMIT;
    const batch: BatchInFlight = { docs, jsonBytes, written: this.write(transaction, commit) };
    this.batchesInFlight.push(batch);
    this.jsonBytesInFlight += jsonBytes;
    const forget = (): void => {
      this.batchesInFlight.splice(this.batchesInFlight.indexOf(batch), 1);
      this.jsonBytesInFlight -= jsonBytes;
    };
    batch.written.then(forget, forget);
  }

  /** Waits until another batch may be handed over (the oldest in flight written); fails once any write failed. */
  private async roomInFlight(): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      const oldest = this.batchesInFlight[0];
      if (!oldest || (this.batchesInFlight.length < BATCHES_IN_FLIGHT && this.jsonBytesInFlight < JSON_BYTES_IN_FLIGHT))
        return;
      await oldest.written;
    }
  }

  async getCheckpoint(key: string): Promise<number | null> {
    await this.commitNow();
    const row = this.read()
      .prepare<[string], { position: number }>(`SELECT position FROM ${CHECKPOINTS_TABLE} WHERE key = ?`)
      .get(key);
    return row?.position ?? null;
  }

  /** A document as the build holds it: what was handed to the writer counts, committed or not. */
  async get<T extends Document>(collection: string, id: string): Promise<T | null> {
    const key = documentKey(collection, id);
    // The newest write handed over is the one that counts.
    for (let index = this.batchesInFlight.length - 1; index >= 0; index--) {
      const handed = this.batchesInFlight[index]!.docs.get(key);
      if (handed !== undefined) return handed === null ? null : (JSON.parse(handed) as T);
    }
    if (this.failure) throw this.failure;
    if (!this.tables.has(collection)) return null;
    if (this.uncommittedDocs.has(key)) await this.commitNow();
    else {
      const commit = this.committing.find((candidate) => candidate.docs.has(key));
      if (commit) await commit.landed;
    }
    let statement = this.readById.get(collection);
    if (!statement) {
      // The table may have been created since the last commit.
      await this.commitNow();
      statement = this.read().prepare<[string], { doc: string }>(`SELECT doc FROM ${quote(collection)} WHERE id = ?`);
      this.readById.set(collection, statement);
    }
    const row = statement.get(id);
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  async put(collection: string, doc: Document): Promise<void> {
    const transaction = this.withTable(new WriterTransaction(), collection).run(
      putSql(collection),
      rowValues(doc, null),
    );
    this.uncommittedDocs.add(documentKey(collection, doc.id));
    await this.write(transaction, false);
  }

  async dropCollection(): Promise<void> {
    throw new Error('A read store file being built drops nothing');
  }

  async listCollections(prefix = ''): Promise<string[]> {
    await this.inFlight;
    return [...this.tables].filter((name) => name.startsWith(prefix)).sort();
  }

  /** Stops without sealing (nothing to do once sealed): the file stays unfinished (what was not committed is not in it), and the next full rebuild deletes it. */
  async close(): Promise<void> {
    if (this.sealed) return;
    await this.inFlight.catch(() => {});
    this.reader?.close();
    this.reader = null;
    await this.writer.close();
  }

  /**
   * Ends the build once every write is committed: closes both connections, makes the file an
   * ordinary WAL database and syncs it, once. Fails if any write failed.
   */
  async seal(): Promise<void> {
    await this.commitNow();
    this.reader?.close();
    this.reader = null;
    await this.writer.close();
    this.sealed = true;
    sealBuiltFile(this.path);
  }

  /** Commits every write handed over, once they have run. */
  private async commitNow(): Promise<void> {
    if (this.uncommittedWrites) await this.write(new WriterTransaction(), true);
    await this.inFlight;
  }

  /**
   * Hands writes to the writer after every one before it (the build's next commit waits for
   * them); with `commit`, those since the last commit are then committed.
   */
  private write(transaction: WriterTransaction, commit: boolean): Promise<void> {
    const written = this.writer.write(transaction.statements, transaction.steps, commit);
    this.uncommittedWrites = !commit;
    if (commit) {
      const landing = { docs: this.uncommittedDocs, landed: written };
      this.committing.push(landing);
      const landed = (): void => void this.committing.splice(this.committing.indexOf(landing), 1);
      written.then(landed, landed);
      this.uncommittedDocs = new Set();
      this.uncommittedJsonBytes = 0;
    }
    this.inFlight = Promise.all([this.inFlight, written]).then(() => {});
    // Observed by the next commit, read or seal (and by whoever awaits `written`): a failure is reported there.
    this.inFlight.catch(() => {});
    written.catch((error: unknown) => {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    });
    return written;
  }

  /** Adds the creation of `collection`'s table, the first time the build writes to it. */
  private withTable(transaction: WriterTransaction, collection: string): WriterTransaction {
    if (!this.tables.has(collection)) {
      this.tables.add(collection);
      transaction.exec(createTableSql(collection));
    }
    return transaction;
  }

  private read(): Database.Database {
    if (!this.reader) {
      this.reader = new Database(this.path, { readonly: true, fileMustExist: true });
      this.reader.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
    return this.reader;
  }
}

/** A collection of a build: reads by id and puts (projection states); everything else is the sealed file's. */
class BuildCollection<T extends Document> implements Collection<T> {
  constructor(
    private readonly file: SqliteBuildFile,
    readonly name: string,
  ) {}

  get(id: string): Promise<T | null> {
    return this.file.get<T>(this.name, id);
  }

  put(doc: T): Promise<void> {
    return this.file.put(this.name, doc);
  }

  getMany(): Promise<T[]> {
    return unavailable('getMany');
  }

  list(): never {
    return unavailable('list');
  }

  insert(): Promise<boolean> {
    return unavailable('insert');
  }

  delete(): Promise<boolean> {
    return unavailable('delete');
  }

  count(): Promise<number> {
    return unavailable('count');
  }
}

function unavailable(operation: string): never {
  throw new Error(`${operation} is not offered while a read store file is built: seal it and open it`);
}

/** A batch handed to the writer: what it writes, by `documentKey` (JSON; null: deleted), until it is written. */
interface BatchInFlight {
  docs: ReadonlyMap<string, string | null>;
  jsonBytes: number;
  written: Promise<void>;
}

/** Where `rowValues` puts the document's JSON. */
const ROW_JSON = 5;

const documentKey = (collection: string, id: string): string => `${collection}\u0000${id}`;
