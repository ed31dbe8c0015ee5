import {
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  type AnyBulkWriteOperation,
  type Collection as DriverCollection,
  type Db,
  type Filter,
  type IndexDescription,
  type Sort,
} from 'mongodb';
import {
  CursorNotFoundError,
  type Collection,
  type CollectionOptions,
  type CreatedRange,
  type Document,
  type DocumentStore,
  type FieldValue,
  type ListPage,
  type ListQuery,
  type ProjectionCheckpoint,
  type ProjectionWrite,
  type UntypedDocument,
} from './document-store.ts';
import { assertFieldName, listIndexFields, SCOPE_FIELDS } from './list-indexes.ts';

/**
 * ReadStore adapter for the distributed profile: one MongoDB collection per collection, `_id` = id.
 * Adapter fields stored next to the document and stripped on read: `_pos` (position of the
 * projection write that stored it) and `_expiresAtDate` (`_expiresAt` as a Date, for the TTL index).
 */

interface StoredDocument {
  _id: string;
  _pos?: number;
  _expiresAtDate?: Date;
  [field: string]: unknown;
}

interface StoredCheckpoint {
  _id: string;
  position: number;
}

const CHECKPOINTS_COLLECTION = '_checkpoints';
const DUPLICATE_KEY = 11000;
/** Documents come back exactly as put. */
const WITHOUT_ADAPTER_FIELDS = { _id: 0, _pos: 0, _expiresAtDate: 0 } as const;
/** Newest first; `_id` makes the order total, so cursors never skip a document. */
const NEWEST_FIRST = { created: -1, _seq: -1, _id: -1 } as const;
const OLDEST_FIRST: Sort = { created: 1, _seq: 1, _id: 1 };

const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

export class MongoDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, MongoCollection<Document>>();
  private readonly checkpoints: DriverCollection<StoredCheckpoint>;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {
    this.checkpoints = db.collection<StoredCheckpoint>(CHECKPOINTS_COLLECTION);
  }

  /** Connects; the database is `dbName`, else the one named in the URL path. */
  static async connect(url: string, dbName?: string): Promise<MongoDocumentStore> {
    // A field set to undefined is left out, as JSON would do, rather than stored as null.
    const client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    return new MongoDocumentStore(client, client.db(dbName));
  }

  collection<T extends Document = UntypedDocument>(name: string, options?: CollectionOptions): MongoCollection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MongoCollection(this.db, name);
      this.collections.set(name, collection);
    }
    collection.declareIndexes(options?.indexes ?? [], options?.scopeAloneListed ?? true);
    return collection as unknown as MongoCollection<T>;
  }

  /**
   * Not atomic across documents: each write is guarded by `_pos`, so a batch interrupted before
   * its checkpoint moved is simply applied again.
   */
  async commitProjection(writes: ProjectionWrite[], checkpoints: readonly ProjectionCheckpoint[]): Promise<void> {
    for (const [name, collectionWrites] of latestWritePerDocument(writes)) {
      await this.collection(name).applyProjectionWrites(collectionWrites);
    }
    if (checkpoints.length === 0) return;
    await this.checkpoints.bulkWrite(
      checkpoints.map((checkpoint) => ({
        updateOne: {
          filter: { _id: checkpoint.key },
          update: { $max: { position: checkpoint.position } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  async getCheckpoint(key: string): Promise<number | null> {
    const checkpoint = await this.checkpoints.findOne({ _id: key });
    return checkpoint?.position ?? null;
  }

  async dropCollection(name: string): Promise<void> {
    assertCollectionName(name);
    await this.db.dropCollection(name);
    this.collections.get(name)?.forgetIndexes();
  }

  async listCollections(prefix = ''): Promise<string[]> {
    const collections = await this.db.listCollections({}, { nameOnly: true }).toArray();
    return collections
      .map((collection) => collection.name)
      .filter((name) => name !== CHECKPOINTS_COLLECTION && !name.startsWith('system.') && name.startsWith(prefix))
      .sort();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * One write per document, the last of the batch: positions never decrease within a batch, and
 * several writes caused by one event share a position, which the `_pos` guard alone would skip.
 * With one write per document, the order in which the server applies them no longer matters.
 */
function latestWritePerDocument(writes: ProjectionWrite[]): Map<string, ProjectionWrite[]> {
  const latest = new Map<string, ProjectionWrite>();
  for (const write of writes) {
    latest.set(`${write.collection}\u0000${write.op === 'put' ? write.doc.id : write.id}`, write);
  }
  const byCollection = new Map<string, ProjectionWrite[]>();
  for (const write of latest.values()) {
    const collectionWrites = byCollection.get(write.collection) ?? [];
    collectionWrites.push(write);
    byCollection.set(write.collection, collectionWrites);
  }
  return byCollection;
}

/** A collection and the indexes it was declared with, created before its first use. */
export class MongoCollection<T extends Document> implements Collection<T> {
  private readonly documents: DriverCollection<StoredDocument>;
  /** Index descriptions by a key of their fields. */
  private readonly declaredIndexes = new Map<string, IndexDescription>();
  private readonly createdIndexes = new Set<string>();
  private creatingIndexes: Promise<void> | undefined;

  constructor(
    db: Db,
    readonly name: string,
  ) {
    assertCollectionName(name);
    this.documents = db.collection<StoredDocument>(name);
    this.declareIndex({ key: NEWEST_FIRST });
    // expireAfterSeconds 0: the server deletes a document once its `_expiresAtDate` has passed.
    this.declareIndex({ key: { _expiresAtDate: 1 }, expireAfterSeconds: 0 });
  }

  async get(id: string): Promise<T | null> {
    await this.indexesCreated();
    const doc = await this.documents.findOne({ _id: id, ...live() }, { projection: WITHOUT_ADAPTER_FIELDS });
    return doc as T | null;
  }

  async getMany(ids: string[]): Promise<T[]> {
    await this.indexesCreated();
    const docs = await this.documents
      .find({ _id: { $in: ids }, ...live() }, { projection: WITHOUT_ADAPTER_FIELDS })
      .toArray();
    return docs as unknown as T[];
  }

  async list(query: ListQuery): Promise<ListPage<T>> {
    await this.indexesCreated();
    const filter = query.filter ?? {};
    const clauses: Filter<StoredDocument>[] = [live(), equality(filter)];
    if (query.created) clauses.push({ created: createdRange(query.created) });

    const newerThanCursor = query.startingAfterId === undefined && query.endingBeforeId !== undefined;
    if (query.startingAfterId !== undefined) {
      clauses.push(
        ...beyondCursor(await this.cursorDocument('startingAfterId', query.startingAfterId, filter), 'older'),
      );
    } else if (query.endingBeforeId !== undefined) {
      clauses.push(...beyondCursor(await this.cursorDocument('endingBeforeId', query.endingBeforeId, filter), 'newer'));
    }

    // Newer-than-cursor pages are read oldest first (nearest the cursor), then reversed.
    const docs = await this.documents
      .find({ $and: clauses }, { projection: WITHOUT_ADAPTER_FIELDS })
      .sort(newerThanCursor ? OLDEST_FIRST : NEWEST_FIRST)
      .limit(query.limit + 1)
      .toArray();
    const page = docs.slice(0, query.limit) as unknown as T[];
    return { list: newerThanCursor ? page.reverse() : page, hasMore: docs.length > query.limit };
  }

  async insert(doc: T): Promise<boolean> {
    await this.indexesCreated();
    try {
      await this.documents.insertOne({ _id: doc.id, ...storedFields(doc) });
      return true;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    // The id is taken, perhaps by an expired document the TTL monitor has not deleted yet.
    const replaced = await this.documents.replaceOne(
      { _id: doc.id, _expiresAt: { $lt: Date.now() } },
      storedFields(doc),
    );
    return replaced.matchedCount > 0;
  }

  async put(doc: T): Promise<void> {
    await this.indexesCreated();
    await this.documents.replaceOne({ _id: doc.id }, storedFields(doc), { upsert: true });
  }

  async delete(id: string): Promise<boolean> {
    await this.indexesCreated();
    const result = await this.documents.deleteOne({ _id: id, ...live() });
    return result.deletedCount > 0;
  }

  async count(filter: Record<string, FieldValue> = {}): Promise<number> {
    await this.indexesCreated();
    return this.documents.countDocuments({ $and: [live(), equality(filter)] });
  }

  /**
   * Each write applies only over a document from an earlier position (or none). A guarded upsert
   * that finds a newer document tries to insert its id and fails with a duplicate key: skipped.
   */
  async applyProjectionWrites(writes: ProjectionWrite[]): Promise<void> {
    await this.indexesCreated();
    const operations = writes.map((write): AnyBulkWriteOperation<StoredDocument> => {
      if (write.op === 'delete') return { deleteOne: { filter: { _id: write.id, ...olderThan(write.position) } } };
      return {
        replaceOne: {
          filter: { _id: write.doc.id, ...olderThan(write.position) },
          replacement: storedFields(write.doc, write.position),
          upsert: true,
        },
      };
    });
    try {
      await this.documents.bulkWrite(operations, { ordered: false });
    } catch (error) {
      if (!onlyNewerDocumentsKept(error)) throw error;
    }
  }

  declareIndexes(fields: string[], scopeAloneListed = true): void {
    for (const indexed of listIndexFields(fields, scopeAloneListed)) {
      this.declareIndex({ key: { ...Object.fromEntries(indexed.map((name) => [name, 1])), ...NEWEST_FIRST } });
    }
  }

  /** The collection was dropped: its indexes are created again on next use. */
  forgetIndexes(): void {
    this.createdIndexes.clear();
  }

  private declareIndex(index: IndexDescription): void {
    this.declaredIndexes.set(JSON.stringify(index.key), index);
  }

  private async indexesCreated(): Promise<void> {
    if (this.createdIndexes.size === this.declaredIndexes.size) return;
    this.creatingIndexes ??= this.createPendingIndexes().finally(() => {
      this.creatingIndexes = undefined;
    });
    await this.creatingIndexes;
  }

  private async createPendingIndexes(): Promise<void> {
    const pending = [...this.declaredIndexes].filter(([key]) => !this.createdIndexes.has(key));
    if (pending.length === 0) return;
    await this.documents.createIndexes(pending.map(([, index]) => index));
    for (const [key] of pending) this.createdIndexes.add(key);
  }

  private async cursorDocument(
    parameter: 'startingAfterId' | 'endingBeforeId',
    id: string,
    filter: Record<string, FieldValue>,
  ): Promise<CursorPosition> {
    const doc = await this.documents.findOne({ _id: id, ...live() });
    const outOfScope =
      doc !== null && SCOPE_FIELDS.some((field) => field in filter && (doc[field] ?? null) !== filter[field]);
    if (doc === null || outOfScope) throw new CursorNotFoundError(parameter, id);
    return { id, created: doc.created as number, seq: (doc._seq as number | undefined) ?? null };
  }
}

interface CursorPosition {
  id: string;
  created: number;
  /** null when the document has no `_seq`: MongoDB sorts it below every number. */
  seq: number | null;
}

/**
 * Documents strictly beyond the cursor in (created, _seq, _id) order. The plain `created` bound
 * lets the index range start at the cursor; the `$or` settles ties on `created`.
 */
function beyondCursor(cursor: CursorPosition, direction: 'older' | 'newer'): Filter<StoredDocument>[] {
  const { id, created, seq } = cursor;
  const sameCreated = { created };
  const sameSeq = { created, _seq: seq };
  const ties: Filter<StoredDocument>[] = [];
  if (direction === 'older') {
    if (seq !== null) ties.push({ ...sameCreated, _seq: { $lt: seq } }, { ...sameCreated, _seq: null });
    ties.push({ ...sameSeq, _id: { $lt: id } });
    return [{ created: { $lte: created } }, { $or: [{ created: { $lt: created } }, ...ties] }];
  }
  ties.push({ ...sameCreated, _seq: seq === null ? { $ne: null } : { $gt: seq } });
  ties.push({ ...sameSeq, _id: { $gt: id } });
  return [{ created: { $gte: created } }, { $or: [{ created: { $gt: created } }, ...ties] }];
}

/** Not expired; the TTL monitor deletes expired documents only about once a minute. */
const live = (): Filter<StoredDocument> => ({ _expiresAt: { $not: { $lt: Date.now() } } });

/** A projection write applies over no document, a plainly put one, or one from an earlier position. */
const olderThan = (position: number): Filter<StoredDocument> => ({
  $or: [{ _pos: { $lt: position } }, { _pos: { $exists: false } }],
});

/** `null` matches null or missing, booleans match only booleans: MongoDB equality does both. */
function equality(filter: Record<string, FieldValue>): Filter<StoredDocument> {
  for (const field of Object.keys(filter)) assertFieldName(field);
  return { ...filter };
}

function createdRange(range: CreatedRange): Record<string, number> {
  const operators: Record<string, number> = {};
  if (range.gt !== undefined) operators.$gt = range.gt;
  if (range.gte !== undefined) operators.$gte = range.gte;
  if (range.lt !== undefined) operators.$lt = range.lt;
  if (range.lte !== undefined) operators.$lte = range.lte;
  return operators;
}

/** The stored form of a document, without `_id` (a replacement must not change it). */
function storedFields(doc: Document, position?: number): Omit<StoredDocument, '_id'> {
  return {
    ...doc,
    ...(doc._expiresAt === undefined ? {} : { _expiresAtDate: new Date(doc._expiresAt) }),
    ...(position === undefined ? {} : { _pos: position }),
  };
}

const isDuplicateKey = (error: unknown): boolean => error instanceof MongoServerError && error.code === DUPLICATE_KEY;

/** A bulk write whose only failures are guarded upserts that met a newer document. */
function onlyNewerDocumentsKept(error: unknown): boolean {
  if (!(error instanceof MongoBulkWriteError) || error.result.getWriteConcernError() !== undefined) return false;
  const writeErrors = error.result.getWriteErrors();
  return writeErrors.length > 0 && writeErrors.every((writeError) => writeError.code === DUPLICATE_KEY);
}

function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name) || name === CHECKPOINTS_COLLECTION)
    throw new TypeError(`Invalid collection name: ${name}`);
}
