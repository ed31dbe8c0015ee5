import type { Document, DocumentStore, ProjectionWrite } from '../readstore/document-store.ts';
import type { RecordedEvent } from '../eventstore/event-store.ts';
import { checkpointKey, physicalCollectionName, type Projection, type ProjectionTransaction } from './projection.ts';
import { collectionName, type ReadModelCollection } from './read-model-collection.ts';
import type { WrittenDocuments } from './written-documents.ts';

/**
 * Buffers one projection's writes for a batch of events, addressed by logical collection name and
 * stored into one generation's physical collections. Remembers every document it has read or
 * written in the batch (also the ones that do not exist), so each is read from the store at most
 * once per batch. Collections of the projections it reads (`Projection.reads`) are read through
 * their own batches, so it sees their writes of earlier events in the batch.
 */
export class ProjectionBatch implements ProjectionTransaction {
  /** By collection, then id: no key text is made per read or write. */
  private readonly known = new Map<string, Map<string, Document | null>>();
  private readonly physicalNames = new Map<string, string>();
  private readonly sources = new Map<string, ProjectionBatch>();
  readonly writes: ProjectionWrite[] = [];
  position = 0;

  constructor(
    private readonly store: DocumentStore,
    private readonly generation: number,
    /** What was written into the build since it was empty, while that is known (else every miss is read). */
    private readonly written?: WrittenDocuments,
  ) {}

  /** Reads of `collection` go to the batch of the projection that owns it. */
  readThrough(collection: string, owner: ProjectionBatch): void {
    this.sources.set(collection, owner);
  }

  async get<T extends Document>(collection: ReadModelCollection<T> | string, id: string): Promise<T | null> {
    const name = collectionName(collection);
    const owner = this.sources.get(name);
    if (owner) return owner.get(collection, id);
    const known = this.knownIn(name);
    // Documents known in this batch were read or put through the same collection, so they are of its type.
    const found = known.get(id) as T | null | undefined;
    if (found !== undefined) return found;
    const physical = this.physicalName(name);
    const stored =
      this.written?.mayHave(physical, id) === false ? null : await this.store.collection<T>(physical).get(id);
    known.set(id, stored);
    return stored;
  }

  put<T extends Document>(collection: ReadModelCollection<T> | string, doc: T): void {
    const name = collectionName(collection);
    this.knownIn(name).set(doc.id, doc);
    const physical = this.physicalName(name);
    this.written?.add(physical, doc.id);
    this.writes.push({ collection: physical, op: 'put', doc, position: this.position });
  }

  delete(collection: ReadModelCollection<Document> | string, id: string): void {
    const name = collectionName(collection);
    this.knownIn(name).set(id, null);
    this.writes.push({ collection: this.physicalName(name), op: 'delete', id, position: this.position });
  }

  private knownIn(collection: string): Map<string, Document | null> {
    let known = this.known.get(collection);
    if (!known) {
      known = new Map();
      this.known.set(collection, known);
    }
    return known;
  }

  private physicalName(collection: string): string {
    let physical = this.physicalNames.get(collection);
    if (physical === undefined) {
      physical = physicalCollectionName(collection, this.generation);
      this.physicalNames.set(collection, physical);
    }
    return physical;
  }
}

/** One build of a projection and the log position it has applied up to. */
export interface ProjectionBuild {
  readonly projection: Projection;
  readonly generation: number;
  readonly checkpoint: number;
  /** The documents written into it since it was empty, when the caller keeps track (`WrittenDocuments`). */
  readonly written?: WrittenDocuments;
}

/**
 * Applies a batch of events to several builds of projections and commits all their writes together
 * with their new checkpoints, as one unit (one transaction of the embedded store). Per build,
 * events at or before its checkpoint (or seen earlier in the batch) are skipped: a batch delivered
 * again changes nothing. A build that reads other projections (`Projection.reads`) needs their
 * builds in the same call, at its own checkpoint; each event is applied to it before them, so it
 * reads their documents as they stood just before the event. `prepare` turns a stored event into
 * what the projections read (upcasting), once per event. Returns the new checkpoint of each build,
 * in the order given.
 */
export async function projectBatches(
  store: DocumentStore,
  builds: readonly ProjectionBuild[],
  batch: readonly RecordedEvent[],
  prepare: (event: RecordedEvent) => RecordedEvent,
): Promise<number[]> {
  const transactions = builds.map((build) => new ProjectionBatch(store, build.generation, build.written));
  connectReads(builds, transactions);
  const order = applyOrder(builds);
  const last = builds.map((build) => build.checkpoint);
  // Indexed loops: an iterator's result objects are allocated on every step of a loop that awaits,
  // per event and projection, a tenth of a rebuild's allocations (`docs/benchmarks.md`, "Rebuilds").
  for (let eventIndex = 0; eventIndex < batch.length; eventIndex++) {
    const event = batch[eventIndex]!;
    let prepared: RecordedEvent | null = null;
    for (let step = 0; step < order.length; step++) {
      const index = order[step]!;
      if (event.position <= last[index]!) continue;
      last[index] = event.position;
      const build = builds[index]!;
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

/** Points each build that reads other projections at their builds in the same call. */
function connectReads(builds: readonly ProjectionBuild[], transactions: readonly ProjectionBatch[]): void {
  for (const [index, build] of builds.entries()) {
    for (const read of build.projection.reads ?? []) {
      const source = builds.findIndex((candidate) => candidate.projection.name === read.name);
      if (source === -1)
        throw new Error(`Projection ${build.projection.name} reads ${read.name}, which must be projected with it`);
      if (builds[source]!.checkpoint !== build.checkpoint)
        throw new Error(
          `Projection ${build.projection.name} (at ${build.checkpoint}) reads ${read.name} (at ` +
            `${builds[source]!.checkpoint}): they must be at the same position; rebuild ${build.projection.name}`,
        );
      for (const collection of Object.keys(read.collections))
        transactions[index]!.readThrough(collection, transactions[source]!);
    }
  }
}

/** Indexes of the builds in the order each event is applied: readers before what they read. */
function applyOrder(builds: readonly ProjectionBuild[]): number[] {
  const read = new Set(builds.flatMap((build) => (build.projection.reads ?? []).map((source) => source.name)));
  const indexes = builds.map((_, index) => index);
  return [
    ...indexes.filter((index) => !read.has(builds[index]!.projection.name)),
    ...indexes.filter((index) => read.has(builds[index]!.projection.name)),
  ];
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
