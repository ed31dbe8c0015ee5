import type { Document, DocumentStore, ProjectionWrite } from '../readstore/document-store.ts';
import type { RecordedEvent } from '../eventstore/event-store.ts';
import { checkpointKey, physicalCollectionName, type Projection, type ProjectionTransaction } from './projection.ts';
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

/** One build of a projection and the log position it has applied up to. */
export interface ProjectionBuild {
  readonly projection: Projection;
  readonly generation: number;
  readonly checkpoint: number;
}

/**
 * Applies a batch of events to one build of a projection and commits the writes together with the
 * new checkpoint, as one unit. Events at or before the checkpoint (or seen earlier in the batch)
 * are skipped: a batch delivered again changes nothing. `prepare` turns a stored event into what
 * the projection reads (upcasting). Returns the new checkpoint.
 */
export async function projectBatch(
  store: DocumentStore,
  build: ProjectionBuild,
  batch: readonly RecordedEvent[],
  prepare: (event: RecordedEvent) => RecordedEvent,
): Promise<number> {
  const tx = new ProjectionBatch(store, build.generation);
  let last = build.checkpoint;
  for (const event of batch) {
    if (event.position <= last) continue;
    last = event.position;
    if (!build.projection.handles(event.type)) continue;
    tx.position = event.position;
    await build.projection.apply(prepare(event), tx);
  }
  if (last === build.checkpoint) return last;
  await store.commitProjection(tx.writes, {
    key: checkpointKey(build.projection.name, build.generation),
    position: last,
  });
  return last;
}
