import type { Database as Connection, Statement } from 'better-sqlite3';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
} from './event-store.ts';
import { asStored, chainHead, eventHash, GENESIS_HASH } from './event-hash.ts';
import { toRecordedEvent, type EventRow } from './sqlite-event-table.ts';
import type { LimitedStatement } from '../sqlite/limited-statement.ts';

/** SQLite's "no limit" for LIMIT clauses. */
const NO_LIMIT = -1;

/**
 * One append to one stream of the SQLite event log, run inside a transaction that holds the write
 * lock: the revision check, the idempotent retry of an append already recorded, and the hash chain
 * of the stream's events. An append that fails writes nothing: a single event is one INSERT, which
 * SQLite undoes alone when it fails, and a batch is written in a savepoint. An event id recorded
 * before is found by the unique index on event ids as the event is written, not looked up first.
 */
export class SqliteStreamAppends {
  private readonly insertEvent: Statement<[string, number, string, string, string, string, string, string]>;
  private readonly selectLastRevision: Statement<[string], number | null>;
  private readonly selectByEventId: Statement<[string], EventRow>;
  private readonly selectLastOfStream: Statement<[string], EventRow>;
  /** `insert` in a savepoint of the group's transaction: a batch of events is written whole or not at all. */
  private readonly insertInSavepoint: (
    streamId: string,
    events: NewEvent[],
    lastRevision: number | null,
  ) => AppendResult;

  constructor(
    db: Connection,
    /** A stream's events from a revision on, in revision order. */
    private readonly selectStream: LimitedStatement<[string, number], EventRow>,
  ) {
    this.insertEvent = db.prepare<[string, number, string, string, string, string, string, string]>(
      `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectLastRevision = db
      .prepare<[string], number | null>('SELECT MAX(revision) FROM events WHERE stream_id = ?')
      .pluck();
    this.selectByEventId = db.prepare<[string], EventRow>('SELECT * FROM events WHERE event_id = ?');
    this.selectLastOfStream = db.prepare<[string], EventRow>(
      'SELECT * FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1',
    );
    // Called inside the group's transaction, better-sqlite3 runs it as a SAVEPOINT.
    this.insertInSavepoint = db.transaction(this.insert.bind(this));
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): AppendResult {
    const lastRevision = this.selectLastRevision.get(streamId) ?? null;
    const actual = lastRevision ?? 'no_stream';
    if (expected !== 'any' && expected !== actual)
      return this.originalAppendOrConflict(streamId, events, expected, actual);
    try {
      // One INSERT statement is undone alone when it fails; the events of a batch need a savepoint.
      return events.length === 1
        ? this.insert(streamId, events, lastRevision)
        : this.insertInSavepoint(streamId, events, lastRevision);
    } catch (error) {
      // The unique index of event ids refused one: a retry of an append recorded before, or a conflict.
      if (!isUniqueConstraintFailure(error)) throw error;
      return this.originalAppendOrConflict(streamId, events, expected, actual);
    }
  }

  /** The result of the earlier append of these events, when the place `expected` points to holds them; else a conflict. */
  private originalAppendOrConflict(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    actual: number | 'no_stream',
  ): AppendResult {
    const original = this.findOriginalAppend(streamId, events, expected);
    if (original) return original;
    throw new WrongExpectedRevisionError(streamId, expected, actual);
  }

  /** Writes the events after the stream's last revision, each chained to the hash of the one before. */
  private insert(streamId: string, events: NewEvent[], lastRevision: number | null): AppendResult {
    const recordedAt = new Date().toISOString();
    let revision = lastRevision ?? -1;
    let position = 0;
    // The write lock is held: no other append can move the stream's head while its hash is read.
    let previousHash = lastRevision === null ? GENESIS_HASH : this.headHash(streamId);
    for (const event of events) {
      revision += 1;
      const data = JSON.stringify(event.data);
      const metadata = JSON.stringify(event.metadata);
      // Hashed as stored (as after the JSON round trip), so a reader recomputes the same hash.
      previousHash = eventHash(previousHash, {
        streamId,
        revision,
        id: event.id,
        type: event.type,
        data: asStored(event.data, data),
        metadata: asStored(event.metadata, metadata) as EventMetadata,
      });
      const { lastInsertRowid } = this.insertEvent.run(
        streamId,
        revision,
        event.id,
        event.type,
        data,
        metadata,
        recordedAt,
        previousHash,
      );
      position = Number(lastInsertRowid);
    }
    return { nextExpectedRevision: revision, position };
  }

  /** The hash the stream's next event chains to: its last event's, recomputed over the stream when not stored. */
  private headHash(streamId: string): string {
    const [last] = this.selectLastOfStream.all(streamId);
    if (last?.hash) return last.hash;
    return chainHead(this.selectStream.withLimit(NO_LIMIT).all(streamId, 0).map(toRecordedEvent));
  }

  /** The result of an earlier append of exactly these events at the place `expected` points to, if there was one. */
  private findOriginalAppend(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): AppendResult | undefined {
    const first = this.selectByEventId.get(events[0]!.id);
    if (!first || first.stream_id !== streamId) return undefined;
    const firstRevision = expected === 'any' ? first.revision : expected === 'no_stream' ? 0 : expected + 1;
    const rows = this.selectStream.withLimit(events.length).all(streamId, firstRevision);
    const isSameAppend =
      rows.length === events.length && rows.every((row, index) => row.event_id === events[index]!.id);
    const last = rows.at(-1);
    return isSameAppend && last ? { nextExpectedRevision: last.revision, position: last.position } : undefined;
  }
}

function isUniqueConstraintFailure(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}
