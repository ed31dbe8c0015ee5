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
 * Applies a batch of events to several builds of projections and commits all their writes together
 * with their new checkpoints, as one unit (one transaction of the embedded store). Per build,
 * events at or before its checkpoint (or seen earlier in the batch) are skipped: a batch delivered
 * again changes nothing. `prepare` turns a stored event into what the projections read
 * (upcasting), once per event. Returns the new checkpoint of each build, in the order given.
 */
export async function projectBatches(
  store: DocumentStore,
  builds: readonly ProjectionBuild[],
  batch: readonly RecordedEvent[],
  prepare: (event: RecordedEvent) => RecordedEvent,
): Promise<number[]> {
  const transactions = builds.map((build) => new ProjectionBatch(store, build.generation));
  const last = builds.map((build) => build.checkpoint);
  for (const event of batch) {
    let prepared: RecordedEvent | null = null;
    for (const [index, build] of builds.entries()) {
      if (event.position <= last[index]!) continue;
      last[index] = event.position;
      if (!build.projection.handles(event.type)) continue;
      const tx = transactions[index]!;
      tx.position = event.position;
      prepared ??= prepare(event);
      await build.projection.apply(prepared, tx);
    }
  }
  const moved = builds.flatMap((build, index) =>
    last[index] === build.checkpoint
      ? []
      : [{ key: checkpointKey(build.projection.name, build.generation), position: last[index]! }],
  );
  if (moved.length > 0)
    await store.commitProjection(
      transactions.flatMap((tx) => tx.writes),
      moved,
    );
  return last;
}

/** `projectBatches` for one build; returns its new checkpoint. */
export async function projectBatch(
  store: DocumentStore,
  build: ProjectionBuild,
  batch: readonly RecordedEvent[],
  prepare: (event: RecordedEvent) => RecordedEvent,
): Promise<number> {
  const [last] = await projectBatches(store, [build], batch, prepare);
  return last!;
}
