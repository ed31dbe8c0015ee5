/**
 * ReadStore port: documents in named collections, listed newest first.
 * Used for the read models that projections build (GET and list endpoints) and, in a separate
 * store instance, for operational state (vault entries, idempotency records, projection state).
 * Two adapters implement it: SQLite (embedded profile) and MongoDB (distributed).
 *
 * Field conventions inside a stored document:
 * - `id` (string) is the primary key; `created` (integer, Unix seconds) is the primary sort key.
 * - Fields whose name starts with `_` are internal: never rendered to API clients.
 *   `_seq` (integer) breaks ties of `created` (the global position of the creation event);
 *   `_accountId`, `_mode` scope every tenant document.
 * - `_expiresAt` (integer, ms since epoch), when set, makes the document disappear after that time:
 *   reads treat it as absent at once; the adapter purges it lazily (Mongo: TTL index).
 */

export type FieldValue = string | number | boolean | null;

export interface Document {
  id: string;
  created: number;
  _seq?: number;
  _expiresAt?: number;
}

/** A document read without a declared type: any field may be there. */
export interface UntypedDocument extends Document {
  [field: string]: unknown;
}

export interface CollectionOptions {
  /**
   * Fields usable as equality filters in `list` (top-level fields only). Adapters index them
   * together with the sort key so that scoped, filtered lists stay fast.
   */
  indexes?: string[];
  /**
   * False when every list of the collection filters on one of its other indexed fields as well
   * (e.g. `_deleted`): the tenant scope (`_accountId`, `_mode`) then gets no index of its own,
   * one index write less per document change.
   */
  scopeAloneListed?: boolean;
}

export interface CreatedRange {
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

export interface ListQuery {
  /**
   * Equality filters on indexed fields. `null` matches documents where the field is null or missing.
   * A field that was not declared in `indexes` is still honoured (adapters may scan).
   */
  filter?: Record<string, FieldValue>;
  created?: CreatedRange;
  /** Page size; the adapter returns at most this many (callers validate 1..100). */
  limit: number;
  /** Cursor: return the page after (older than) this document. */
  startingAfterId?: string;
  /** Cursor: return the page before (newer than) this document. Ignored when startingAfterId is set. */
  endingBeforeId?: string;
}

export interface ListPage<T> {
  /** Newest first: `created` descending, then `_seq` descending. */
  list: T[];
  /** Whether more documents match in the paging direction. */
  hasMore: boolean;
}

/**
 * Thrown by `list` when a cursor id names no document of the collection, or one outside the
 * query's tenant scope (a cursor document must match the `_accountId` and `_mode` filter values
 * when those are part of the filter).
 */
export class CursorNotFoundError extends Error {
  constructor(
    readonly parameter: 'startingAfterId' | 'endingBeforeId',
    readonly cursorId: string,
  ) {
    super(`No such object for ${parameter}: ${cursorId}`);
    this.name = 'CursorNotFoundError';
  }
}

export interface Collection<T extends Document = UntypedDocument> {
  readonly name: string;
  get(id: string): Promise<T | null>;
  /** Several documents by id, in no particular order; missing ids are left out. */
  getMany(ids: string[]): Promise<T[]>;
  list(query: ListQuery): Promise<ListPage<T>>;
  /** Inserts when no live document has this id; returns false (and changes nothing) otherwise. */
  insert(doc: T): Promise<boolean>;
  /** Inserts or replaces the whole document. */
  put(doc: T): Promise<void>;
  /** Returns whether a document was deleted. */
  delete(id: string): Promise<boolean>;
  /** Number of documents matching the filter (equality on fields, as in list). */
  count(filter?: Record<string, FieldValue>): Promise<number>;
}

/** One write of a projection batch. `position` is the global position of the event that caused it. */
export type ProjectionWrite =
  | { collection: string; op: 'put'; doc: Document; position: number }
  | { collection: string; op: 'delete'; id: string; position: number };

export interface ProjectionCheckpoint {
  /** Projection name plus generation, e.g. `customers@3`: one checkpoint per physical build. */
  key: string;
  position: number;
}

export interface DocumentStore {
  /** A collection; created (with its indexes) on first use. Cheap: may be called per request. */
  collection<T extends Document = UntypedDocument>(name: string, options?: CollectionOptions): Collection<T>;

  /**
   * Applies a batch of projection writes (of one or several projections) and moves their
   * checkpoints, as one unit:
   * - SQLite: one transaction (one commit however many projections the batch touched).
   * - MongoDB: every write is guarded by the document's last applied position (`_pos`): a write
   *   whose position is not greater than the stored one is skipped; then the checkpoints move
   *   forward only (never backwards).
   * Replaying a batch that was already applied changes nothing.
   */
  commitProjection(writes: ProjectionWrite[], checkpoints: readonly ProjectionCheckpoint[]): Promise<void>;

  /**
   * While projections catch up with the log or rebuild (`enabled`), nobody waits on their commits:
   * an adapter may then favour throughput over the latency of each commit (SQLite: lets the WAL
   * grow to 16 MiB between checkpoints instead of 1 MiB). Optional; calls nest by count in the
   * caller, which turns it off when the last of them ends.
   */
  bulkWrites?(enabled: boolean): void;

  /**
   * Tells a store built from empty, before its first write, every collection it will hold and
   * their options: it may lay out their tables for them (`SqliteBuildFile` keeps the fields of the
   * list indexes as columns of their own). The indexes are still made by `collection()`. Optional.
   */
  plannedCollections?(collections: ReadonlyMap<string, CollectionOptions>): void;

  /** Last committed checkpoint position for a key, or null when none. */
  getCheckpoint(key: string): Promise<number | null>;

  /** Drops a collection and its documents (no error when absent). */
  dropCollection(name: string): Promise<void>;

  /** Names of existing collections that start with the prefix. */
  listCollections(prefix?: string): Promise<string[]>;

  close(): Promise<void>;
}
