import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Document } from '../packages/readstore/document-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import { objectCollection, ownedCollections } from '../packages/projection/read-model-collection.ts';
import { deterministicId } from './deterministic-id.ts';
import { occurredAtSeconds, tenantFields } from './event-time.ts';
import { publicObjects, type PublicEventType } from './public-event-types.ts';
import { scopedIndexes } from './view-projection.ts';
import { publicObject } from './views/object-view.ts';
import type { Mode } from '../packages/domain/mode.ts';

export interface PublicEventDoc extends Document {
  objectType: 'event';
  type: PublicEventType;
  data: Record<string, unknown>;
  log: string;
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
 * events"). Keeps its own copy of
 * every object's view (`event_objects`) so that each event's `data` is the object as it stood
 * right after that change, also when rebuilt from the log.
 */
export const publicEventsProjection: Projection = {
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
          created: occurredAtSeconds(event),
          objectType: 'event',
          type,
          data: publicObject(object),
          log: deterministicId('log', event.metadata.requestId ?? event.id),
          ...tenantFields(event),
          _seq: event.position * PUBLIC_EVENTS_PER_DOMAIN_EVENT + index,
          _objectId: object.id,
        };
        tx.put(publicEventsCollection, doc);
        index++;
      }
    }
  },
};
