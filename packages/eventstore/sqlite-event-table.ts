import type { Database as Connection } from 'better-sqlite3';
import type { EventMetadata, RecordedEvent } from './event-store.ts';

/** The one table of the SQLite event log: a row per event, its position the AUTOINCREMENT key. */
export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    stream_id   TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    event_id    TEXT    NOT NULL UNIQUE,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    hash        TEXT,
    UNIQUE (stream_id, revision)
  )`;

/** A row of the events table. */
export interface EventRow {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
  /** Null for events recorded before the log kept hashes (`sealUnhashedEvents`). */
  hash: string | null;
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: row.revision,
    position: row.position,
    type: row.type,
    data: JSON.parse(row.data) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    recordedAt: new Date(row.recorded_at),
    ...(row.hash !== null && { hash: row.hash }),
  };
}

/** Files made before the log kept hashes get the column; their events are sealed by `audit seal-existing`. */
export function addHashColumnToOlderFiles(db: Connection): void {
  const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('events')").all();
  if (!columns.some((column) => column.name === 'hash')) db.exec('ALTER TABLE events ADD COLUMN hash TEXT');
}
