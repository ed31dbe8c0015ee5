import { eventUpcasters } from '../domain/event-upcasters.ts';
import { FIRST_SCHEMA_VERSION } from '../domain/event-upcasting.ts';
import type { RecordedEvent } from './event-store.ts';

/** The schema version a new event of this type is recorded with (in its metadata). */
export function currentSchemaVersion(eventType: string): number {
  return eventUpcasters.currentVersion(eventType);
}

/**
 * A stored event in its type's current shape, with the current version in its metadata. Every
 * reader that hands events to deciders or views (aggregate loading, projections, `streams show`)
 * goes through this; an event already current is returned as it is.
 */
export function upcastRecordedEvent(event: RecordedEvent): RecordedEvent {
  const version = event.metadata.schemaVersion ?? FIRST_SCHEMA_VERSION;
  const current = currentSchemaVersion(event.type);
  if (version === current) return event;
  return {
    ...event,
    data: eventUpcasters.upcast(event.type, event.data, version),
    metadata: { ...event.metadata, schemaVersion: current },
  };
}
