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
import { BuildTableRead, buildTableOperations, BuildTableWrite } from './build-table-rows.ts';
import { listIndexFields } from './list-indexes.ts';
import {
  assertCollectionName,
  CHECKPOINTS_TABLE,
  createBuildTableSql,
  createIdIndexSql,
  createListIndexSql,
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

/**
 * Document writes between two commits. Every commit writes each page it changed, and the pages of
 * documents changed again lie all over the tables: committing every batch would write many of
 * them again each time (`docs/benchmarks.md`, "Rebuilds").
 */
const DOCUMENTS_PER_COMMIT = 100_000;
/** And at most this much document JSON: the pages a transaction changed stay in the writer's page cache until it commits. */
const JSON_BYTES_PER_COMMIT = 64 * 1024 * 1024;
/**
 * Batches handed to the writer and not yet written, at most: the caller projects ahead while the
 * writer is slower for a while (a commit of `DOCUMENTS_PER_COMMIT` documents takes as long as
 * several batches), within this bound and `JSON_BYTES_IN_FLIGHT` of their documents' JSON.
 */
const BATCHES_IN_FLIGHT = 4;
const JSON_BYTES_IN_FLIGHT = 64 * 1024 * 1024;
/**
 * How the list indexes and the ids' unique indexes are sorted when they are made, at the end:
 * SQLite's sorter cuts its input into runs as large as the page cache, and with helper threads
 * sorts each run on one of them while the writer reads on; a run as large as the build's cache
 * would hold a million entries, so no helper would ever start (`docs/benchmarks.md`, "Rebuilds").
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
 * documents. Each table's rows are appended in the order documents are first written and found by
 * id through the writer thread's `RowsById` (`build-table-rows.ts`), with no index of the ids in
 * the file until `seal()` makes their unique one. Reads see every write handed over: those of the
 * batches in flight from memory, the rest from the writer thread's connection (its open
 * transaction too), which answers between two writes (every write of such a document has run).
 * `seal()` commits and ends the build. Only what a build uses is offered: reads by id, checkpoints, puts,
 * list indexes; lists and counts are the sealed file's.
 */
export class SqliteBuildFile implements DocumentStore {
  private readonly writer: SqliteWriterThread;
  /** Each table's number in the writer thread, by collection. */
  private readonly tables = new Map<string, number>();
  /** The list-index fields of each planned collection (`plannedCollections`): its table keeps them as columns. */
  private readonly plannedFields = new Map<string, string[]>();
  /** The fields each table was made with as columns. */
  private readonly fieldColumns = new Map<string, ReadonlySet<string>>();
  private readonly indexes = new Set<string>();
  /** The writes handed to the writer and not yet acknowledged. */
  private inFlight: Promise<void> = Promise.resolve();
  /** The first write that failed: every call from then on fails with it. */
  private failure: Error | null = null;
  /** The batches in flight, oldest first: what each writes, by collection and id (JSON; null: deleted). */
  private readonly batchesInFlight: BatchInFlight[] = [];
  private jsonBytesInFlight = 0;
  /** Whether writes were handed over since the last commit, and how many documents and how much JSON they wrote. */
  private uncommittedWrites = false;
  private uncommittedDocs = 0;
  private uncommittedJsonBytes = 0;
  private sealed = false;

  /** `options.idHash`: the source of another hash of the ids for the writer thread's `RowsById` (tests make ids collide with it). */
  constructor(
    private readonly path: string,
    options: { idHash?: string } = {},
  ) {
    this.writer = new SqliteWriterThread(path, [...BUILD_PRAGMAS, 'cache_spill = OFF'], {
      operations: buildTableOperations(CHECKPOINTS_TABLE, options.idHash),
    });
    void this.write(new WriterTransaction().exec(STORE_TABLES_SQL), false);
  }

  /**
   * Each planned collection's table keeps the fields of its list indexes as stored columns,
   * generated from the document as each row is written: the index builds at the end then read
   * those columns instead of parsing every row's JSON once per index, and that parsing moves to
   * the writer thread while the caller projects (`docs/benchmarks.md`, "Rebuilds").
   */
  plannedCollections(collections: ReadonlyMap<string, CollectionOptions>): void {
    for (const [name, options] of collections) {
      assertCollectionName(name);
      const fields = new Set(listIndexFields(options.indexes ?? [], options.scopeAloneListed ?? true).flat());
      if (fields.size > 0) this.plannedFields.set(name, [...fields]);
    }
  }

  collection<T extends Document = UntypedDocument>(name: string, options?: CollectionOptions): Collection<T> {
    assertCollectionName(name);
    const declared = listIndexFields(options?.indexes ?? [], options?.scopeAloneListed ?? true);
    if (declared.length > 0) {
      const transaction = new WriterTransaction();
      this.table(transaction, name);
      const fieldColumns = this.fieldColumns.get(name);
      const indexes = declared
        .map((fields) => createListIndexSql(name, fields, fieldColumns))
        .filter((sql) => !this.indexes.has(sql));
      transaction.exec(sortingIndexes(true));
      for (const sql of indexes) {
        this.indexes.add(sql);
        transaction.exec(sql);
      }
      transaction.exec(sortingIndexes(false));
      void this.write(transaction, false);
    }
    return new BuildCollection<T>(this, name);
  }

  async commitProjection(writes: ProjectionWrite[], checkpoints: readonly ProjectionCheckpoint[]): Promise<void> {
    await this.roomInFlight();
    const transaction = new WriterTransaction();
    const written = lastWritePerDocument(writes);
    const json: (string | null)[] = [];
    let jsonBytes = 0;
    for (const write of written) {
      const table = this.table(transaction, write.collection);
      if (write.op === 'put') {
        const row = rowValues(write.doc, write.position);
        transaction.callOnRow(BuildTableWrite.put, table, 1, row);
        const text = row[ROW_JSON] as string;
        jsonBytes += text.length;
        json.push(text);
      } else {
        transaction.call(BuildTableWrite.delete, [table, write.id, write.position]);
        json.push(null);
      }
    }
    for (const checkpoint of checkpoints) transaction.run(MOVE_CHECKPOINT_SQL, [checkpoint.key, checkpoint.position]);
    void this.handOver(transaction, written, json, jsonBytes);
  }

  /** Hands a batch's writes over, its documents readable from memory until they are written. */
  private handOver(
    transaction: WriterTransaction,
    writes: readonly ProjectionWrite[],
    json: readonly (string | null)[],
    jsonBytes: number,
  ): Promise<void> {
    this.uncommittedDocs += writes.length;
    this.uncommittedJsonBytes += jsonBytes;
    const commit = this.uncommittedDocs >= DOCUMENTS_PER_COMMIT || this.uncommittedJsonBytes >= JSON_BYTES_PER_COMMIT;
    const batch: BatchInFlight = {
      // Their collections and ids only: the documents themselves need not stay alive until the batch is written.
      collections: writes.map((write) => write.collection),
      ids: writes.map((write) => (write.op === 'put' ? write.doc.id : write.id)),
      json,
      docs: null,
      jsonBytes,
      written: this.write(transaction, commit),
    };
    this.batchesInFlight.push(batch);
    this.jsonBytesInFlight += jsonBytes;
    const forget = (): void => {
      this.batchesInFlight.splice(this.batchesInFlight.indexOf(batch), 1);
      this.jsonBytesInFlight -= jsonBytes;
    };
    batch.written.then(forget, forget);
    return batch.written;
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
    await this.inFlight;
    return (await this.writer.read(BuildTableRead.checkpoint, [key])) as number | null;
  }

  /** A document as the build holds it: what was handed to the writer counts, committed or not. */
  async get<T extends Document>(collection: string, id: string): Promise<T | null> {
    // The newest write handed over is the one that counts.
    for (let index = this.batchesInFlight.length - 1; index >= 0; index--) {
      const handed = documentsOf(this.batchesInFlight[index]!).get(collection)?.get(id);
      if (handed !== undefined) return handed === null ? null : (JSON.parse(handed) as T);
    }
    if (this.failure) throw this.failure;
    const table = this.tables.get(collection);
    if (table === undefined) return null;
    // Every write of it has run: the writer may answer before the batches still queued.
    const json = (await this.writer.read(BuildTableRead.document, [table, id])) as string | null;
    return json === null ? null : (JSON.parse(json) as T);
  }

  async put(collection: string, doc: Document): Promise<void> {
    const transaction = new WriterTransaction();
    const row = rowValues(doc, null);
    transaction.callOnRow(BuildTableWrite.put, this.table(transaction, collection), 0, row);
    const json = row[ROW_JSON] as string;
    await this.handOver(transaction, [{ collection, op: 'put', doc, position: 0 }], [json], json.length);
  }

  async dropCollection(): Promise<void> {
    throw new Error('A read store file being built drops nothing');
  }

  async listCollections(prefix = ''): Promise<string[]> {
    await this.inFlight;
    return [...this.tables.keys()].filter((name) => name.startsWith(prefix)).sort();
  }

  /** Stops without sealing (nothing to do once sealed): the file stays unfinished (what was not committed is not in it), and the next full rebuild deletes it. */
  async close(): Promise<void> {
    if (this.sealed) return;
    await this.inFlight.catch(() => {});
    await this.writer.close();
  }

  /**
   * Ends the build once every write is committed: makes each table's unique index of its ids,
   * closes the connection, makes the file an ordinary WAL database and syncs it, once. Fails if
   * any write failed.
   */
  async seal(): Promise<void> {
    const idIndexes = new WriterTransaction().exec(sortingIndexes(true));
    for (const collection of this.tables.keys()) idIndexes.exec(createIdIndexSql(collection));
    void this.write(idIndexes.exec(sortingIndexes(false)), false);
    await this.commitNow();
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
      this.uncommittedDocs = 0;
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

  /** `collection`'s table number in the writer thread; its creation added to `transaction` the first time the build writes to it. */
  private table(transaction: WriterTransaction, collection: string): number {
    let table = this.tables.get(collection);
    if (table === undefined) {
      table = this.tables.size;
      this.tables.set(collection, table);
      const fields = this.plannedFields.get(collection) ?? [];
      this.fieldColumns.set(collection, new Set(fields));
      transaction.exec(createBuildTableSql(collection, fields)).call(BuildTableWrite.table, [table, collection]);
    }
    return table;
  }
}

/** The settings index builds run with (`INDEX_SORT_THREADS`), and the build's own after them. */
const sortingIndexes = (on: boolean): string =>
  on
    ? `PRAGMA threads = ${INDEX_SORT_THREADS}; PRAGMA cache_size = -${INDEX_SORT_RUN_KIB}`
    : `PRAGMA threads = 0; PRAGMA cache_size = -${BUILD_PAGE_CACHE_KIB}`;

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

/** A batch handed to the writer, until it is written: the collection and id of each document it writes, and its JSON (null: deleted). */
interface BatchInFlight {
  collections: readonly string[];
  ids: readonly string[];
  json: readonly (string | null)[];
  /** The JSON by collection and id, made when a read first asks (reads of a batch in flight are few). */
  docs: Map<string, Map<string, string | null>> | null;
  jsonBytes: number;
  written: Promise<void>;
}

function documentsOf(batch: BatchInFlight): Map<string, Map<string, string | null>> {
  if (!batch.docs) {
    batch.docs = new Map();
    for (let index = 0; index < batch.ids.length; index++) {
      let byId = batch.docs.get(batch.collections[index]!);
      if (!byId) batch.docs.set(batch.collections[index]!, (byId = new Map()));
      byId.set(batch.ids[index]!, batch.json[index]!);
    }
  }
  return batch.docs;
}

/** Where `rowValues` puts the document's JSON. */
const ROW_JSON = 5;
