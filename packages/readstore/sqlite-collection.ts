import type Database from 'better-sqlite3';
import { limitLiteral } from '../sqlite/limited-statement.ts';
import { assertFieldName, listIndexFields, SCOPE_FIELDS } from './list-indexes.ts';
import {
  CursorNotFoundError,
  type Collection,
  type CreatedRange,
  type Document,
  type UntypedDocument,
  type FieldValue,
  type ListPage,
  type ListQuery,
} from './document-store.ts';

/** Expired documents are invisible at once; deleting them can wait. */
const PURGE_INTERVAL_MS = 60_000;
/** Documents without `_seq` sort below every sequenced one, as a missing field does in MongoDB. */
const MISSING_SEQ = Number.MIN_SAFE_INTEGER;
/** The table of projection checkpoints, kept in the same file as the collections; no collection may take its name. */
export const CHECKPOINTS_TABLE = '_checkpoints';
/** The file that replaced this one, written once by the process that switched (`SqliteReadFiles`). */
export const SUCCESSOR_TABLE = '_successor';
/** The store's own tables: no collection may take their names. */
export const INTERNAL_TABLES = new Set([CHECKPOINTS_TABLE, SUCCESSOR_TABLE]);

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
  private getWithSuccessorById: Database.Statement<unknown[]> | undefined;
  private projectionPut: Database.Statement<unknown[]> | undefined;
  private projectionDelete: Database.Statement<unknown[]> | undefined;
  /** Index name suffix to indexed fields. */
  private readonly declaredIndexes = new Map<string, string[]>();
  private readonly createdIndexes = new Set<string>();
  private tableReady = false;
  /** The fields the table keeps as columns of their own (`fieldColumnsOf`), read when the table is made ready. */
  private fieldColumns: ReadonlySet<string> = NO_FIELD_COLUMNS;
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

  /**
   * The document by id and, read by the same statement (from the same snapshot of the file), the
   * file that replaced this one (`SqliteReadFiles.documentById`): null while this one serves,
   * undefined when no document was found (the statement then read no row, nor the successor).
   */
  getWithSuccessor(id: string): { doc: T | null; successor: string | null | undefined } {
    this.getWithSuccessorById ??= this.prepared(
      `SELECT doc, (SELECT file FROM ${SUCCESSOR_TABLE} LIMIT 1) AS successor FROM ${this.table} WHERE id = ? AND ${LIVE}`,
    );
    const row = this.getWithSuccessorById.get(id, Date.now()) as { doc: string; successor: string | null } | undefined;
    return row ? { doc: JSON.parse(row.doc) as T, successor: row.successor } : { doc: null, successor: undefined };
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
    this.prepared(putSql(this.name)).run(...rowValues(doc, null));
  }

  async delete(id: string): Promise<boolean> {
    return this.prepared(`DELETE FROM ${this.table} WHERE id = ? AND ${LIVE}`).run(id, Date.now()).changes > 0;
  }

  async count(filter: Record<string, FieldValue> = {}): Promise<number> {
    const equality = equalityClauses(filter, true, this.readyFieldColumns());
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
    this.projectionPut ??= this.prepared(projectionPutSql(this.name));
    this.projectionPut.run(...rowValues(doc, position));
  }

  /** Projection delete, guarded like applyPut. */
  applyDelete(id: string, position: number): void {
    this.projectionDelete ??= this.prepared(projectionDeleteSql(this.name));
    this.projectionDelete.run(id, position);
  }

  /**
   * The SQL of its projection writes for a connection on another thread (`SqliteWriterThread`),
   * its table made first by this one: schema changes stay on this connection.
   */
  projectionWriteSql(): ProjectionWriteSql {
    if (!this.tableReady) this.createTable();
    return projectionWriteSql(this.name);
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
    this.fieldColumns = NO_FIELD_COLUMNS;
    this.sortIndexReady = false;
    this.createdIndexes.clear();
    this.statements.clear();
    this.getById = this.getWithSuccessorById = this.projectionPut = this.projectionDelete = undefined;
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

  /** The fields the table keeps as columns, read from it: the table is made ready first. */
  private readyFieldColumns(): ReadonlySet<string> {
    if (!this.tableReady) this.createTable();
    return this.fieldColumns;
  }

  private createTable(): void {
    this.db.exec(createTableSql(this.name));
    this.fieldColumns = fieldColumnsOf(this.db, this.name);
    this.tableReady = true;
    this.createIndexes();
  }

  private createIndexes(): void {
    for (const [key, fields] of this.declaredIndexes) {
      if (this.createdIndexes.has(key)) continue;
      this.db.exec(createListIndexSql(this.name, fields, this.fieldColumns));
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
    const equality = equalityClauses(filter, typesChecked, this.readyFieldColumns());
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

/** The SQL of a collection's table (with its expiry index), made if it does not exist. */
export function createTableSql(collection: string): string {
  const table = quote(collection);
  return `
    CREATE TABLE IF NOT EXISTS ${table} (
      id TEXT PRIMARY KEY,
      created INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      pos INTEGER,
      expires_at INTEGER,
      doc TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${quote(`${collection} by expires_at`)} ON ${table} (expires_at) WHERE expires_at IS NOT NULL;`;
}

/**
 * The table of a collection in a read store file being built (`SqliteBuildFile`): the columns of
 * `createTableSql`, its rows appended as documents are first written, and no index of the ids
 * until `createIdIndexSql` makes their unique one when the file is sealed. A serving store then
 * reads and writes it as one of its own tables: its lookups by id and its upserts
 * (`ON CONFLICT (id)`) use that index as they use a primary key's.
 */
export function createBuildTableSql(collection: string, fieldColumns: readonly string[] = []): string {
  const table = quote(collection);
  // No declared type: no affinity, so a column holds exactly what json_extract gives.
  const generated = fieldColumns.map((field) => `,\n      ${fieldColumn(field)} AS (${jsonField(field)}) STORED`);
  return `
    CREATE TABLE ${table} (
      id TEXT NOT NULL,
      created INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      pos INTEGER,
      expires_at INTEGER,
      doc TEXT NOT NULL${generated.join('')}
    );
    CREATE INDEX ${quote(`${collection} by expires_at`)} ON ${table} (expires_at) WHERE expires_at IS NOT NULL;`;
}

/** The unique index of a built table's ids (`createBuildTableSql`), made once every row is in. */
export const createIdIndexSql = (collection: string): string =>
  `CREATE UNIQUE INDEX IF NOT EXISTS ${quote(`${collection} by id`)} ON ${quote(collection)} (id)`;

/**
 * A list index: equality fields first, then the sort key, so a filtered page is one index range
 * scan. A field the table keeps as a column (`fieldColumns`) is indexed by that column, which the
 * index build reads instead of parsing each row's JSON.
 */
export function createListIndexSql(
  collection: string,
  fields: readonly string[],
  fieldColumns: ReadonlySet<string> = NO_FIELD_COLUMNS,
): string {
  const columns = [...fields.map((field) => fieldTerm(field, fieldColumns)), SORT_KEY_DESC].join(', ');
  return `CREATE INDEX IF NOT EXISTS ${quote(`${collection} by ${fields.join(',')}`)} ON ${quote(collection)} (${columns})`;
}

/**
 * A projection's put (parameters: `rowValues`): skipped when the stored document comes from a
 * later event. Equal positions apply, so that several writes caused by one event land in batch order.
 */
const projectionPutSql = (collection: string): string =>
  `${UPSERT_INTO(quote(collection))} SET ${REPLACE_COLUMNS}, pos = excluded.pos WHERE pos IS NULL OR pos <= excluded.pos`;

/** A projection's delete (parameters: id, position), guarded like its put. */
const projectionDeleteSql = (collection: string): string =>
  `DELETE FROM ${quote(collection)} WHERE id = ? AND (pos IS NULL OR pos <= ?)`;

/** A collection's projection writes as SQL, for a connection that runs them on another thread. */
export interface ProjectionWriteSql {
  put: string;
  delete: string;
}

const projectionWriteSqlByCollection = new Map<string, ProjectionWriteSql>();

/** The SQL of a collection's projection writes (put, delete), made once per collection. */
export function projectionWriteSql(collection: string): ProjectionWriteSql {
  let found = projectionWriteSqlByCollection.get(collection);
  if (!found) {
    found = { put: projectionPutSql(collection), delete: projectionDeleteSql(collection) };
    projectionWriteSqlByCollection.set(collection, found);
  }
  return found;
}

/** A put outside projections (parameters: `rowValues` without a position): replaces whatever is stored. */
export const putSql = (collection: string): string =>
  `${UPSERT_INTO(quote(collection))} SET ${REPLACE_COLUMNS}, pos = NULL`;

/** A document's row: id, created, seq, the position of the write (null outside projections), expiry, the JSON. */
export function rowValues(doc: Document, position: number | null): unknown[] {
  return [doc.id, doc.created, doc._seq ?? MISSING_SEQ, position, doc._expiresAt ?? null, JSON.stringify(doc)];
}

const jsonField = (field: string): string => `json_extract(doc, '$.${field}')`;

/**
 * The column a built table keeps a list-index field in (`createBuildTableSql`): generated from the
 * document and stored, `json_extract`'s value exactly. A list query names the column, not the
 * expression, for SQLite to use an index of it.
 */
const fieldColumn = (field: string): string => quote(`${FIELD_COLUMN_PREFIX}${field}`);
const FIELD_COLUMN_PREFIX = 'doc.';
const NO_FIELD_COLUMNS: ReadonlySet<string> = new Set();

/** A field's value in SQL: its column where the table has one, else extracted from the document. */
const fieldTerm = (field: string, fieldColumns: ReadonlySet<string>): string =>
  fieldColumns.has(field) ? fieldColumn(field) : jsonField(field);

/** The fields `table` keeps as columns of their own (none in tables made by `createTableSql`). */
export function fieldColumnsOf(db: Database.Database, table: string): ReadonlySet<string> {
  const columns = db.prepare<[string], { name: string }>('SELECT name FROM pragma_table_xinfo(?)').all(table);
  const fields = columns
    .filter((column) => column.name.startsWith(FIELD_COLUMN_PREFIX))
    .map((column) => column.name.slice(FIELD_COLUMN_PREFIX.length));
  return fields.length > 0 ? new Set(fields) : NO_FIELD_COLUMNS;
}

/**
 * SQL for equality on each field; the field's term (its column, else json_extract) is what the
 * index serves. json_extract
 * gives SQL values (true is 1, "1" is text, an object its JSON text), so `typesChecked` adds a
 * `json_type` condition per field: `false` then matches only stored false, never 0. Without it,
 * the caller checks the types itself.
 */
function equalityClauses(
  filter: Record<string, FieldValue>,
  typesChecked: boolean,
  fieldColumns: ReadonlySet<string>,
): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const [field, value] of Object.entries(filter)) {
    assertFieldName(field);
    const extracted = fieldTerm(field, fieldColumns);
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

export const quote = (identifier: string): string => `"${identifier}"`;

export function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name) || INTERNAL_TABLES.has(name) || name.startsWith('sqlite_')) {
    throw new TypeError(`Invalid collection name: ${name}`);
  }
}
