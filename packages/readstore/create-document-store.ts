import type { DocumentStore } from './document-store.ts';
import { MongoDocumentStore } from './mongo-document-store.ts';
import { SqliteDocumentStore } from './sqlite-document-store.ts';

export interface DocumentStoreOptions {
  /** When set, the distributed profile: MongoDB. Otherwise the embedded profile: SQLite. */
  mongodbUrl?: string;
  /** MongoDB database; default: the one named in the URL path. */
  dbName?: string;
  sqlitePath: string;
  /** SQLite durability; FULL for operational state, NORMAL (default) for rebuildable read models. */
  synchronous?: 'NORMAL' | 'FULL';
}

export async function createDocumentStore(options: DocumentStoreOptions): Promise<DocumentStore> {
  if (options.mongodbUrl) return MongoDocumentStore.connect(options.mongodbUrl, options.dbName);
  return new SqliteDocumentStore(options.sqlitePath, { synchronous: options.synchronous });
}
