import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventHandler,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from '../../packages/eventstore/event-store.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/**
 * The event store with its appends counted and timed (`payments_events_appended_total`,
 * `payments_event_append_duration_seconds`); everything else goes straight to the store.
 */
export class MeasuredEventStore implements EventStore {
  constructor(
    private readonly store: EventStore,
    private readonly metrics: ServiceMetrics,
  ) {}

  async appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const stop = this.metrics.appendDuration.startTimer();
    try {
      const result = await this.store.appendToStream(streamId, events, options);
      stop({ outcome: 'appended' });
      // The stream's resource: `charge` of `charge-char_…`.
      this.metrics.eventsAppended.inc({ stream: streamId.split('-')[0] ?? 'unknown' }, events.length);
      return result;
    } catch (error) {
      stop({ outcome: error instanceof WrongExpectedRevisionError ? 'conflict' : 'error' });
      throw error;
    }
  }

  readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]> {
    return this.store.readStream(streamId, options);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.store.readAll(options);
  }

  headPosition(): Promise<number> {
    return this.store.headPosition();
  }

  sealUnhashedEvents(onProgress?: (sealed: number, total: number) => void): Promise<number> {
    return this.store.sealUnhashedEvents(onProgress);
  }

  subscribeToAll(handler: EventHandler, options?: SubscribeOptions): Subscription {
    return this.store.subscribeToAll(handler, options);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
