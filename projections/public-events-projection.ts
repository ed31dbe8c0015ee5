import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Document } from '../packages/readstore/document-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection-runtime/projection.ts';
import { objectCollection, ownedCollections } from '../packages/projection-runtime/read-model-collection.ts';
import { deterministicId } from './deterministic-id.ts';
import { occurredAtSeconds, tenantFields } from './event-time.ts';
import type { PublicObjectEvents } from './read-side.ts';
import { scopedIndexes } from './view-projection.ts';
import { publicObject } from './views/object-view.ts';
import type { Mode } from '../packages/domain/mode.ts';

export interface PublicEventDoc extends Document {
  objectType: 'event';
  /** A public event type (spec: Events) that the read side of the object in `data` declares. */
  type: string;
  data: Record<string, unknown>;
  log: string;
  /** Events of test-clock customers: the clock's time when it happened (Unix seconds). */
  testClockTime?: number;
  _accountId: string;
  _mode: Mode;
}

/** Several public events may come from one domain event; keep them in order after it. */
const PUBLIC_EVENTS_PER_DOMAIN_EVENT = 16;

/** GET /events[/{id}] (filter: type) and the events webhooks deliver. */
export const publicEventsCollection = objectCollection<PublicEventDoc>('events', 'Event', scopedIndexes('type'));

/** One public event a domain event produces, before it is rendered as a document. */
export interface ProducedPublicEvent {
  id: string;
  type: string;
  /** The object as it stood right after the domain event (with its internal fields). */
  object: Document;
  /** Unix seconds the domain event was recorded. */
  created: number;
  /** Log order: after every public event of earlier domain events. */
  _seq: number;
}

/**
 * The public events a domain event produces, in order, with their ids: for each kind of object
 * the event changes, the object right after it (folded from the object's view projection as it
 * stood just before the event) and the types its mapping names. The `events` projection stores
 * them; the webhook deliveries fan them out, so both see the same events (ids, types, order).
 */
export async function producedPublicEvents(
  publicObjects: readonly PublicObjectEvents[],
  event: RecordedEvent,
  tx: ProjectionTransaction,
): Promise<ProducedPublicEvent[]> {
  const produced: ProducedPublicEvent[] = [];
  // An indexed loop: it awaits, so a `for…of` would allocate an iterator result per object kind and event.
  for (let kind = 0; kind < publicObjects.length; kind++) {
    const objectEvents = publicObjects[kind]!;
    if (!objectEvents.changes(event.type)) continue;
    const object = await objectEvents.objectAfter(event, tx);
    if (!object) continue;
    for (const type of objectEvents.produced(event)) {
      const index = produced.length;
      produced.push({
        id: deterministicId('event', `${event.id}:${index}`),
        type,
        object,
        // Recorded time, so that /events pages in log order even while test clocks run ahead.
        created: Math.floor(event.recordedAt.getTime() / 1000),
        _seq: event.position * PUBLIC_EVENTS_PER_DOMAIN_EVENT + index,
      });
    }
  }
  return produced;
}

/** The object views whose objects are public event `data`: read as of each event, stored by them alone. */
export const publicObjectSources = (publicObjects: readonly PublicObjectEvents[]): readonly Projection[] =>
  publicObjects.map((object) => object.source);

/**
 * `events`: the public events of GET /events and webhooks (`docs/architecture.md`, "Public
 * events"). Each event's `data` is the object as it stood right after that change, also when
 * rebuilt from the log: it is folded from the object's view projection as of the event, which is
 * projected (and rebuilt) together with this one, so no second copy of any object is kept.
 */
export const publicEventsProjection = (publicObjects: readonly PublicObjectEvents[]): Projection => ({
  name: 'events',
  collections: ownedCollections(publicEventsCollection),
  reads: publicObjectSources(publicObjects),
  handles: (type) => publicObjects.some((object) => object.changes(type)),
  async apply(event: RecordedEvent, tx: ProjectionTransaction) {
    const produced = await producedPublicEvents(publicObjects, event, tx);
    if (produced.length === 0) return;
    const log = deterministicId('log', event.metadata.requestId ?? event.id);
    for (const { id, type, object, created, _seq } of produced) {
      const doc: PublicEventDoc = {
        id,
        created,
        objectType: 'event',
        type,
        data: publicObject(object),
        log,
        ...tenantFields(event),
        _seq,
        ...(event.metadata.testClockId !== undefined ? { testClockTime: occurredAtSeconds(event) } : {}),
      };
      tx.put(publicEventsCollection, doc);
    }
  },
});
