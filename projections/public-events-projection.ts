import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Document } from '../packages/readstore/document-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import { deterministicId } from './deterministic-id.ts';
import { occurredAtSeconds, tenantFields } from './event-time.ts';
import { publicEventTypes } from './public-event-types.ts';
import { scopedIndexes } from './view-projection.ts';
import { customerView } from './views/customer-view.ts';
import { publicObject, type ObjectView } from './views/object-view.ts';

export interface PublicEventDoc extends Document {
  objectType: 'event';
  type: string;
  data: Record<string, unknown>;
  log: string;
  _accountId: string;
  _mode: 'test' | 'live';
  /** Id of the object in `data`. */
  _objectId: string;
}

/** Object views the public events render as `data`, by stream kind. */
const objectViews: ObjectView[] = [customerView as unknown as ObjectView];

/** Several public events may come from one domain event; keep them in order after it. */
const PUBLIC_EVENTS_PER_DOMAIN_EVENT = 16;

/**
 * `events`: the public events of GET /events and webhooks (DESIGN §4.6). Keeps its own copy of
 * every object's view (`event_objects`) so that each event's `data` is the object as it stood
 * right after that change, also when rebuilt from the log.
 */
export const publicEventsProjection: Projection = {
  name: 'events',
  collections: { events: scopedIndexes('type', '_objectId'), event_objects: {} },
  handles: (type) => type in publicEventTypes,
  async apply(event: RecordedEvent, tx: ProjectionTransaction) {
    const view = objectViews.find((candidate) => event.streamId.startsWith(candidate.streamPrefix));
    const types = publicEventTypes[event.type]?.(event) ?? [];
    if (!view) return;
    const objectId = event.streamId.slice(view.streamPrefix.length);
    const object = view.apply(await tx.get('event_objects', objectId), event);
    if (!object) return;
    tx.put('event_objects', object);
    types.forEach((type, index) => {
      const doc: PublicEventDoc = {
        id: deterministicId('event', `${event.id}:${index}`),
        created: occurredAtSeconds(event),
        objectType: 'event',
        type,
        data: publicObject(object),
        log: deterministicId('log', event.metadata.requestId ?? event.id),
        ...tenantFields(event),
        _seq: event.position * PUBLIC_EVENTS_PER_DOMAIN_EVENT + index,
        _objectId: objectId,
      };
      tx.put('events', doc);
    });
  },
};
