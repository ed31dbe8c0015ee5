import { EventEmitter } from 'node:events';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/event-store.ts';
import { upcastRecordedEvent } from '../eventstore/upcast-recorded-event.ts';
import type { DocumentStore } from '../readstore/document-store.ts';
import { AsyncLock } from './async-lock.ts';
import { projectBatches } from './projection-batch.ts';
import { checkpointKey, physicalCollectionName, type Projection } from './projection.ts';
import { projectionStates, readProjectionState } from './projection-state.ts';

/** One build of one projection and how far it has got. */
interface Slot {
  projection: Projection;
  generation: number;
  checkpoint: number;
}

export interface RebuildProgress {
  projection: string;
  generation: number;
  position: number;
  headPosition: number;
}

export interface ProjectionRunnerOptions {
  batchSize?: number;
  /** How long a replaced build stays readable after a switch, for readers still using it. */
  dropGraceMs?: number;
  /** How often to look for rebuild requests made by operators. */
  requestPollMs?: number;
  onError?: (error: Error) => void;
}

interface RunnerEvents {
  committed: [projection: string, generation: number, position: number];
  switched: [projection: string, generation: number];
  progress: [progress: RebuildProgress];
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
  private buffer: RecordedEvent[] = [];
  private flushScheduled = false;
  private subscription: Subscription | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private requestTimer: NodeJS.Timeout | null = null;
  private readonly dropTimers = new Set<NodeJS.Timeout>();
  private stopped = true;
  private readonly batchSize: number;

  constructor(
    private readonly events: EventStore,
    private readonly store: DocumentStore,
    private readonly projections: Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    super();
    this.batchSize = options.batchSize ?? 500;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.loadSlots();
    this.subscribe();
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
    for (const timer of this.dropTimers) clearTimeout(timer);
    this.dropTimers.clear();
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

  private async loadSlots(): Promise<void> {
    for (const projection of this.projections) {
      const state = await readProjectionState(this.store, projection.name);
      const checkpoint = (await this.store.getCheckpoint(checkpointKey(projection.name, state.activeGeneration))) ?? 0;
      this.live.set(projection.name, { projection, generation: state.activeGeneration, checkpoint });
    }
  }

  private subscribe(): void {
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
        if (!this.stopped) this.subscribe();
      })().catch((restartError: Error) => this.recover(restartError));
    }, 1000);
    this.restartTimer.unref();
  }

  private async receive(event: RecordedEvent): Promise<void> {
    this.buffer.push(event);
    if (this.buffer.length >= this.batchSize) {
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
      await this.applyBatch([...this.live.values()], batch);
    });
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

  private async runRebuild(name: string): Promise<void> {
    const live = this.live.get(name);
    if (!live) throw new Error(`Unknown projection: ${name}`);
    const state = await readProjectionState(this.store, name);
    const generation = Math.max(state.activeGeneration, state.rebuild?.generation ?? 0, live.generation) + 1;
    for (const logical of Object.keys(live.projection.collections)) {
      await this.store.dropCollection(physicalCollectionName(logical, generation));
    }
    const slot: Slot = { projection: live.projection, generation, checkpoint: 0 };
    const startedAt = new Date().toISOString();
    const report = async (headPosition: number, finishedAt?: string): Promise<void> => {
      const progress = { projection: name, generation, position: slot.checkpoint, headPosition };
      this.emit('progress', progress);
      const current = await readProjectionState(this.store, name);
      await projectionStates(this.store).put({
        ...current,
        rebuild: {
          generation,
          startedAt,
          position: slot.checkpoint,
          headPosition,
          ...(finishedAt ? { finishedAt } : {}),
        },
      });
    };

    // Catch up outside the lock: the live build keeps serving and projecting meanwhile.
    let head = await this.events.headPosition();
    await report(head);
    let lastReport = Date.now();
    for (;;) {
      const batch = await this.events.readAll({ afterPosition: slot.checkpoint, maxCount: this.batchSize });
      if (batch.length === 0) break;
      await this.applyBatch([slot], batch);
      slot.checkpoint = batch[batch.length - 1]!.position;
      if (Date.now() - lastReport > 250) {
        head = Math.max(head, slot.checkpoint);
        await report(head);
        lastReport = Date.now();
      }
    }

    // Switch under the lock so no live batch interleaves: first reach the live build's checkpoint.
    await this.lock.run(async () => {
      const current = this.live.get(name)!;
      while (slot.checkpoint < current.checkpoint) {
        const batch = await this.events.readAll({ afterPosition: slot.checkpoint, maxCount: this.batchSize });
        if (batch.length === 0) break;
        await this.applyBatch([slot], batch);
        slot.checkpoint = batch[batch.length - 1]!.position;
      }
      const latest = await readProjectionState(this.store, name);
      const finishedAt = new Date().toISOString();
      await projectionStates(this.store).put({
        ...latest,
        activeGeneration: generation,
        rebuild: {
          generation,
          startedAt,
          position: slot.checkpoint,
          headPosition: Math.max(head, slot.checkpoint),
          finishedAt,
        },
      });
      this.live.set(name, slot);
      this.emit('switched', name, generation);
      this.emit('committed', name, generation, slot.checkpoint);
      this.scheduleDrop(current);
    });
  }

  private scheduleDrop(replaced: Slot): void {
    const timer = setTimeout(() => {
      this.dropTimers.delete(timer);
      // A timer cannot await; a failed drop is reported through onError below.
      void (async () => {
        for (const logical of Object.keys(replaced.projection.collections)) {
          await this.store.dropCollection(physicalCollectionName(logical, replaced.generation));
        }
      })().catch((error: Error) => this.options.onError?.(error));
    }, this.options.dropGraceMs ?? 5000);
    timer.unref();
    this.dropTimers.add(timer);
  }

  /** Operators ask for rebuilds by flagging the projection's state (see the CLI). */
  private async serveRebuildRequests(): Promise<void> {
    try {
      for (const name of this.live.keys()) {
        if (this.rebuilding.has(name)) continue;
        const state = await readProjectionState(this.store, name);
        if (!state.rebuildRequestedAt) continue;
        await projectionStates(this.store).put({ ...state, rebuildRequestedAt: null });
        this.rebuild(name).catch((error: Error) => this.options.onError?.(error));
      }
    } catch (error) {
      this.options.onError?.(error as Error);
    }
  }
}
