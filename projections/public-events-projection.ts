import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Document } from '../packages/readstore/document-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import { objectCollection, ownedCollections } from '../packages/projection/read-model-collection.ts';
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
  /** Id of the object in `data`. */
  _objectId: string;
}

/** Several public events may come from one domain event; keep them in order after it. */
const PUBLIC_EVENTS_PER_DOMAIN_EVENT = 16;

/** GET /events[/{id}] (filter: type) and the events webhooks deliver. */
export const publicEventsCollection = objectCollection<PublicEventDoc>(
  'events',
  'Event',
  scopedIndexes('type', '_objectId'),
);

/**
 * `events`: the public events of GET /events and webhooks (`docs/architecture.md`, "Public
 * events"), of every kind of object in `publicObjects` (the resource list's, in its order). Keeps
 * its own copy of every object's view (`event_objects`) so that each event's `data` is the object
 * as it stood right after that change, also when rebuilt from the log.
 */
export const publicEventsProjection = (publicObjects: readonly PublicObjectEvents[]): Projection => ({
  name: 'events',
  collections: { ...ownedCollections(publicEventsCollection), event_objects: {} },
  handles: (type) => publicObjects.some((object) => object.changes(type)),
  async apply(event: RecordedEvent, tx: ProjectionTransaction) {
    let index = 0;
    for (const objectEvents of publicObjects) {
      const object = await objectEvents.foldCopy(event, tx, 'event_objects');
      if (!object) continue;
      for (const type of objectEvents.produced(event)) {
        const doc: PublicEventDoc = {
          id: deterministicId('event', `${event.id}:${index}`),
          // Recorded time, so that /events pages in log order even while test clocks run ahead.
          created: Math.floor(event.recordedAt.getTime() / 1000),
          objectType: 'event',
          type,
          data: publicObject(object),
          log: deterministicId('log', event.metadata.requestId ?? event.id),
          ...tenantFields(event),
          _seq: event.position * PUBLIC_EVENTS_PER_DOMAIN_EVENT + index,
          _objectId: object.id,
          ...(event.metadata.testClockId !== undefined ? { testClockTime: occurredAtSeconds(event) } : {}),
        };
        tx.put(publicEventsCollection, doc);
        index++;
      }
    }
  },
});
