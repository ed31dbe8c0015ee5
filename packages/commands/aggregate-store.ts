import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Decider, DomainEvent } from '../domain/decider.ts';
import { NotFoundError } from '../domain/errors.ts';
import {
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
} from '../eventstore/event-store.ts';
import { currentSchemaVersion, upcastRecordedEvent } from '../eventstore/upcast-recorded-event.ts';
import type { CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { Tenant } from '../domain/tenant.ts';
import { ConflictRetriesExhaustedError } from './conflict-retries-exhausted.ts';
import { KeyedLock } from './keyed-lock.ts';

export interface LoadedAggregate<State> {
  state: State;
  /** Revision of the last event, or null when the stream does not exist. */
  revision: number | null;
  /** The stream's events, upcast to their current shapes. */
  events: RecordedEvent[];
}

export interface ExecuteResult<State, Event> {
  state: State;
  /** Events this command recorded (empty when it changed nothing). */
  events: Event[];
  /** Global position of the last recorded event; null when nothing was recorded. */
  position: number | null;
}

export interface ConflictRetryOptions {
  /** Bounded: a hot stream under heavy contention fails deliberately instead of spinning. Default 10. */
  maxRetries?: number;
  /** Ceiling of the first retry's wait, doubled for each further retry up to maxDelayMs. Default 5 ms. */
  baseDelayMs?: number;
  /** Default 250 ms: the ten retries together then wait between 0.7 and 1.3 s. */
  maxDelayMs?: number;
}

/**
 * The wait before the n-th retry (0-based): exponential, capped, and jittered over its upper half,
 * so that writers that collided once do not collide again in lockstep.
 */
export function conflictRetryDelayMs(retry: number, options: Required<ConflictRetryOptions>): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Streams `loadKept` keeps at most (accounts); beyond, it starts afresh. */
const MAX_KEPT_STREAMS = 10_000;

interface KeptStream<State> {
  decider: unknown;
  accountId: string;
  mode: string;
  loaded: LoadedAggregate<State>;
}

/**
 * Loads aggregates from their streams and runs commands against them with optimistic
 * concurrency (`docs/architecture.md`, "Optimistic concurrency"): decide on the current revision, append expecting it, and on a
 * conflict wait a little (backing off), reload and decide again; out of retries, the command fails
 * with ConflictRetriesExhaustedError and records nothing.
 */
export class AggregateStore {
  private readonly streamLocks = new KeyedLock();
  private readonly keptStreams = new Map<string, KeptStream<unknown>>();
  private readonly retry: Required<ConflictRetryOptions>;

  constructor(
    private readonly events: EventStore,
    retry: ConflictRetryOptions = {},
  ) {
    this.retry = { maxRetries: 10, baseDelayMs: 5, maxDelayMs: 250, ...retry };
  }

  /**
   * Loads a stream as seen by one tenant: a stream of another account or mode is reported as
   * missing, exactly like a stream that does not exist.
   */
  async load<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    streamId: string,
    tenant: Tenant,
  ): Promise<LoadedAggregate<State>> {
    const recorded = await this.events.readStream(streamId);
    const first = recorded[0];
    if (!first || first.metadata.accountId !== tenant.accountId || first.metadata.mode !== tenant.mode) {
      return emptyAggregate(decider);
    }
    const { state, events } = foldRecorded(decider, decider.initialState(), recorded);
    return { state, revision: recorded[recorded.length - 1]!.revision, events };
  }

  /**
   * `load` for streams read by many commands and rarely written (an account's settings): the
   * state is kept after a load, and a later load reads only the events appended since (one index
   * lookup when there are none), from whichever process appended them.
   */
  async loadKept<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    streamId: string,
    tenant: Tenant,
  ): Promise<LoadedAggregate<State>> {
    const kept = this.keptStreams.get(streamId) as KeptStream<State> | undefined;
    if (!kept || kept.decider !== decider || kept.accountId !== tenant.accountId || kept.mode !== tenant.mode) {
      const loaded = await this.load(decider, streamId, tenant);
      if (loaded.revision !== null) this.keep(streamId, { decider, ...tenant, loaded });
      return loaded;
    }
    const newer = await this.events.readStream(streamId, { fromRevision: kept.loaded.revision! + 1 });
    if (newer.length === 0) return kept.loaded;
    const { state, events } = foldRecorded(decider, kept.loaded.state, newer);
    const loaded = { state, revision: newer[newer.length - 1]!.revision, events: [...kept.loaded.events, ...events] };
    this.keep(streamId, { decider, ...tenant, loaded });
    return loaded;
  }

  private keep(streamId: string, kept: KeptStream<unknown>): void {
    if (!this.keptStreams.has(streamId) && this.keptStreams.size >= MAX_KEPT_STREAMS) this.keptStreams.clear();
    this.keptStreams.set(streamId, kept);
  }

  /**
   * For a command that creates a stream under an id derived from an idempotent request
   * (`createdObjectId`): the log position of the stream's last event when an earlier run of the
   * same request created it already (cut short by a crash before it answered), else undefined.
   */
  async createdEarlier(streamId: string, context: CommandContext): Promise<number | undefined> {
    if (context.requestToken === undefined) return undefined;
    const recorded = await this.events.readStream(streamId);
    const first = recorded[0];
    if (!first || first.metadata.accountId !== context.accountId || first.metadata.mode !== context.mode)
      return undefined;
    return recorded[recorded.length - 1]!.position;
  }

  /**
   * Loads the stream of an object a command creates, as an earlier run of the same request (cut
   * short by a crash) may have left it. A stream named by an id drawn at random for this command
   * (`streamIsNew`) cannot have been written to, and is not read.
   */
  async loadBeforeCreating<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    streamId: string,
    tenant: Tenant,
    streamIsNew: boolean,
  ): Promise<LoadedAggregate<State>> {
    return streamIsNew ? emptyAggregate(decider) : this.load(decider, streamId, tenant);
  }

  /** Loads a stream that must exist for the tenant, or throws NotFoundError. */
  async loadExisting<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    streamId: string,
    tenant: Tenant,
    notFound: { objectName: string; objectId: string },
  ): Promise<LoadedAggregate<State>> {
    const loaded = await this.load(decider, streamId, tenant);
    if (loaded.revision === null) throw new NotFoundError(notFound.objectName, notFound.objectId);
    return loaded;
  }

  /**
   * Decides `command` against the stream's current state and appends the resulting events.
   * `decide` may be a function of the loaded state, so that callers can build the command from
   * what they read (e.g. the amount still refundable). `streamIsNew` (an id drawn at random for
   * this command) skips reading the stream the first time: should it exist after all, the append
   * fails on its expected revision and the retry reads it.
   */
  async execute<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    streamId: string,
    command: Command | ((state: State) => Command),
    context: CommandContext,
    options: { streamIsNew?: boolean } = {},
  ): Promise<ExecuteResult<State, Event>> {
    return this.streamLocks.run(streamId, () =>
      this.decideAndAppend(decider, streamId, command, context, options.streamIsNew ?? false),
    );
  }

  /**
   * `execute` on the stream of the object `id`, answered as a command service answers: the
   * object's id and the log position to wait for before reading it.
   */
  async executeOn<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    streamOf: (id: string) => string,
    id: string,
    command: Command | ((state: State) => Command),
    context: CommandContext,
    options: { streamIsNew?: boolean } = {},
  ): Promise<CommandOutcome> {
    const result = await this.execute(decider, streamOf(id), command, context, options);
    return { id, position: result.position };
  }

  private async decideAndAppend<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    streamId: string,
    command: Command | ((state: State) => Command),
    context: CommandContext,
    streamIsNew: boolean,
  ): Promise<ExecuteResult<State, Event>> {
    for (let attempt = 0; ; attempt++) {
      const loaded =
        attempt === 0 && streamIsNew ? emptyAggregate(decider) : await this.load(decider, streamId, context);
      const concrete = typeof command === 'function' ? (command as (state: State) => Command)(loaded.state) : command;
      const decided = decider.decide(concrete, loaded.state);
      if (decided.length === 0) return { state: loaded.state, events: [], position: null };
      try {
        const metadata = eventMetadata(context);
        const newEvents = decided.map((event) => ({
          id: randomUUID(),
          type: event.type,
          data: { ...event.data },
          metadata: { ...metadata, schemaVersion: currentSchemaVersion(event.type) },
        }));
        const appended = await this.events.appendToStream(streamId, newEvents, {
          expectedRevision: loaded.revision ?? 'no_stream',
        });
        const state = decided.reduce(decider.evolve, loaded.state);
        return { state, events: decided, position: appended.position };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt >= this.retry.maxRetries) throw new ConflictRetriesExhaustedError(streamId, attempt + 1);
        await sleep(conflictRetryDelayMs(attempt, this.retry));
      }
    }
  }
}

/** Folds recorded events onto `state`. Stored events may be older shapes: deciders only ever see the current one. */
function foldRecorded<Event extends DomainEvent, State>(
  decider: { evolve(state: State, event: Event): State },
  state: State,
  recorded: readonly RecordedEvent[],
): { state: State; events: RecordedEvent[] } {
  const events = recorded.map(upcastRecordedEvent);
  for (const event of events) state = decider.evolve(state, toDomainEvent<Event>(event));
  return { state, events };
}

function emptyAggregate<State>(decider: { initialState(): State }): LoadedAggregate<State> {
  return { state: decider.initialState(), revision: null, events: [] };
}

function eventMetadata(context: CommandContext): EventMetadata {
  const metadata: EventMetadata = {
    accountId: context.accountId,
    mode: context.mode,
    actor: context.actor,
    requestId: context.requestId,
    occurredAt: context.now().toISOString(),
  };
  if (context.idempotencyKey !== undefined) metadata.idempotencyKey = context.idempotencyKey;
  if (context.correlationId !== undefined) metadata.correlationId = context.correlationId;
  if (context.testClockId !== undefined) metadata.testClockId = context.testClockId;
  if (context.causationId !== undefined) metadata.causationId = context.causationId;
  return metadata;
}

export function toDomainEvent<Event extends DomainEvent>(recorded: RecordedEvent): Event {
  return { type: recorded.type, data: recorded.data } as unknown as Event;
}
