import Database from 'better-sqlite3';
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { FALLBACK_CHECKPOINT_PAGES } from '../sqlite/background-wal-checkpoints.ts';
import { limitLiteral } from '../sqlite/limited-statement.ts';
import { assertFieldName, listIndexFields, SCOPE_FIELDS } from './list-indexes.ts';
import {
  CursorNotFoundError,
  type Collection,
  type CollectionOptions,
  type CreatedRange,
  type Document,
  type UntypedDocument,
  type DocumentStore,
  type FieldValue,
  type ListPage,
  type ListQuery,
  type ProjectionCheckpoint,
  type ProjectionWrite,
} from './document-store.ts';

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
/** A build nobody reads yet: the whole working set of its id indexes stays in memory. */
const BUILD_PAGE_CACHE_KIB = 256_000;
/** Expired documents are invisible at once; deleting them can wait. */
const PURGE_INTERVAL_MS = 60_000;
/** Documents without `_seq` sort below every sequenced one, as a missing field does in MongoDB. */
const MISSING_SEQ = Number.MIN_SAFE_INTEGER;
const CHECKPOINTS_TABLE = '_checkpoints';
/** The file that replaced this one, written once by the process that switched (`SqliteReadFiles`). */
const SUCCESSOR_TABLE = '_successor';
const INTERNAL_TABLES = new Set([CHECKPOINTS_TABLE, SUCCESSOR_TABLE]);

/** Documents not expired; binds the current time in ms. */
const LIVE = '(expires_at IS NULL OR expires_at >= ?)';
const SORT_KEY_DESC = 'created DESC, seq DESC, id DESC';
const SORT_KEY_ASC = 'created ASC, seq ASC, id ASC';
/** The columns a put replaces; `pos` is set by each kind of write. */
const REPLACE_COLUMNS =
  'created = excluded.created, seq = excluded.seq, expires_at = excluded.expires_at, doc = excluded.doc';
const UPSERT_INTO = (table: string): string =>
  `INSERT INTO ${table} (id, created, seq, pos, expires_at, doc) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE`;
const CREATED_OPERATORS = [
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
] as const;

const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

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
      this.db.pragma('journal_mode = MEMORY');
      this.db.pragma('synchronous = OFF');
      this.db.pragma(`cache_size = -${BUILD_PAGE_CACHE_KIB}`);
    } else {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${synchronous}`);
      this.db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    }
    this.checkpointPages = options.backgroundCheckpoints ? FALLBACK_CHECKPOINT_PAGES : DEFAULT_CHECKPOINT_PAGES;
    this.db.pragma(`wal_autocheckpoint = ${this.checkpointPages}`);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${CHECKPOINTS_TABLE} (key TEXT PRIMARY KEY, position INTEGER NOT NULL)`);
    // max(): a checkpoint never moves backwards, even when an older batch is replayed.
    this.moveCheckpoint = this.db.prepare(
      `INSERT INTO ${CHECKPOINTS_TABLE} (key, position) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET position = max(position, excluded.position)`,
    );
    this.readCheckpoint = this.db.prepare(`SELECT position FROM ${CHECKPOINTS_TABLE} WHERE key = ?`);
    this.tableNames = this.db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${SUCCESSOR_TABLE} (file TEXT NOT NULL)`);
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
    // IMMEDIATE takes the write lock up front, so busy_timeout applies instead of a failed lock upgrade.
    this.applyBatch.immediate(writes, checkpoints);
  }

  bulkWrites(enabled: boolean): void {
    this.db.pragma(`cache_size = -${enabled ? BULK_PAGE_CACHE_KIB : PAGE_CACHE_KIB}`);
    // Pages between automatic checkpoints: each one copies the WAL into the file and syncs it.
    this.db.pragma(
      `wal_autocheckpoint = ${enabled ? Math.max(BULK_CHECKPOINT_PAGES, this.checkpointPages) : this.checkpointPages}`,
    );
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
    this.db.close();
  }

  /**
   * Ends a bulk build: closes it, makes the file an ordinary WAL database (as serving processes
   * open it) and syncs it to disk, once.
   */
  async seal(): Promise<void> {
    this.db.close();
    const db = new Database(this.filePath);
    db.pragma('journal_mode = WAL');
    db.close();
    const fd = openSync(this.filePath, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

interface CursorRow {
  created: number;
  seq: number;
  doc: string;
}

/** A collection's table, its indexes and its prepared statements (one per distinct SQL text). */
export class SqliteCollection<T extends Document> implements Collection<T> {
  private readonly statements = new Map<string, Database.Statement<unknown[]>>();
  /** The statements of every read by id and every projection write, kept at hand. */
  private getById: Database.Statement<unknown[]> | undefined;
  private projectionPut: Database.Statement<unknown[]> | undefined;
  private projectionDelete: Database.Statement<unknown[]> | undefined;
  /** Index name suffix to indexed fields. */
  private readonly declaredIndexes = new Map<string, string[]>();
  private readonly createdIndexes = new Set<string>();
  private tableReady = false;
  private readonly seenDeclarations = new WeakSet<string[]>();
  private sortIndexReady = false;
  private lastPurge = 0;

  constructor(
    private readonly db: Database.Database,
    readonly name: string,
  ) {
    assertCollectionName(name);
  }

  async get(id: string): Promise<T | null> {
    this.getById ??= this.prepared(`SELECT doc FROM ${this.table} WHERE id = ? AND ${LIVE}`);
    const row = this.getById.get(id, Date.now()) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  async getMany(ids: string[]): Promise<T[]> {
    const rows = this.prepared(
      `SELECT doc FROM ${this.table} WHERE id IN (SELECT value FROM json_each(?)) AND ${LIVE}`,
    ).all(JSON.stringify(ids), Date.now()) as { doc: string }[];
    return rows.map((row) => JSON.parse(row.doc) as T);
  }

  /**
   * A filter's JSON types are checked on the parsed documents rather than by SQLite (`json_type`
   * parses each row's document once more per field); should a row's field hold another type of
   * the same value (`1` for `true`, an object for its JSON text), the page is read again with the
   * types checked in SQL, so the page and `hasMore` are always those of the exact filter.
   */
  async list(query: ListQuery): Promise<ListPage<T>> {
    const quick = this.listSelect(query, false);
    let docs = (this.prepared(quick.sql).all(...quick.params) as { doc: string }[]).map(
      (row) => JSON.parse(row.doc) as T,
    );
    if (!docs.every((doc) => hasFilterTypes(doc, query.filter ?? {}))) {
      const exact = this.listSelect(query, true);
      docs = (this.prepared(exact.sql).all(...exact.params) as { doc: string }[]).map(
        (row) => JSON.parse(row.doc) as T,
      );
    }
    const page = docs.slice(0, query.limit);
    return { list: quick.newerThanCursor ? page.reverse() : page, hasMore: docs.length > query.limit };
  }

  /** Diagnostics: SQLite's plan for a list query, to check that it is served by an index. */
  queryPlan(query: ListQuery): string[] {
    const { sql, params } = this.listSelect(query, false);
    const plan = this.prepared(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    return plan.map((step) => step.detail);
  }

  async insert(doc: T): Promise<boolean> {
    const now = Date.now();
    this.purgeExpiredNowAndThen(now);
    const result = this.prepared(
      `${UPSERT_INTO(this.table)} SET ${REPLACE_COLUMNS}, pos = NULL WHERE expires_at < ?`,
    ).run(...rowValues(doc, null), now);
    return result.changes > 0;
  }

  async put(doc: T): Promise<void> {
    this.purgeExpiredNowAndThen(Date.now());
    this.prepared(`${UPSERT_INTO(this.table)} SET ${REPLACE_COLUMNS}, pos = NULL`).run(...rowValues(doc, null));
  }

  async delete(id: string): Promise<boolean> {
    return this.prepared(`DELETE FROM ${this.table} WHERE id = ? AND ${LIVE}`).run(id, Date.now()).changes > 0;
  }

  async count(filter: Record<string, FieldValue> = {}): Promise<number> {
    const equality = equalityClauses(filter);
    const row = this.prepared(
      `SELECT count(*) AS n FROM ${this.table} WHERE ${[LIVE, ...equality.sql].join(' AND ')}`,
    ).get(Date.now(), ...equality.params) as { n: number };
    return row.n;
  }

  /**
   * Projection put: skipped when the stored document comes from a later event. Equal positions
   * apply, so that several writes caused by one event land in batch order.
   */
  applyPut(doc: Document, position: number): void {
    this.projectionPut ??= this.prepared(
      `${UPSERT_INTO(this.table)} SET ${REPLACE_COLUMNS}, pos = excluded.pos WHERE pos IS NULL OR pos <= excluded.pos`,
    );
    this.projectionPut.run(
      doc.id,
      doc.created,
      doc._seq ?? MISSING_SEQ,
      position,
      doc._expiresAt ?? null,
      JSON.stringify(doc),
    );
  }

  /** Projection delete, guarded like applyPut. */
  applyDelete(id: string, position: number): void {
    this.projectionDelete ??= this.prepared(`DELETE FROM ${this.table} WHERE id = ? AND (pos IS NULL OR pos <= ?)`);
    this.projectionDelete.run(id, position);
  }

  declareIndexes(fields: string[], scopeAloneListed = true): void {
    // Readers declare their collection's same list on every lookup: once is enough.
    if (fields.length === 0 || this.seenDeclarations.has(fields)) return;
    this.seenDeclarations.add(fields);
    for (const columns of listIndexFields(fields, scopeAloneListed))
      this.declaredIndexes.set(columns.join(','), columns);
    if (this.tableReady) this.createIndexes();
  }

  /** The table was dropped: recreate it (with the declared indexes) on next use. */
  forgetTable(): void {
    this.tableReady = false;
    this.sortIndexReady = false;
    this.createdIndexes.clear();
    this.statements.clear();
    this.getById = this.projectionPut = this.projectionDelete = undefined;
  }

  private get table(): string {
    return quote(this.name);
  }

  private prepared(sql: string): Database.Statement<unknown[]> {
    if (!this.tableReady) this.createTable();
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private createTable(): void {
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS ${this.table} (
        id TEXT PRIMARY KEY,
        created INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        pos INTEGER,
        expires_at INTEGER,
        doc TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${quote(`${this.name} by expires_at`)} ON ${this.table} (expires_at) WHERE expires_at IS NOT NULL;
    `);
    this.tableReady = true;
    this.createIndexes();
  }

  /** Equality fields first, then the sort key, so a filtered page is one index range scan. */
  private createIndexes(): void {
    for (const [key, fields] of this.declaredIndexes) {
      if (this.createdIndexes.has(key)) continue;
      const columns = [...fields.map(jsonField), SORT_KEY_DESC].join(', ');
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${quote(`${this.name} by ${key}`)} ON ${this.table} (${columns})`);
      this.createdIndexes.add(key);
    }
  }

  /**
   * The index on the sort key alone, for lists that no declared index serves (unscoped lists of
   * internal collections, operators' queries). Made on the first such list rather than with the
   * table: collections only ever read by id or listed per tenant (most of them) are spared one
   * index write per document change.
   */
  private ensureSortIndex(filter: Record<string, FieldValue>): void {
    if (this.sortIndexReady) return;
    const served = [...this.declaredIndexes.values()].some((fields) => fields.every((field) => field in filter));
    if (served) return;
    if (!this.tableReady) this.createTable();
    this.db.exec(`CREATE INDEX IF NOT EXISTS ${quote(`${this.name} by created`)} ON ${this.table} (${SORT_KEY_DESC})`);
    this.sortIndexReady = true;
  }

  private listSelect(
    query: ListQuery,
    typesChecked: boolean,
  ): { sql: string; params: unknown[]; newerThanCursor: boolean } {
    const filter = query.filter ?? {};
    this.ensureSortIndex(filter);
    const equality = equalityClauses(filter, typesChecked);
    const where = [LIVE, ...equality.sql];
    const params: unknown[] = [Date.now(), ...equality.params];

    const newerThanCursor = query.startingAfterId === undefined && query.endingBeforeId !== undefined;
    const cursor =
      query.startingAfterId !== undefined
        ? this.cursorRow('startingAfterId', query.startingAfterId, filter)
        : query.endingBeforeId !== undefined
          ? this.cursorRow('endingBeforeId', query.endingBeforeId, filter)
          : undefined;
    if (cursor) {
      where.push(`(created, seq, id) ${newerThanCursor ? '>' : '<'} (?, ?, ?)`);
      params.push(cursor.created, cursor.seq, cursor.id);
    }

    const range = query.created ?? {};
    for (const [operator, sqlOperator] of CREATED_OPERATORS) {
      const bound = range[operator];
      // A bound the cursor already implies is left out: SQLite seeks on one lower bound only,
      // and it should be the cursor.
      if (bound === undefined || (cursor && impliedByCursor(operator, bound, cursor.created, newerThanCursor)))
        continue;
      where.push(`created ${sqlOperator} ?`);
      params.push(bound);
    }

    // Newer-than-cursor pages are read oldest first (nearest the cursor), then reversed by list().
    const order = newerThanCursor ? SORT_KEY_ASC : SORT_KEY_DESC;
    // The limit is written into the SQL (see limited-statement.ts): one statement per page size.
    return {
      sql: `SELECT doc FROM ${this.table} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${limitLiteral(query.limit + 1)}`,
      params,
      newerThanCursor,
    };
  }

  private cursorRow(
    parameter: 'startingAfterId' | 'endingBeforeId',
    id: string,
    filter: Record<string, FieldValue>,
  ): { created: number; seq: number; id: string } {
    const row = this.prepared(`SELECT created, seq, doc FROM ${this.table} WHERE id = ? AND ${LIVE}`).get(
      id,
      Date.now(),
    ) as CursorRow | undefined;
    if (!row) throw new CursorNotFoundError(parameter, id);
    const doc = JSON.parse(row.doc) as UntypedDocument;
    for (const field of SCOPE_FIELDS) {
      if (field in filter && (doc[field] ?? null) !== filter[field]) throw new CursorNotFoundError(parameter, id);
    }
    return { created: row.created, seq: row.seq, id };
  }

  private purgeExpiredNowAndThen(now: number): void {
    if (now - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now;
    this.prepared(`DELETE FROM ${this.table} WHERE expires_at < ?`).run(now);
  }
}

/** Whether every document beyond a cursor at `cursorCreated` satisfies `created <operator> bound`. */
function impliedByCursor(
  operator: keyof CreatedRange,
  bound: number,
  cursorCreated: number,
  newerThanCursor: boolean,
): boolean {
  if (newerThanCursor)
    return (operator === 'gt' && cursorCreated > bound) || (operator === 'gte' && cursorCreated >= bound);
  return (operator === 'lt' && cursorCreated < bound) || (operator === 'lte' && cursorCreated <= bound);
}

/**
 * The last write of each document, in batch order: a document changed by several events of a batch
 * is written once. Positions never decrease within a batch, so the last write is the one that counts.
 */
function lastWritePerDocument(writes: ProjectionWrite[]): ProjectionWrite[] {
  const last = new Map<string, ProjectionWrite>();
  for (const write of writes) {
    const key = `${write.collection}\u0000${write.op === 'put' ? write.doc.id : write.id}`;
    last.delete(key);
    last.set(key, write);
  }
  return [...last.values()];
}

function rowValues(doc: Document, position: number | null): unknown[] {
  return [doc.id, doc.created, doc._seq ?? MISSING_SEQ, position, doc._expiresAt ?? null, JSON.stringify(doc)];
}

const jsonField = (field: string): string => `json_extract(doc, '$.${field}')`;

/**
 * SQL for equality on each field; the json_extract term is what the index serves. json_extract
 * gives SQL values (true is 1, "1" is text, an object its JSON text), so `typesChecked` adds a
 * `json_type` condition per field: `false` then matches only stored false, never 0. Without it,
 * the caller checks the types itself.
 */
function equalityClauses(
  filter: Record<string, FieldValue>,
  typesChecked = true,
): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const [field, value] of Object.entries(filter)) {
    assertFieldName(field);
    const extracted = jsonField(field);
    const type = `json_type(doc, '$.${field}')`;
    const typed = (condition: string): string => (typesChecked ? ` AND ${type} ${condition}` : '');
    if (value === null) {
      sql.push(`${extracted} IS NULL`);
    } else if (typeof value === 'boolean') {
      sql.push(`${extracted} = ?${typed(`= '${String(value)}'`)}`);
      params.push(value ? 1 : 0);
    } else if (typeof value === 'number') {
      sql.push(`${extracted} = ?${typed("IN ('integer', 'real')")}`);
      params.push(value);
    } else if (typeof value === 'string') {
      sql.push(`${extracted} = ?${typed("= 'text'")}`);
      params.push(value);
    } else {
      throw new TypeError(`Unsupported filter value for ${field}: ${typeof value}`);
    }
  }
  return { sql, params };
}

/** Whether each filtered field of a document has the JSON type of the filter's value (null: any). */
function hasFilterTypes(doc: Document, filter: Record<string, FieldValue>): boolean {
  for (const [field, value] of Object.entries(filter)) {
    if (value !== null && typeof (doc as UntypedDocument)[field] !== typeof value) return false;
  }
  return true;
}

const quote = (identifier: string): string => `"${identifier}"`;

function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name) || INTERNAL_TABLES.has(name) || name.startsWith('sqlite_')) {
    throw new TypeError(`Invalid collection name: ${name}`);
  }
}
