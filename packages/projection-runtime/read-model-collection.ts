import type { CollectionOptions, Document } from '../readstore/document-store.ts';

/**
 * A logical collection of a read model and the type of its documents. The projection that owns it
 * exports it; the projection writes through it and queries read through it, so both sides agree on
 * the name and the document type.
 */
export interface ReadModelCollection<T extends Document> {
  readonly name: string;
  readonly options: CollectionOptions;
  /** Type only (never set): the documents it holds. */
  readonly document?: T;
}

/** A collection of API objects: errors name a missing one by `objectName` ("No such Charge"). */
export interface ObjectCollection<T extends Document> extends ReadModelCollection<T> {
  readonly objectName: string;
}

export const readModelCollection = <T extends Document>(
  name: string,
  options: CollectionOptions = {},
): ReadModelCollection<T> => ({ name, options });

export const objectCollection = <T extends Document>(
  name: string,
  objectName: string,
  options: CollectionOptions = {},
): ObjectCollection<T> => ({ name, objectName, options });

/** The `collections` of a projection, from the descriptors of what it owns. */
export const ownedCollections = (
  ...collections: ReadModelCollection<Document>[]
): Readonly<Record<string, CollectionOptions>> =>
  Object.fromEntries(collections.map((collection) => [collection.name, collection.options]));

/** The name a transaction or store knows a collection by. */
export const collectionName = (collection: ReadModelCollection<Document> | string): string =>
  typeof collection === 'string' ? collection : collection.name;
