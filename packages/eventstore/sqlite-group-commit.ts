import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import type { Database as Connection } from 'better-sqlite3';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
} from './event-store.ts';
import { asStored, canonicalJson } from './event-hash.ts';
import type { WriterSteps } from '../sqlite/sqlite-writer-thread.ts';

/**
 * A group commit of the events file, as one request: the writes it carries (other tables of the
 * file, `WriterTransaction`'s statements and steps), then its appends, flat (one array crosses to
 * a thread faster than an object per event): per append its stream id, expected revision and
 * number of events, then per event its id, type, data and metadata as stored (JSON) and as hashed
 * (canonical JSON).
 */
export interface GroupRequest {
  statements: readonly string[];
  steps: WriterSteps;
  appends: unknown[];
  /** The appends' thread: commit this group although one before it failed (`SqliteAppendThread`). */
  resume?: boolean;
}

/**
 * How each append of a group ended, three entries per append: `0, nextExpectedRevision, position`
 * (appended, or found appended before), `1, expected, actual` (wrong expected revision), `2,
 * message, code` (another error of that append alone).
 */
export type GroupOutcomes = unknown[];

/** How one append of a group ended. */
export type Settled = { ok: true; result: AppendResult } | { ok: false; error: unknown };

/** Fields per event in `GroupRequest.appends`. */
const EVENT_FIELDS = 6;

/** Adds one append to a group's request; the events' JSON and canonical JSON are made here, by the caller. */
export function addAppend(
  appends: unknown[],
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): void {
  appends.push(streamId, expected, events.length);
  for (const event of events) {
    const data = JSON.stringify(event.data);
    const metadata = JSON.stringify(event.metadata);
    // Hashed as stored (as after the JSON round trip), so a reader recomputes the same hash.
    appends.push(
      event.id,
      event.type,
      data,
      metadata,
      canonicalJson(asStored(event.data, data)),
      canonicalJson(asStored(event.metadata, metadata) as EventMetadata),
    );
  }
}

/** The outcome of each append of a request, in order, as the appends' promises settle. */
export function settledAppends(request: GroupRequest, outcomes: GroupOutcomes): Settled[] {
  const settled: Settled[] = [];
  let field = 0;
  for (let index = 0; index < outcomes.length; index += 3) {
    const streamId = request.appends[field] as string;
    field += 3 + (request.appends[field + 2] as number) * EVENT_FIELDS;
    const [kind, first, second] = [outcomes[index], outcomes[index + 1], outcomes[index + 2]];
    if (kind === 0)
      settled.push({ ok: true, result: { nextExpectedRevision: first as number, position: second as number } });
    else if (kind === 1)
      settled.push({
        ok: false,
        error: new WrongExpectedRevisionError(streamId, first as ExpectedRevision, second as number | 'no_stream'),
      });
    else settled.push({ ok: false, error: Object.assign(new Error(first as string), second ? { code: second } : {}) });
  }
  return settled;
}

/**
 * The group commit, as JavaScript text evaluated to `(db, createHash) => commitGroup(request)`: the
 * same code commits on the event loop's connection and on the appends' thread (where no module of
 * ours can be loaded, under tsx as in the build). `commitGroup` runs the request in one BEGIN
 * IMMEDIATE transaction: the carried writes, then each append in the order given, with its own
 * revision check, its idempotent retry and the hash chain of its stream. An append that fails
 * writes nothing (a single event is one INSERT, which SQLite undoes alone; a batch has a
 * savepoint) and fails alone; an error that ends the transaction itself (a full disk, an I/O
 * error), or a carried write that fails, fails the whole group: it throws, nothing is written.
 *
 * Each event's hash is `eventHash` of `event-hash.ts`: the SHA-256 of the canonical JSON of the
 * event with the hash before it, whose keys in sorted order are data, id, metadata, previousHash,
 * revision, streamId, type; the request carries the canonical JSON of data and metadata, so the
 * text is theirs with the other fields written around them. A stream whose head has no hash
 * (recorded before the log kept hashes) is chained from its events again, their canonical JSON by
 * its definition (`JSON.stringify` of a copy with sorted keys).
 */
export const GROUP_COMMIT_SOURCE = `(function groupCommitOn(db, createHash) {
  const GENESIS_HASH = '0'.repeat(64);
  const insertEvent = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const selectLastRevision = db.prepare('SELECT MAX(revision) FROM events WHERE stream_id = ?').pluck();
  const selectByEventId = db.prepare('SELECT stream_id, revision FROM events WHERE event_id = ?');
  const selectHeadHash = db.prepare('SELECT hash FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1').pluck();
  const selectStream = db.prepare('SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision');
  const selectIds = db.prepare(
    'SELECT event_id, revision, position FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?',
  );
  const carried = new Map();
  function carriedStatement(sql) {
    let found = carried.get(sql);
    if (!found) {
      found = db.prepare(sql);
      carried.set(sql, found);
    }
    return found;
  }

  function hashOf(previousHash, streamId, revision, id, type, data, metadata) {
    const content =
      '{"data":' + data + ',"id":' + JSON.stringify(id) + ',"metadata":' + metadata +
      ',"previousHash":' + JSON.stringify(previousHash) + ',"revision":' + JSON.stringify(revision) +
      ',"streamId":' + JSON.stringify(streamId) + ',"type":' + JSON.stringify(type) + '}';
    return createHash('sha256').update(content).digest('hex');
  }
  function definedCanonicalJson(value) {
    return JSON.stringify(value, (_key, item) =>
      item !== null && typeof item === 'object' && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : item,
    );
  }
  function headHash(streamId) {
    const stored = selectHeadHash.get(streamId);
    if (stored) return stored;
    let previous = GENESIS_HASH;
    for (const row of selectStream.all(streamId, 0))
      previous = hashOf(previous, row.stream_id, row.revision, row.event_id, row.type,
        definedCanonicalJson(JSON.parse(row.data)), definedCanonicalJson(JSON.parse(row.metadata)));
    return previous;
  }

  /** Writes the events (appends[from..]) after the stream's last revision, each chained to the one before. */
  function insert(appends, from, count, streamId, lastRevision) {
    const recordedAt = new Date().toISOString();
    let revision = lastRevision === null ? -1 : lastRevision;
    let position = 0;
    let previousHash = lastRevision === null ? GENESIS_HASH : headHash(streamId);
    for (let event = 0, field = from; event < count; event += 1, field += ${EVENT_FIELDS}) {
      revision += 1;
      const id = appends[field], type = appends[field + 1], data = appends[field + 2], metadata = appends[field + 3];
      previousHash = hashOf(previousHash, streamId, revision, id, type, appends[field + 4], appends[field + 5]);
      position = Number(insertEvent.run(streamId, revision, id, type, data, metadata, recordedAt, previousHash).lastInsertRowid);
    }
    return [0, revision, position];
  }
  const insertInSavepoint = db.transaction(insert);

  /** The earlier append of exactly these events at the place expected points to, else a conflict. */
  function originalAppendOrConflict(appends, from, count, streamId, expected, actual) {
    const first = selectByEventId.get(appends[from]);
    if (first && first.stream_id === streamId) {
      const firstRevision = expected === 'any' ? first.revision : expected === 'no_stream' ? 0 : expected + 1;
      const rows = selectIds.all(streamId, firstRevision, count);
      let same = rows.length === count;
      for (let event = 0; same && event < count; event += 1)
        same = rows[event].event_id === appends[from + event * ${EVENT_FIELDS}];
      if (same) return [0, rows[count - 1].revision, rows[count - 1].position];
    }
    return [1, expected, actual];
  }

  function append(appends, from, count, streamId, expected) {
    const lastRevision = selectLastRevision.get(streamId);
    const actual = lastRevision === null ? 'no_stream' : lastRevision;
    if (expected !== 'any' && expected !== actual)
      return originalAppendOrConflict(appends, from, count, streamId, expected, actual);
    try {
      return count === 1
        ? insert(appends, from, count, streamId, lastRevision)
        : insertInSavepoint(appends, from, count, streamId, lastRevision);
    } catch (error) {
      // The unique index of event ids refused one: a retry of an append recorded before, or a conflict.
      if (!error || error.code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
      return originalAppendOrConflict(appends, from, count, streamId, expected, actual);
    }
  }

  function runCarried(statements, steps) {
    for (let i = 0; i < steps.length; ) {
      const sql = statements[steps[i]];
      const count = steps[i + 1];
      i += 2;
      if (count === 0) db.exec(sql);
      else carriedStatement(sql).run(...steps.slice(i, i + count));
      i += count;
    }
  }

  function writeGroup(request) {
    runCarried(request.statements, request.steps);
    const appends = request.appends;
    const outcomes = [];
    for (let field = 0; field < appends.length; ) {
      const streamId = appends[field], expected = appends[field + 1], count = appends[field + 2];
      const from = field + 3;
      field = from + count * ${EVENT_FIELDS};
      try {
        outcomes.push(...append(appends, from, count, streamId, expected));
      } catch (error) {
        // An error that ended the transaction itself fails the whole group: nothing of it is
        // written, and no later append may commit outside it.
        if (!db.inTransaction) throw error;
        outcomes.push(2, String(error && error.message), (error && error.code) || null);
      }
    }
    return outcomes;
  }
  const group = db.transaction(writeGroup);
  // BEGIN IMMEDIATE takes the write lock before the revision checks: no other connection appends in between.
  return group.immediate.bind(group);
})`;

/** The group commit on a connection of the calling thread: throws when the whole group failed. */
export function groupCommitOn(db: Connection): (request: GroupRequest) => GroupOutcomes {
  const make = new Script(GROUP_COMMIT_SOURCE, { filename: 'sqlite-group-commit.js' }).runInThisContext() as (
    db: Connection,
    hash: typeof createHash,
  ) => (request: GroupRequest) => GroupOutcomes;
  return make(db, createHash);
}
