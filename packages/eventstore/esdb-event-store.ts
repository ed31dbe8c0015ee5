import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from '@eventstore/db-client';
import type {
  AllStreamRecordedEvent,
  AllStreamSubscription,
  AppendExpectedRevision,
  Direction,
  EventData,
  Position,
  ReadPosition,
  RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventHandler,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './event-store.ts';
import { chainHead, eventHash, GENESIS_HASH } from './event-hash.ts';
import { reportSubscriptionFailure } from './subscription-failure.ts';

/** Events per round trip when reading $all. */
const READ_PAGE_SIZE = 500;
/** Events per round trip when looking backwards for the last non-system event. */
const HEAD_PAGE_SIZE = 20;
/** A subscription gives up after this many failed attempts in a row to (re)subscribe. */
const MAX_CONSECUTIVE_FAILURES = 10;
const RETRY_BASE_DELAY_MS = 100;
const RETRY_MAX_DELAY_MS = 5_000;
/** An 'any' append whose stream moved between reading its head hash and appending tries again this often. */
const MAX_ANY_APPEND_ATTEMPTS = 20;
/** Metadata key of the tamper-evidence hash (`event-hash.ts`); readers see it as `RecordedEvent.hash`. */
const HASH_KEY = 'eventHash';

/**
 * EventStore adapter for the distributed profile, on EventStoreDB (server 22.10 or later, which
 * returns each event's position in stream reads).
 *
 * - Position is the event's prepare position in the transaction log, as a number: a byte offset, so
 *   it stays a safe integer up to 8 PiB of log. We never use (legacy TCP) explicit transactions, so
 *   commit and prepare positions are equal and `{ commit: p, prepare: p }` addresses the event at p.
 * - System events (types starting with `$`) are invisible: readAll, headPosition and subscriptions skip them.
 * - Retried appends are idempotent as far as the server makes them so: an append of the same event ids
 *   with the same exact expected revision succeeds again without writing twice.
 * - Tamper evidence: each event's hash (`event-hash.ts`) is computed from the event the append
 *   expects to follow and kept in its metadata. The append is conditional on that event still being
 *   the stream's last, so the chain holds under concurrency: an 'any' append is sent expecting the
 *   revision whose hash it used, and tried again when another append got in between. Events are
 *   immutable here, so events recorded before the log kept hashes stay without one; the next append
 *   chains over them and checkpoints cover them (`docs/audit.md`).
 */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<EsdbSubscription>();

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError(`Stream ${streamId}: nothing to append`);
    const { expectedRevision } = options;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.appendChained(streamId, events, expectedRevision);
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          // 'any' expects no revision: the conflict is only with the revision whose hash we chained to.
          if (expectedRevision === 'any' && attempt < MAX_ANY_APPEND_ATTEMPTS) continue;
          const actual = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
          throw new WrongExpectedRevisionError(streamId, expectedRevision, actual);
        }
        throw error;
      }
    }
  }

  async sealUnhashedEvents(): Promise<number> {
    // EventStoreDB never changes a recorded event: nothing to seal in place (see the class comment).
    return 0;
  }

  /** One conditional append of the events, hashed in a chain from the event they follow. */
  private async appendChained(
    streamId: string,
    events: NewEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    const head = await this.chainHeadAt(streamId, expectedRevision);
    let previousHash = head.hash;
    const hashed = events.map((event, index) => {
      previousHash = eventHash(previousHash, {
        streamId,
        revision: head.nextRevision + index,
        id: event.id,
        type: event.type,
        // Hashed as stored: after the JSON round trip the server and every reader see.
        data: JSON.parse(JSON.stringify(event.data)),
        metadata: JSON.parse(JSON.stringify(event.metadata)) as EventMetadata,
      });
      return toEventData(event, previousHash);
    });
    const result = await this.client.appendToStream(streamId, hashed, { expectedRevision: head.expected });
    const nextExpectedRevision = Number(result.nextExpectedRevision);
    // The write's reported position is the last event's only when the write holds a single event.
    const position =
      events.length === 1 && result.position
        ? Number(result.position.prepare)
        : await this.positionOfEvent(streamId, nextExpectedRevision);
    return { nextExpectedRevision, position };
  }

  /**
   * The hash the appended events chain to, the revision of the first of them and the expected
   * revision to append with: the event `expected` names (for 'any', the stream's last), whose
   * hash is recomputed over the stream when it was recorded without one.
   */
  private async chainHeadAt(
    streamId: string,
    expected: ExpectedRevision,
  ): Promise<{ hash: string; nextRevision: number; expected: AppendExpectedRevision }> {
    const start = { hash: GENESIS_HASH, nextRevision: 0, expected: NO_STREAM } as const;
    if (expected === 'no_stream') return start;
    const previous =
      expected === 'any'
        ? await this.lastEvent(streamId)
        : (await this.readStream(streamId, { fromRevision: expected, maxCount: 1 }))[0];
    // A missing event: the server refuses the expected revision and reports the actual one.
    if (!previous) return expected === 'any' ? start : { ...start, expected: BigInt(expected) };
    const hash = previous.hash ?? chainHead(await this.readStream(streamId, { maxCount: previous.revision + 1 }));
    return { hash, nextRevision: previous.revision + 1, expected: BigInt(previous.revision) };
  }

  private async lastEvent(streamId: string): Promise<RecordedEvent | undefined> {
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      })) {
        if (resolved.event) return toRecordedEvent(resolved.event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
    return undefined;
  }

  async readStream(
    streamId: string,
    options: { fromRevision?: number; maxCount?: number } = {},
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        direction: FORWARDS,
        fromRevision: BigInt(options.fromRevision ?? 0),
        maxCount: options.maxCount,
      });
      for await (const resolved of read) {
        if (resolved.event) events.push(toRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
    const events: RecordedEvent[] = [];
    let cursor = options.afterPosition ?? 0;
    while (events.length < maxCount) {
      const page = await this.readAllPage(cursor === 0 ? START : toPosition(cursor), FORWARDS, READ_PAGE_SIZE);
      for (const event of page) {
        const position = positionOf(event);
        // A forward read includes the event at its starting position.
        if (position <= cursor) continue;
        cursor = position;
        if (!isSystemEvent(event)) events.push(toRecordedEvent(event));
      }
      if (page.length < READ_PAGE_SIZE) break;
    }
    return events.slice(0, maxCount);
  }

  async headPosition(): Promise<number> {
    let from: ReadPosition = END;
    for (;;) {
      const page = await this.readAllPage(from, BACKWARDS, HEAD_PAGE_SIZE);
      const last = page.find((event) => !isSystemEvent(event));
      if (last) return positionOf(last);
      const oldest = page.at(-1);
      if (!oldest || page.length < HEAD_PAGE_SIZE) return 0;
      from = toPosition(positionOf(oldest));
    }
  }

  subscribeToAll(handler: EventHandler, options: SubscribeOptions = {}): Subscription {
    const subscription = new EsdbSubscription(this.client, handler, options, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.unsubscribe()));
    await this.client.dispose();
  }

  private async readAllPage(
    from: ReadPosition,
    direction: Direction,
    maxCount: number,
  ): Promise<AllStreamRecordedEvent[]> {
    const page: AllStreamRecordedEvent[] = [];
    for await (const resolved of this.client.readAll({ fromPosition: from, direction, maxCount })) {
      if (resolved.event) page.push(resolved.event);
    }
    return page;
  }

  private async positionOfEvent(streamId: string, revision: number): Promise<number> {
    const [event] = await this.readStream(streamId, { fromRevision: revision, maxCount: 1 });
    if (!event) throw new Error(`Stream ${streamId}: event ${revision} just appended cannot be read`);
    return event.position;
  }
}

/**
 * One subscriber's catch-up subscription to $all. When the connection drops it resubscribes from the
 * last delivered position, backing off; events at or before that position are skipped, so a
 * re-delivered event never reaches the handler twice.
 */
class EsdbSubscription implements Subscription {
  private checkpoint: number;
  private stopped = false;
  private current: AllStreamSubscription | undefined;
  private cancelBackoff: (() => void) | undefined;
  private readonly finished: Promise<void>;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly handler: EventHandler,
    private readonly options: SubscribeOptions,
    private readonly onFinished: () => void,
  ) {
    this.checkpoint = options.afterPosition ?? 0;
    this.finished = this.run();
  }

  /**
   * Resolves once the handler will not be called again: after the call in progress, if any, has
   * settled. A handler may call it but must not await it, since it would wait for itself.
   */
  async unsubscribe(): Promise<void> {
    this.stopped = true;
    this.cancelBackoff?.();
    // A subscription that already broke may fail to cancel; it delivers nothing more either way.
    await this.current?.unsubscribe().catch(() => undefined);
    await this.finished;
  }

  private async run(): Promise<void> {
    let failures = 0;
    try {
      while (!this.stopped) {
        try {
          await this.deliver(() => (failures = 0));
        } catch (error) {
          if (error instanceof HandlerFailure) throw error.reason;
          if (this.stopped) return;
          failures += 1;
          if (failures >= MAX_CONSECUTIVE_FAILURES) throw error;
          await this.backOff(failures);
        }
      }
    } catch (error) {
      this.stopped = true;
      reportSubscriptionFailure(this.options, error);
    } finally {
      this.onFinished();
    }
  }

  /** Subscribes from the checkpoint and delivers until unsubscribed; throws when the subscription breaks. */
  private async deliver(onHealthy: () => void): Promise<void> {
    const subscription = this.client.subscribeToAll({
      fromPosition: this.checkpoint === 0 ? START : toPosition(this.checkpoint),
      filter: excludeSystemEvents(),
    });
    this.current = subscription;
    subscription.on('confirmation', onHealthy);
    try {
      for await (const resolved of subscription) {
        if (this.stopped) return;
        const event = resolved.event;
        if (!event || isSystemEvent(event)) continue;
        const position = positionOf(event);
        if (position <= this.checkpoint) continue;
        try {
          await this.handler(toRecordedEvent(event));
        } catch (error) {
          throw new HandlerFailure(error);
        }
        this.checkpoint = position;
        onHealthy();
      }
    } finally {
      // Leaving the loop early (handler failure, unsubscribe) must end the call on the server too.
      await subscription.unsubscribe().catch(() => undefined);
    }
    if (!this.stopped) throw new Error('EventStoreDB ended the subscription');
  }

  private async backOff(failures: number): Promise<void> {
    const delayMs = Math.min(RETRY_BASE_DELAY_MS * 2 ** (failures - 1), RETRY_MAX_DELAY_MS);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delayMs);
      this.cancelBackoff = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.cancelBackoff = undefined;
  }
}

/** A handler rejection: it ends the subscription at once, unlike a connection failure. */
class HandlerFailure extends Error {
  constructor(readonly reason: unknown) {
    super('Subscription handler failed');
  }
}

function toEventData(event: NewEvent, hash: string): EventData {
  return jsonEvent({
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: { ...event.metadata, [HASH_KEY]: hash },
  });
}

function toPosition(position: number): Position {
  return { commit: BigInt(position), prepare: BigInt(position) };
}

function positionOf(event: AllStreamRecordedEvent): number {
  return Number(event.position.prepare);
}

function isSystemEvent(event: EsdbRecordedEvent): boolean {
  return event.type.startsWith('$');
}

function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  if (!event.position)
    throw new Error(`Event ${event.id} came without a position: EventStoreDB 22.10 or later is required`);
  const { [HASH_KEY]: hash, ...metadata } = (event.metadata ?? {}) as EventMetadata;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: Number(event.position.prepare),
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: metadata as EventMetadata,
    recordedAt: event.created,
    ...(typeof hash === 'string' && { hash }),
  };
}
