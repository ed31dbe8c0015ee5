import type { EventStore } from '../eventstore/event-store.ts';
import { upcastRecordedEvent } from '../eventstore/upcast-recorded-event.ts';
import type { CollectionOptions, DocumentStore } from '../readstore/document-store.ts';
import { projectBatches, type ProjectionBuild } from './projection-batch.ts';
import { physicalCollectionName, type Projection } from './projection.ts';
import { projectionStates } from './projection-state.ts';
import { WrittenDocuments } from './written-documents.ts';

/**
 * Events per batch. The writer thread groups batches into commits of its own (`SqliteBuildFile`),
 * so a batch need not be large for the writes' sake; smaller ones keep less of the main thread's
 * memory alive while in flight, which its young-generation collections copy (a million events:
 * 32.9–33.6 s at 1,250 against 34.0–34.8 at 5,000, `docs/benchmarks.md`, "Rebuilds").
 */
const DEFAULT_BATCH_SIZE = 1_250;
/** 16 MiB of Bloom filter: few false positives up to tens of millions of documents. */
const WRITTEN_BITS = 1 << 27;

/** A projection and the generation number its build carries (the one queries read by name). */
export interface BuildTarget {
  projection: Projection;
  generation: number;
}

interface Build extends ProjectionBuild {
  checkpoint: number;
}

export interface ReadStoreBuildOptions {
  batchSize?: number;
}

/**
 * Every projection built from the start of the log into a store of its own that nobody reads yet
 * (`docs/architecture.md`, "Blue/green rebuilds"): all projections in the same batches, so those
 * that read others (`Projection.reads`) read them as of each event; list indexes made once, at
 * the end. The caller switches queries to the store once it has caught up.
 */
export class ReadStoreBuild {
  private readonly builds: Build[];
  private readonly batchSize: number;

  constructor(
    private readonly events: EventStore,
    private readonly store: DocumentStore,
    targets: readonly BuildTarget[],
    options: ReadStoreBuildOptions = {},
  ) {
    // The store starts empty: only what the build writes exists in it.
    const written = new WrittenDocuments(WRITTEN_BITS);
    this.builds = targets.map((target) => ({ ...target, checkpoint: 0, written }));
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    store.plannedCollections?.(this.collections());
  }

  /** Every collection the builds write, by its name in the store, with its options. */
  private collections(): Map<string, CollectionOptions> {
    return new Map(
      this.builds.flatMap((build) =>
        Object.entries(build.projection.collections).map(
          ([logical, options]) => [physicalCollectionName(logical, build.generation), options] as const,
        ),
      ),
    );
  }

  /** The log position every projection of the build has applied. */
  get position(): number {
    return Math.min(...this.builds.map((build) => build.checkpoint));
  }

  /**
   * Applies the events of the log after the build's position, until the log has no more;
   * `onBatch` is told the position after each batch. Returns the position reached.
   */
  async catchUp(onBatch?: (position: number) => void): Promise<number> {
    for (;;) {
      const batch = await this.events.readAll({ afterPosition: this.position, maxCount: this.batchSize });
      if (batch.length === 0) return this.position;
      const checkpoints = await projectBatches(this.store, this.builds, batch, upcastRecordedEvent);
      for (const [index, build] of this.builds.entries()) build.checkpoint = checkpoints[index]!;
      onBatch?.(this.position);
      // A turn of the event loop per batch: otherwise nothing but microtasks runs until the store
      // first waits on its file, and the builder's timers (its lease's renewal, its progress
      // record) starve for as long, past the lease's expiry on a busy machine.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Makes every collection's list indexes (one pass over each table instead of an update per
   * write) and records each build as its projection's active generation in the store.
   */
  async finish(startedAt: string): Promise<void> {
    for (const [name, options] of this.collections()) this.store.collection(name, options);
    const finishedAt = new Date().toISOString();
    // All at once: a store that writes on another thread (`SqliteBuildFile`) then takes them in one go.
    await Promise.all(
      this.builds.map((build) =>
        projectionStates(this.store).put({
          id: build.projection.name,
          created: 0,
          activeGeneration: build.generation,
          rebuild: {
            generation: build.generation,
            startedAt,
            position: build.checkpoint,
            headPosition: build.checkpoint,
            finishedAt,
          },
        }),
      ),
    );
  }
}
