import { EventEmitter } from 'node:events';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/event-store.ts';
import { upcastRecordedEvent } from '../eventstore/upcast-recorded-event.ts';
import type { DocumentStore } from '../readstore/document-store.ts';
import { AsyncLock } from './async-lock.ts';
import { projectBatches } from './projection-batch.ts';
import { checkpointKey, physicalCollectionName, type Projection } from './projection.ts';
import { projectionStates, readProjectionState, takeRebuildRequests } from './projection-state.ts';
import { WrittenDocuments } from './written-documents.ts';
import { ProjectionBuilds } from './projection-builds.ts';
import type { ProjectionRunnerOptions, RunnerEvents } from './projection-runner-options.ts';

export type { ProjectionRunnerOptions, RebuildProgress } from './projection-runner-options.ts';

/** One build of one projection and how far it has got. */
interface Slot {
  projection: Projection;
  generation: number;
  checkpoint: number;
  /** While a build that started empty catches up: what it has written (so reads of the rest are skipped). */
  written?: WrittenDocuments | undefined;
}

/**
 * Runs projections from their checkpoints (`docs/architecture.md`, "Projections"): one
 * subscription to the whole log, events applied in batches, the writes of every projection committed
 * together with their checkpoints in one unit per batch, so that a restart or a replayed event
 * changes nothing and a batch costs one commit however many projections it touches. Also performs blue/green rebuilds: a fresh
 * generation is built from the start of the log beside the live one and replaces it once caught up.
 */
export class ProjectionRunner extends EventEmitter<RunnerEvents> {
  private readonly live = new Map<string, Slot>();
  private readonly rebuilding = new Map<string, Promise<void>>();
  private readonly lock = new AsyncLock();
  private readonly builds: ProjectionBuilds;
  private buffer: RecordedEvent[] = [];
  private flushScheduled = false;
  private subscription: Subscription | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private requestTimer: NodeJS.Timeout | null = null;
  /** Catch-ups and rebuilds under way. */
  private bulk = 0;
  /** Live builds behind or ahead of a projection they read: rebuilt at start, skipped until then. */
  private readonly misaligned = new Set<string>();
  private stopped = true;
  private readonly batchSize: number;
  private readonly catchUpBatchSize: number;
  /** The log's head when the subscription started: until every live build has reached it, they are catching up. */
  private catchUpUntil = 0;

  constructor(
    private readonly events: EventStore,
    private readonly store: DocumentStore,
    private readonly projections: Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    super();
    this.batchSize = options.batchSize ?? 500;
    this.catchUpBatchSize = options.catchUpBatchSize ?? this.batchSize;
    this.builds = new ProjectionBuilds(store, options.dropGraceMs ?? 5000, (error) => this.options.onError?.(error));
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.loadSlots();
    await this.subscribe();
    if (this.caughtUp()) this.declareIndexes(this.liveSlots());
    else this.startBulk();
    for (const name of this.misaligned) this.rebuild(name).catch((error: Error) => this.options.onError?.(error));
    const pollMs = this.options.requestPollMs ?? 1000;
    this.requestTimer = setInterval(() => void this.serveRebuildRequests(), pollMs);
    this.requestTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.requestTimer) clearInterval(this.requestTimer);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.subscription?.unsubscribe();
    this.subscription = null;
    await this.lock.run(async () => undefined);
    await Promise.allSettled(this.rebuilding.values());
    this.builds.cancelDrops();
    if (this.bulk > 0) {
      this.bulk = 0;
      this.store.bulkWrites?.(false);
    }
  }

  /** Checkpoint of the live build of each projection. */
  checkpoints(): Map<string, { generation: number; position: number }> {
    return new Map(
      [...this.live].map(([name, slot]) => [name, { generation: slot.generation, position: slot.checkpoint }]),
    );
  }

  /**
   * Builds a fresh generation of a projection from the start of the log while the live one keeps
   * serving, then switches queries to it and drops the old one after a grace period.
   */
  rebuild(name: string): Promise<void> {
    const running = this.rebuilding.get(name);
    if (running) return running;
    const job = this.runRebuild(name).finally(() => this.rebuilding.delete(name));
    this.rebuilding.set(name, job);
    return job;
  }

  /**
   * Serves a store built beside the live one by a full rebuild (`ReadStoreBuild`, in another
   * process): under the lock, so no live batch interleaves, it applies the events the live builds
   * have applied since the build's position, then `switchTo` makes it the store queries read,
   * and the runner goes on in it. The build must hold every projection under its live generation.
   */
  adopt(candidate: DocumentStore, switchTo: () => void): Promise<void> {
    return this.lock.run(async () => {
      if (this.rebuilding.size > 0)
        throw new Error(`Rebuilds are under way (${[...this.rebuilding.keys()].join(', ')}): retry once they end`);
      const slots: Slot[] = [];
      for (const live of this.live.values()) {
        const state = await projectionStates(candidate).get(live.projection.name);
        if (!state?.rebuild?.finishedAt)
          throw new Error(`The new read store holds no finished build of ${live.projection.name}`);
        if (state.activeGeneration !== live.generation)
          throw new Error(
            `The new read store holds generation ${state.activeGeneration} of ${live.projection.name}, ` +
              `which serves generation ${live.generation} now: rebuild again`,
          );
        const checkpoint = await candidate.getCheckpoint(checkpointKey(live.projection.name, live.generation));
        slots.push({ projection: live.projection, generation: live.generation, checkpoint: checkpoint ?? 0 });
      }
      const target = Math.max(0, ...[...this.live.values()].map((slot) => slot.checkpoint));
      for (;;) {
        const from = Math.min(...slots.map((slot) => slot.checkpoint));
        if (from >= target) break;
        const batch = await this.events.readAll({ afterPosition: from, maxCount: this.catchUpBatchSize });
        const upToLive = batch.filter((event) => event.position <= target);
        if (upToLive.length === 0) break;
        const checkpoints = await projectBatches(candidate, slots, upToLive, upcastRecordedEvent);
        for (const [index, slot] of slots.entries()) slot.checkpoint = checkpoints[index]!;
      }
      switchTo();
      for (const slot of slots) this.live.set(slot.projection.name, slot);
      this.misaligned.clear();
      for (const slot of slots) this.emit('committed', slot.projection.name, slot.generation, slot.checkpoint);
    });
  }

  private async loadSlots(): Promise<void> {
    const head = await this.events.headPosition();
    let written: WrittenDocuments | undefined;
    for (const projection of this.projections) {
      const state = await readProjectionState(this.store, projection.name);
      const stored = await this.store.getCheckpoint(checkpointKey(projection.name, state.activeGeneration));
      // A build that never committed has no documents: until it catches up, only what it writes exists.
      const empty = stored === null && head > 0;
      if (empty) written ??= new WrittenDocuments();
      this.live.set(projection.name, {
        projection,
        generation: state.activeGeneration,
        checkpoint: stored ?? 0,
        written: empty ? written : undefined,
      });
    }
    this.misaligned.clear();
    for (const slot of this.live.values()) {
      const reads = slot.projection.reads ?? [];
      if (reads.some((read) => this.live.get(read.name)?.checkpoint !== slot.checkpoint))
        this.misaligned.add(slot.projection.name);
    }
  }

  /**
   * The live builds a batch is applied to: all but those not at the position of the projections
   * they read (a projection they read was added since they were built); those wait for the
   * rebuild that start() asks for, which replaces them.
   */
  private liveSlots(): Slot[] {
    return [...this.live.values()].filter((slot) => !this.misaligned.has(slot.projection.name));
  }

  private async subscribe(): Promise<void> {
    this.catchUpUntil = await this.events.headPosition();
    const from = Math.min(...[...this.live.values()].map((slot) => slot.checkpoint));
    this.subscription = this.events.subscribeToAll((event) => this.receive(event), {
      afterPosition: Number.isFinite(from) ? from : 0,
      onError: (error) => this.recover(error),
    });
  }

  /** A failed batch stops the subscription; start again from the committed checkpoints. */
  private recover(error: Error): void {
    this.options.onError?.(error);
    this.buffer = [];
    if (this.stopped) return;
    this.restartTimer = setTimeout(() => {
      // A timer cannot await; a failed restart is caught below and recovers again.
      void (async () => {
        if (this.stopped) return;
        await this.subscription?.unsubscribe().catch(() => undefined);
        await this.lock.run(() => this.loadSlots());
        if (!this.stopped) await this.subscribe();
      })().catch((restartError: Error) => this.recover(restartError));
    }, 1000);
    this.restartTimer.unref();
  }

  private async receive(event: RecordedEvent): Promise<void> {
    this.buffer.push(event);
    const batchSize = event.position < this.catchUpUntil ? this.catchUpBatchSize : this.batchSize;
    if (this.buffer.length >= batchSize) {
      await this.flush();
    } else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        this.flush().catch((error: Error) => this.recover(error));
      });
    }
  }

  private flush(): Promise<void> {
    return this.lock.run(async () => {
      const batch = this.buffer;
      this.buffer = [];
      if (batch.length === 0) return;
      const wasCaughtUp = this.caughtUp();
      await this.applyBatch(this.liveSlots(), batch);
      if (!wasCaughtUp && this.caughtUp()) {
        this.declareIndexes(this.liveSlots());
        for (const slot of this.live.values()) slot.written = undefined;
        this.endBulk();
      }
    });
  }

  /** Catching up or rebuilding: nobody waits on these commits (`DocumentStore.bulkWrites`). */
  private startBulk(): void {
    if (this.bulk++ === 0) this.store.bulkWrites?.(true);
  }

  private endBulk(): void {
    if (this.bulk > 0 && --this.bulk === 0) this.store.bulkWrites?.(false);
  }

  /** Whether every live build has applied the events that were in the log when it started. */
  private caughtUp(): boolean {
    return this.liveSlots().every((slot) => slot.checkpoint >= this.catchUpUntil);
  }

  /**
   * Makes the list indexes of the builds' collections. A build that starts from an empty store
   * gets them once it has caught up (or when a query needs them first), so a rebuild does not
   * update every index at every commit; queries then find them made.
   */
  private declareIndexes(slots: readonly Slot[]): void {
    for (const slot of slots)
      for (const [logical, options] of Object.entries(slot.projection.collections))
        this.store.collection(physicalCollectionName(logical, slot.generation), options);
  }

  /**
   * One commit for the batch across the given builds; waiting requests are told once it has landed.
   */
  private async applyBatch(slots: Slot[], batch: RecordedEvent[]): Promise<void> {
    const checkpoints = await projectBatches(this.store, slots, batch, upcastRecordedEvent);
    const moved = slots.filter((slot, index) => checkpoints[index] !== slot.checkpoint);
    for (const [index, slot] of slots.entries()) slot.checkpoint = checkpoints[index]!;
    for (const slot of moved) this.emit('committed', slot.projection.name, slot.generation, slot.checkpoint);
  }

  /**
   * A projection that reads others (`Projection.reads`) is rebuilt with its own fresh builds of
   * them (shadows: projected in the same batches so it reads each of their documents as of the
   * event it applies, never served, dropped once it has switched). The live builds of the
   * projections it reads are left alone.
   */
  private async runRebuild(name: string): Promise<void> {
    const live = this.live.get(name);
    if (!live) throw new Error(`Unknown projection: ${name}`);
    this.startBulk();
    try {
      await this.buildAndSwitch(live);
    } finally {
      this.endBulk();
    }
  }

  private async buildAndSwitch(live: Slot): Promise<void> {
    const name = live.projection.name;
    // The new builds start empty: only what they write exists in them.
    const written = new WrittenDocuments();
    const slot: Slot = {
      projection: live.projection,
      generation: await this.builds.nextGeneration(live.projection, live.generation),
      checkpoint: 0,
      written,
    };
    const shadows: Slot[] = [];
    for (const read of live.projection.reads ?? []) {
      if (!this.live.has(read.name)) throw new Error(`Projection ${name} reads ${read.name}, which is not running`);
      shadows.push({ projection: read, generation: await this.builds.shadowGeneration(read), checkpoint: 0, written });
    }
    try {
      await this.buildFrom(slot, shadows);
    } finally {
      for (const shadow of shadows) await this.builds.drop(shadow.projection, shadow.generation);
    }
  }

  /** Projects the log into the new build and its shadows, then switches queries to the new build. */
  private async buildFrom(slot: Slot, shadows: readonly Slot[]): Promise<void> {
    const name = slot.projection.name;
    const slots = [slot, ...shadows];
    const generation = slot.generation;
    const startedAt = new Date().toISOString();
    const report = async (headPosition: number): Promise<void> => {
      this.emit('progress', { projection: name, generation, position: slot.checkpoint, headPosition });
      await this.builds.recordRebuild(name, { generation, startedAt, position: slot.checkpoint, headPosition });
    };

    // Catch up outside the lock: the live build keeps serving and projecting meanwhile.
    let head = await this.events.headPosition();
    await report(head);
    let lastReport = Date.now();
    for (;;) {
      const batch = await this.events.readAll({ afterPosition: slot.checkpoint, maxCount: this.catchUpBatchSize });
      if (batch.length === 0) break;
      await this.applyBatch(slots, batch);
      if (Date.now() - lastReport > 250) {
        head = Math.max(head, slot.checkpoint);
        await report(head);
        lastReport = Date.now();
      }
    }

    this.declareIndexes([slot]);
    // The live builds of the projections it reads may be catching up themselves (one added since
    // it was built): it can only switch at a position they have reached.
    await this.liveReached(
      shadows.map((shadow) => shadow.projection.name),
      slot.checkpoint,
    );

    // Switch under the lock so no live batch interleaves: first reach the live builds' checkpoint,
    // and not beyond it (the live builds it reads are at that one between batches).
    await this.lock.run(async () => {
      const current = this.live.get(name)!;
      const target = Math.max(
        current.checkpoint,
        ...shadows.map((shadow) => this.live.get(shadow.projection.name)!.checkpoint),
      );
      while (slot.checkpoint < target) {
        const batch = await this.events.readAll({ afterPosition: slot.checkpoint, maxCount: this.catchUpBatchSize });
        const upToLive = batch.filter((event) => event.position <= target);
        if (upToLive.length === 0) break;
        await this.applyBatch(slots, upToLive);
      }
      const finishedAt = new Date().toISOString();
      const headPosition = Math.max(head, slot.checkpoint);
      const rebuild = { generation, startedAt, position: slot.checkpoint, headPosition, finishedAt };
      await this.builds.recordRebuild(name, rebuild, generation);
      slot.written = undefined;
      this.live.set(name, slot);
      this.misaligned.delete(name);
      this.emit('switched', name, generation);
      this.emit('committed', name, generation, slot.checkpoint);
      this.builds.dropLater(current.projection, current.generation);
    });
  }

  private async liveReached(names: readonly string[], position: number): Promise<void> {
    while (names.some((name) => (this.live.get(name)?.checkpoint ?? 0) < position)) {
      if (this.stopped) throw new Error('The projection runner stopped during a rebuild');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Operators ask for rebuilds by flagging the projection's state (see the CLI). */
  private async serveRebuildRequests(): Promise<void> {
    try {
      const idle = [...this.live.keys()].filter((name) => !this.rebuilding.has(name));
      for (const name of await takeRebuildRequests(this.store, idle))
        this.rebuild(name).catch((error: Error) => this.options.onError?.(error));
    } catch (error) {
      this.options.onError?.(error as Error);
    }
  }
}
