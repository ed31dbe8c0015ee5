import type { Document, DocumentStore, ProjectionWrite } from '../readstore/document-store.ts';
import { physicalCollectionName, type ProjectionTransaction } from './projection.ts';
import { collectionName, type ReadModelCollection } from './read-model-collection.ts';

/**
 * Buffers one projection's writes for a batch of events, addressed by logical collection name and
 * stored into one generation's physical collections.
 */
export class ProjectionBatch implements ProjectionTransaction {
  private readonly pending = new Map<string, Document | null>();
  readonly writes: ProjectionWrite[] = [];
  position = 0;

  constructor(
    private readonly store: DocumentStore,
    private readonly generation: number,
  ) {}

  async get<T extends Document>(collection: ReadModelCollection<T> | string, id: string): Promise<T | null> {
    const name = collectionName(collection);
    const key = `${name}\u0000${id}`;
    // Pending documents were put through the same collection, so they are of its type.
    if (this.pending.has(key)) return (this.pending.get(key) as T | null) ?? null;
    return this.store.collection<T>(physicalCollectionName(name, this.generation)).get(id);
  }

  put<T extends Document>(collection: ReadModelCollection<T> | string, doc: T): void {
    const name = collectionName(collection);
    this.pending.set(`${name}\u0000${doc.id}`, doc);
    this.writes.push({
      collection: physicalCollectionName(name, this.generation),
      op: 'put',
      doc,
      position: this.position,
    });
  }

  delete(collection: ReadModelCollection<Document> | string, id: string): void {
    const name = collectionName(collection);
    this.pending.set(`${name}\u0000${id}`, null);
    this.writes.push({
      collection: physicalCollectionName(name, this.generation),
      op: 'delete',
      id,
      position: this.position,
    });
  }
}
