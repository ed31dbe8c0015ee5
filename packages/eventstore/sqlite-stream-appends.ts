import type { Database as Connection, Statement } from 'better-sqlite3';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
} from './event-store.ts';
import { chainHead, eventHash, GENESIS_HASH } from './event-hash.ts';
import { toRecordedEvent, type EventRow } from './sqlite-event-table.ts';
import type { LimitedStatement } from '../sqlite/limited-statement.ts';

/** SQLite's "no limit" for LIMIT clauses. */
const NO_LIMIT = -1;

/**
 * One append to one stream of the SQLite event log, run inside a transaction that holds the write
 * lock: the revision check, the idempotent retry of an append already recorded, and the hash chain
 * of the stream's events.
 */
export class SqliteStreamAppends {
  private readonly insertEvent: Statement<[string, number, string, string, string, string, string, string]>;
  private readonly selectLastRevision: Statement<[string], number | null>;
  private readonly selectByEventId: Statement<[string], EventRow>;
  private readonly selectLastOfStream: Statement<[string], EventRow>;

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
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): AppendResult {
    const lastRevision = this.selectLastRevision.get(streamId);
    const actual = lastRevision ?? 'no_stream';

    if (events.some((event) => this.selectByEventId.get(event.id) !== undefined)) {
      const original = this.findOriginalAppend(streamId, events, expected);
      if (original) return original;
      throw new WrongExpectedRevisionError(streamId, expected, actual);
    }
    if (expected !== 'any' && expected !== actual) throw new WrongExpectedRevisionError(streamId, expected, actual);

    const recordedAt = new Date().toISOString();
    let revision = lastRevision ?? -1;
    let position = 0;
    // The write lock is held: no other append can move the stream's head while its hash is read.
    let previousHash = lastRevision === null ? GENESIS_HASH : this.headHash(streamId);
    for (const event of events) {
      revision += 1;
      const data = JSON.stringify(event.data);
      const metadata = JSON.stringify(event.metadata);
      // Hashed as stored (after the JSON round trip), so a reader recomputes the same hash.
      previousHash = eventHash(previousHash, {
        streamId,
        revision,
        id: event.id,
        type: event.type,
        data: JSON.parse(data),
        metadata: JSON.parse(metadata) as EventMetadata,
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
