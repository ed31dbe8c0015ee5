import { EsdbEventStore } from './esdb-event-store.ts';
import type { EventStore } from './event-store.ts';
import { SqliteEventStore } from './sqlite-event-store.ts';

/** The distributed profile's EventStoreDB when a URL is configured, the embedded SQLite file otherwise. */
export function createEventStore(options: { eventStoreUrl?: string; sqlitePath: string }): EventStore {
  return options.eventStoreUrl ? new EsdbEventStore(options.eventStoreUrl) : new SqliteEventStore(options.sqlitePath);
}
