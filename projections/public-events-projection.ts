import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Document } from '../packages/readstore/document-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import { deterministicId } from './deterministic-id.ts';
import { occurredAtSeconds, tenantFields } from './event-time.ts';
import { publicEventRules, publicObjectViews } from './public-event-types.ts';
import { scopedIndexes } from './view-projection.ts';
import { publicObject, type ObjectView } from './views/object-view.ts';
import type { Mode } from '../packages/domain/mode.ts';

export interface PublicEventDoc extends Document {
  objectType: 'event';
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

const handledTypes = new Set(publicObjectViews.flatMap((view) => [...view.eventTypes]));

/**
 * `events`: the public events of GET /events and webhooks (DESIGN §4.6). Keeps its own copy of
 * every object's view (`event_objects`) so that each event's `data` is the object as it stood
 * right after that change, also when rebuilt from the log.
 */
export const publicEventsProjection: Projection = {
  name: 'events',
  collections: { events: scopedIndexes('type', '_objectId'), event_objects: {} },
  handles: (type) => handledTypes.has(type),
  async apply(event: RecordedEvent, tx: ProjectionTransaction) {
    const objects = new Map<ObjectView, Document>();
    for (const view of publicObjectViews) {
      if (!view.eventTypes.has(event.type)) continue;
      const objectId = view.objectId(event);
      if (objectId === null) continue;
      const object = view.fold(await tx.get('event_objects', objectId), event);
      if (!object) continue;
      tx.put('event_objects', object);
      objects.set(view, object);
    }
    let index = 0;
    for (const rule of publicEventRules[event.type] ?? []) {
      const object = objects.get(rule.view);
      if (!object) continue;
      for (const type of rule.types(event)) {
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
        tx.put('events', doc);
        index++;
      }
    }
  },
};
