import type { DocumentStore } from '../readstore/document-store.ts';
import { physicalCollectionName, type Projection } from './projection.ts';
import { projectionStates, readProjectionState, type ProjectionStateDoc } from './projection-state.ts';

/**
 * The builds (generations) of the projections of one runner: numbers for new builds and for
 * shadow builds, and dropping a build's collections, at once or after a grace period for readers
 * still using a build that was replaced.
 */
export class ProjectionBuilds {
  private readonly dropTimers = new Set<NodeJS.Timeout>();
  private readonly allocatedGenerations = new Map<string, number>();
  private shadowBuilds = 0;

  constructor(
    private readonly store: DocumentStore,
    private readonly dropGraceMs: number,
    private readonly onError: (error: Error) => void,
  ) {}

  /**
   * A generation number for a new build of a projection, never handed out before by this runner
   * nor recorded in its state, nor that of its live build (so concurrent rebuilds never share a
   * build); its collections are dropped first, in case an interrupted build left them behind.
   */
  async nextGeneration(projection: Projection, liveGeneration: number): Promise<number> {
    const state = await readProjectionState(this.store, projection.name);
    const generation =
      Math.max(
        state.activeGeneration,
        state.rebuild?.generation ?? 0,
        liveGeneration,
        this.allocatedGenerations.get(projection.name) ?? 0,
      ) + 1;
    this.allocatedGenerations.set(projection.name, generation);
    await this.drop(projection, generation);
    return generation;
  }

  /**
   * A build that only a rebuild reads (a shadow): numbered below zero, so the generations that
   * serve queries keep counting 1, 2, 3…
   */
  async shadowGeneration(projection: Projection): Promise<number> {
    const generation = -++this.shadowBuilds;
    await this.drop(projection, generation);
    return generation;
  }

  async drop(projection: Projection, generation: number): Promise<void> {
    for (const logical of Object.keys(projection.collections)) {
      await this.store.dropCollection(physicalCollectionName(logical, generation));
    }
  }

  /** Drops a replaced build once the grace period is over; a failed drop goes to `onError`. */
  dropLater(projection: Projection, generation: number): void {
    const timer = setTimeout(() => {
      this.dropTimers.delete(timer);
      // A timer cannot await; a failed drop is reported through onError below.
      this.drop(projection, generation).catch((error: Error) => this.onError(error));
    }, this.dropGraceMs);
    timer.unref();
    this.dropTimers.add(timer);
  }

  /**
   * Records how far a rebuild has got in the projection's state (the CLI and console read it), and
   * with `activeGeneration`, that its build now serves queries.
   */
  async recordRebuild(
    name: string,
    rebuild: NonNullable<ProjectionStateDoc['rebuild']>,
    activeGeneration?: number,
  ): Promise<void> {
    const current = await readProjectionState(this.store, name);
    await projectionStates(this.store).put({
      ...current,
      ...(activeGeneration !== undefined ? { activeGeneration } : {}),
      rebuild,
    });
  }

  /** Forgets the drops not made yet (the runner stops). */
  cancelDrops(): void {
    for (const timer of this.dropTimers) clearTimeout(timer);
    this.dropTimers.clear();
  }
}
