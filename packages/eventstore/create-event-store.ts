import type { EventStore } from './event-store.ts';
import { SqliteEventStore } from './sqlite-event-store.ts';

/**
 * The distributed profile's EventStoreDB when a URL is configured, the embedded SQLite file
 * otherwise. The EventStoreDB client is loaded only when used: an embedded process does not
 * hold it in memory.
 */
export async function createEventStore(options: {
  eventStoreUrl?: string;
  sqlitePath: string;
  /** Embedded only: told how many appends each durable commit carried. */
  onGroupCommit?: (appends: number) => void;
  /** Embedded only: a background thread checkpoints the file. */
  backgroundCheckpoints?: boolean;
}): Promise<EventStore> {
  if (!options.eventStoreUrl)
    return new SqliteEventStore(options.sqlitePath, {
      ...(options.onGroupCommit && { onGroupCommit: options.onGroupCommit }),
      backgroundCheckpoints: options.backgroundCheckpoints ?? false,
    });
  const { EsdbEventStore } = await import('./esdb-event-store.ts');
  return new EsdbEventStore(options.eventStoreUrl);
}
