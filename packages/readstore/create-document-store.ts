import type { DocumentStore } from './document-store.ts';
import { SqliteDocumentStore } from './sqlite-document-store.ts';

export interface DocumentStoreOptions {
  /** When set, the distributed profile: MongoDB. Otherwise the embedded profile: SQLite. */
  mongodbUrl?: string;
  /** MongoDB database; default: the one named in the URL path. */
  dbName?: string;
  sqlitePath: string;
  /** SQLite durability; FULL for operational state, NORMAL (default) for rebuildable read models. */
  synchronous?: 'NORMAL' | 'FULL';
  /** Embedded only: a background thread checkpoints the file. */
  backgroundCheckpoints?: boolean;
}

/** The MongoDB driver is loaded only in the distributed profile: an embedded process does not hold it. */
export async function createDocumentStore(options: DocumentStoreOptions): Promise<DocumentStore> {
  if (options.mongodbUrl) {
    const { MongoDocumentStore } = await import('./mongo-document-store.ts');
    return MongoDocumentStore.connect(options.mongodbUrl, options.dbName);
  }
  return new SqliteDocumentStore(options.sqlitePath, {
    synchronous: options.synchronous,
    backgroundCheckpoints: options.backgroundCheckpoints ?? false,
  });
}
