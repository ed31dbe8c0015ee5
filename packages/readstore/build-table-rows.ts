import { ROWS_BY_ID_SOURCE } from './rows-by-id.ts';

/**
 * The writer thread's side of a read store file being built (`SqliteBuildFile`): each table's
 * rows are appended in the order documents are first written, and found again by id through a
 * `RowsById` of the table in the thread's memory instead of an index of random ids in the file
 * (`docs/benchmarks.md`, "Rebuilds"). A candidate row is the document's only once its stored id
 * is the document's: a change or deletion names the id beside the row, a read compares it, and a
 * row holding another id (one that shares the hash) sends the search on to the next candidate.
 * The ids' unique index is made when the file is sealed (`createIdIndexSql`).
 *
 * The operations' numbers, as `WriterTransaction.call` and `SqliteWriterThread.read` name them.
 */
export const BuildTableWrite = {
  /** A table of the build, now created (parameters: its number, its collection's name). */
  table: 0,
  /**
   * A document's write (parameters: table, guarded (1: a projection's put, skipped when the stored
   * document comes from a later event; 0: a plain put), then `rowValues`).
   */
  put: 1,
  /** A projection's deletion, guarded like its put (parameters: table, id, position). */
  delete: 2,
} as const;

export const BuildTableRead = {
  /** A document's JSON, or null (parameters: table, id). */
  document: 0,
  /** A projection checkpoint's position, or null (parameters: key). */
  checkpoint: 1,
} as const;

/**
 * The operations' source for `SqliteWriterThreadOptions.operations`; `idHash` (the source of a
 * function `(id, out)` as `IdHash`) replaces the ids' hash, for tests that make ids collide.
 */
export function buildTableOperations(checkpointsTable: string, idHash?: string): string {
  return `(db, statement) => {
${ROWS_BY_ID_SOURCE}
const hash = ${idHash ?? 'hashId'};
const tables = [];
function tableOf(number, name) {
  const quoted = '"' + name + '"';
  return {
    rows: new RowsById(hash),
    insert: db.prepare('INSERT INTO ' + quoted + ' (id, created, seq, pos, expires_at, doc) VALUES (?, ?, ?, ?, ?, ?)'),
    update: db.prepare('UPDATE ' + quoted + ' SET created = ?, seq = ?, pos = ?, expires_at = ?, doc = ? WHERE rowid = ? AND id = ? AND (pos IS NULL OR pos <= ?)'),
    replace: db.prepare('UPDATE ' + quoted + ' SET created = ?, seq = ?, pos = NULL, expires_at = ?, doc = ? WHERE rowid = ? AND id = ?'),
    remove: db.prepare('DELETE FROM ' + quoted + ' WHERE rowid = ? AND id = ? AND (pos IS NULL OR pos <= ?)'),
    idAt: db.prepare('SELECT id FROM ' + quoted + ' WHERE rowid = ?').pluck(),
    read: db.prepare('SELECT id, doc FROM ' + quoted + ' WHERE rowid = ?').raw(),
  };
}
let checkpoint = null;
function put(steps, i) {
  const table = tables[steps[i]];
  const guarded = steps[i + 1] === 1;
  const id = steps[i + 2], created = steps[i + 3], seq = steps[i + 4], pos = steps[i + 5], expiresAt = steps[i + 6], doc = steps[i + 7];
  const rows = table.rows;
  for (let slot = rows.first(id); slot >= 0; slot = rows.next(slot)) {
    const row = rows.rowAt(slot);
    const changes = guarded
      ? table.update.run(created, seq, pos, expiresAt, doc, row, id, pos).changes
      : table.replace.run(created, seq, expiresAt, doc, row, id).changes;
    // Unchanged: the row is another id's (probe on), or this one's from a later event (done).
    if (changes === 1 || table.idAt.get(row) === id) return;
  }
  rows.add(Number(table.insert.run(id, created, seq, pos, expiresAt, doc).lastInsertRowid));
}
function remove(steps, i) {
  const table = tables[steps[i]];
  const id = steps[i + 1], pos = steps[i + 2];
  const rows = table.rows;
  for (let slot = rows.first(id); slot >= 0; slot = rows.next(slot)) {
    const row = rows.rowAt(slot);
    if (table.remove.run(row, id, pos).changes === 1) {
      rows.remove(slot);
      return;
    }
    if (table.idAt.get(row) === id) return;
  }
}
function readDocument(number, id) {
  const table = tables[number];
  if (table === undefined) return null;
  const rows = table.rows;
  for (let slot = rows.first(id); slot >= 0; slot = rows.next(slot)) {
    const found = table.read.get(rows.rowAt(slot));
    if (found !== undefined && found[0] === id) return found[1];
  }
  return null;
}
return {
  writes: [(steps, i) => { tables[steps[i]] = tableOf(steps[i], steps[i + 1]); }, put, remove],
  reads: [
    readDocument,
    (key) => {
      checkpoint ??= db.prepare('SELECT position FROM ${checkpointsTable} WHERE key = ?').pluck();
      return checkpoint.get(key) ?? null;
    },
  ],
};
}`;
}
