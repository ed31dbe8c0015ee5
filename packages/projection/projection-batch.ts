import type { Document, DocumentStore, ProjectionWrite } from '../readstore/document-store.ts';
import { physicalCollectionName, type ProjectionTransaction } from './projection.ts';

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

  async get<T extends Document>(collection: string, id: string): Promise<T | null> {
    const key = `${collection}\u0000${id}`;
    if (this.pending.has(key)) return (this.pending.get(key) as T | null) ?? null;
    return this.store.collection<T>(physicalCollectionName(collection, this.generation)).get(id);
  }

  put(collection: string, doc: Document): void {
    this.pending.set(`${collection}\u0000${doc.id}`, doc);
    this.writes.push({
      collection: physicalCollectionName(collection, this.generation),
      op: 'put',
      doc,
      position: this.position,
    });
  }

  delete(collection: string, id: string): void {
    this.pending.set(`${collection}\u0000${id}`, null);
    this.writes.push({
      collection: physicalCollectionName(collection, this.generation),
      op: 'delete',
      id,
      position: this.position,
    });
  }
}
