import type { Collection, CollectionOptions, Document, DocumentStore } from '../readstore/document-store.ts';
import { checkpointKey, physicalCollectionName, type Projection } from './projection.ts';
import { projectionStates } from './projection-state.ts';
import type { ProjectionRunner } from './projection-runner.ts';
import type { ReadModelCollection } from './read-model-collection.ts';

interface Owner {
  projection: string;
  options: CollectionOptions;
}

interface Waiter {
  position: number;
  /** The projection waited for; every projection when absent. */
  projection?: string;
  resolve: (caughtUp: boolean) => void;
  timer: NodeJS.Timeout;
}

export interface ReadModelsOptions {
  /** How often the active build of each projection is re-read (another process may switch it). */
  refreshMs?: number;
  /** How often waiters poll checkpoints when no in-process runner reports commits. */
  pollMs?: number;
}

/**
 * The query side's view of the projections: resolves a logical collection to the build that
 * currently serves it, and lets a command wait until its events are projected
 * (`docs/architecture.md`, "Read-your-writes").
 */
export class ReadModels {
  private readonly owners = new Map<string, Owner>();
  private readonly active = new Map<string, number>();
  private readonly checkpoints = new Map<string, number>();
  private readonly waiters = new Set<Waiter>();
  private refreshTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private inProcessRunner = false;
  private settleScheduled = false;

  constructor(
    private readonly store: DocumentStore,
    private readonly projections: Projection[],
    private readonly options: ReadModelsOptions = {},
  ) {
    for (const projection of projections) {
      this.active.set(projection.name, 1);
      for (const [logical, collectionOptions] of Object.entries(projection.collections)) {
        this.owners.set(logical, { projection: projection.name, options: collectionOptions });
      }
    }
  }

  async start(): Promise<void> {
    await this.refresh();
    this.refreshTimer = setInterval(() => void this.refresh().catch(() => undefined), this.options.refreshMs ?? 1000);
    this.refreshTimer.unref();
  }

  stop(): void {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters.clear();
  }

  /** Follow a runner of this process: commits and switches are seen at once, without polling. */
  attach(runner: ProjectionRunner): void {
    this.inProcessRunner = true;
    for (const [name, { generation, position }] of runner.checkpoints()) {
      this.active.set(name, generation);
      this.checkpoints.set(name, position);
    }
    runner.on('switched', (name, generation) => this.active.set(name, generation));
    runner.on('committed', (name, generation, position) => {
      if (this.active.get(name) !== generation) return;
      this.checkpoints.set(name, position);
      // A batch's commit moves every projection at once: settle the waiters once, after all of them.
      if (this.settleScheduled) return;
      this.settleScheduled = true;
      queueMicrotask(() => {
        this.settleScheduled = false;
        this.settleWaiters();
      });
    });
  }

  /** The build of a read-model collection that serves queries now. */
  collection<T extends Document>(logical: ReadModelCollection<T>): Collection<T> {
    const owner = this.owners.get(logical.name);
    if (!owner) throw new Error(`No projection owns the collection ${logical.name}`);
    const generation = this.active.get(owner.projection) ?? 1;
    return this.store.collection<T>(physicalCollectionName(logical.name, generation), owner.options);
  }

  /**
   * How far one projection's serving build has applied the log, as this process last saw it:
   * at once for an in-process runner's commits, otherwise as of the last refresh (every second).
   */
  projectedPosition(projection: string): number {
    return this.checkpoints.get(projection) ?? 0;
  }

  /** Lowest checkpoint over all projections: everything up to it is visible to queries. */
  visiblePosition(): number {
    let lowest = Number.POSITIVE_INFINITY;
    for (const projection of this.projections) lowest = Math.min(lowest, this.checkpoints.get(projection.name) ?? 0);
    return Number.isFinite(lowest) ? lowest : 0;
  }

  /** Resolves true once every projection has applied `position`, false on timeout. */
  waitFor(position: number, timeoutMs: number): Promise<boolean> {
    return this.wait(position, timeoutMs);
  }

  /** Resolves true once the serving build of one projection has applied `position`, false on timeout. */
  waitForProjection(projection: string, position: number, timeoutMs: number): Promise<boolean> {
    return this.wait(position, timeoutMs, projection);
  }

  private wait(position: number, timeoutMs: number, projection?: string): Promise<boolean> {
    if (this.reached(position, projection)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        projection,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
      this.ensurePolling();
    });
  }

  /**
   * Re-reads which build serves each projection; true when one changed since this process last
   * looked. A rebuild switched by another process (the CLI) is otherwise seen here only at the
   * next refresh (every second): a read that found nothing asks this first, so that it does not
   * answer "does not exist" from the build just retired for an object the new one holds.
   */
  async switchedSinceLastLook(): Promise<boolean> {
    const before = JSON.stringify([...this.active.entries()]);
    await this.refresh();
    return JSON.stringify([...this.active.entries()]) !== before;
  }

  /** Re-reads which build serves each projection, and (out of process) the checkpoints. */
  async refresh(): Promise<void> {
    const states = await projectionStates(this.store).getMany(this.projections.map((projection) => projection.name));
    for (const state of states) this.active.set(state.id, state.activeGeneration);
    if (!this.inProcessRunner) await this.readCheckpoints();
  }

  private async readCheckpoints(): Promise<void> {
    for (const projection of this.projections) {
      const generation = this.active.get(projection.name) ?? 1;
      const position = await this.store.getCheckpoint(checkpointKey(projection.name, generation));
      this.checkpoints.set(projection.name, position ?? 0);
    }
    this.settleWaiters();
  }

  private ensurePolling(): void {
    if (this.inProcessRunner || this.pollTimer) return;
    this.pollTimer = setInterval(() => {
      if (this.waiters.size === 0) {
        clearInterval(this.pollTimer!);
        this.pollTimer = null;
        return;
      }
      // A failed poll is retried on the next tick; the waiters time out on their own.
      void this.readCheckpoints().catch(() => undefined);
    }, this.options.pollMs ?? 20);
    this.pollTimer.unref();
  }

  private reached(position: number, projection?: string): boolean {
    return (projection === undefined ? this.visiblePosition() : this.projectedPosition(projection)) >= position;
  }

  private settleWaiters(): void {
    for (const waiter of this.waiters) {
      if (!this.reached(waiter.position, waiter.projection)) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve(true);
    }
  }
}
