import type { Statement } from 'better-sqlite3';
import type { SqliteEventStore } from '../eventstore/sqlite-event-store.ts';
import type { Mode } from '../domain/mode.ts';
import { NETWORK_JOURNAL_KEPT_MS, type NetworkJournal } from './network-journal.ts';

/** Rows in insertion order (new ones share the last page), found by the unique index. */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS network_journal (
    journal TEXT    NOT NULL,
    id      TEXT    NOT NULL,
    created INTEGER NOT NULL,
    outcome TEXT    NOT NULL,
    UNIQUE (journal, id)
  )`;

/** How often entries older than NETWORK_JOURNAL_KEPT_MS are deleted (in a group commit that happens anyway). */
const PRUNE_INTERVAL_MS = 3600_000;

/**
 * The simulator's journal in the embedded profile: a table of the events file (`docs/architecture.md`,
 * "Crash safety of card storage"). A new answer is written in the event store's next group commit
 * instead of a durable write of its own; every event that can carry it (the charge's or credit's
 * outcome) is appended after `record` returned, so it commits in the same transaction or a later
 * one. A crash before that commit loses the answer together with every event that could refer to
 * it; the retried request asks the simulator again, which answers the same request the same way.
 * Until the commit, the answer is given from memory.
 *
 * `journal` names the journal within the table (authorizations, credits). Answers recorded before
 * the journal moved here stay where they were (`earlier`, the state store's collection) and are
 * still found there.
 */
export class EventFileNetworkJournal<Outcome> implements NetworkJournal<Outcome> {
  /** Answers recorded but not yet committed, by `mode:reference`. */
  private readonly uncommitted = new Map<string, Outcome>();
  private readonly insertEntry: Statement<[string, string, number, string]>;
  private readonly selectOutcome: Statement<[string, string], string>;
  private readonly deleteOlder: Statement<[number]>;
  private prunedAt = 0;

  constructor(
    private readonly events: SqliteEventStore,
    private readonly journal: string,
    private readonly earlier?: NetworkJournal<Outcome>,
  ) {
    [this.insertEntry, this.selectOutcome, this.deleteOlder] = events.withConnection((db) => {
      db.exec(SCHEMA);
      return [
        db.prepare<[string, string, number, string]>(
          'INSERT OR IGNORE INTO network_journal (journal, id, created, outcome) VALUES (?, ?, ?, ?)',
        ),
        db
          .prepare<[string, string], string>('SELECT outcome FROM network_journal WHERE journal = ? AND id = ?')
          .pluck(),
        // Rows are in the order they were recorded: the expired ones are those before the first one that is not.
        db.prepare<[number]>(
          'DELETE FROM network_journal WHERE rowid < (SELECT rowid FROM network_journal WHERE created >= ? ORDER BY rowid LIMIT 1)',
        ),
      ] as const;
    });
  }

  async find(mode: Mode, reference: string): Promise<Outcome | null> {
    return this.findHere(`${mode}:${reference}`) ?? (await this.earlier?.find(mode, reference)) ?? null;
  }

  async record(mode: Mode, reference: string, outcome: Outcome): Promise<Outcome> {
    const id = `${mode}:${reference}`;
    const recordedEarlier = await this.earlier?.find(mode, reference);
    if (recordedEarlier) return recordedEarlier;
    // From here on synchronous: of two records of one reference in this process, the first one stays.
    const first = this.findHere(id);
    if (first) return first;
    this.uncommitted.set(id, outcome);
    this.events.carryInNextCommit({
      write: () => {
        const now = Date.now();
        this.insertEntry.run(this.journal, id, Math.floor(now / 1000), JSON.stringify(outcome));
        if (now - this.prunedAt >= PRUNE_INTERVAL_MS) {
          this.deleteOlder.run(Math.floor((now - NETWORK_JOURNAL_KEPT_MS) / 1000));
          this.prunedAt = now;
        }
      },
      committed: () => this.uncommitted.delete(id),
    });
    return outcome;
  }

  private findHere(id: string): Outcome | undefined {
    const pending = this.uncommitted.get(id);
    if (pending !== undefined) return pending;
    const stored = this.selectOutcome.get(this.journal, id);
    return stored === undefined ? undefined : (JSON.parse(stored) as Outcome);
  }
}
