import type { Statement } from 'better-sqlite3';
import type { SqliteEventStore } from '../eventstore/sqlite-event-store.ts';
import type { VaultEntries, VaultEntry } from './vault.ts';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS vault_entries (
    id         TEXT    PRIMARY KEY,
    created    INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    iv         TEXT    NOT NULL,
    tag        TEXT    NOT NULL,
    ciphertext TEXT    NOT NULL
  )`;

/**
 * Vault entries of the embedded profile, in a table of the events file (`docs/architecture.md`,
 * "Crash safety of card storage"). A new entry is written in the event store's next group commit
 * instead of a durable write of its own: every event that can refer to it is appended after `put`
 * returned, so it commits in the same transaction or a later one of the same write-ahead log, and
 * is never on disk without the entry. A crash before that commit loses the entry together with
 * every event that could have referred to it. Until then the entry is answered from memory.
 *
 * Entries stored before the vault moved here stay where they were (`earlier`, the state store's
 * collection) and are read and erased there.
 */
export class EventFileVaultEntries implements VaultEntries {
  /** Entries put but not yet committed, by reference. */
  private readonly uncommitted = new Map<string, VaultEntry>();
  private readonly insertEntry: Statement<[string, number, string, string, string, string]>;
  private readonly selectEntry: Statement<[string], VaultEntry>;
  private readonly deleteEntry: Statement<[string]>;

  constructor(
    private readonly events: SqliteEventStore,
    private readonly earlier?: VaultEntries,
  ) {
    [this.insertEntry, this.selectEntry, this.deleteEntry] = events.withConnection((db) => {
      db.exec(SCHEMA);
      return [
        db.prepare<[string, number, string, string, string, string]>(
          'INSERT OR IGNORE INTO vault_entries (id, created, kind, iv, tag, ciphertext) VALUES (?, ?, ?, ?, ?, ?)',
        ),
        db.prepare<[string], VaultEntry>('SELECT * FROM vault_entries WHERE id = ?'),
        db.prepare<[string]>('DELETE FROM vault_entries WHERE id = ?'),
      ] as const;
    });
  }

  async put(entry: VaultEntry): Promise<void> {
    this.uncommitted.set(entry.id, entry);
    this.events.carryInNextCommit({
      write: () => {
        // Erased before its commit: nothing to write.
        const pending = this.uncommitted.get(entry.id);
        if (pending)
          this.insertEntry.run(pending.id, pending.created, pending.kind, pending.iv, pending.tag, pending.ciphertext);
      },
      committed: () => this.uncommitted.delete(entry.id),
    });
  }

  async get(ref: string): Promise<VaultEntry | null> {
    const entry = this.uncommitted.get(ref) ?? this.selectEntry.get(ref);
    if (entry) return { ...entry };
    return (await this.earlier?.get(ref)) ?? null;
  }

  /** Durable when it resolves (its own commit and sync): erasing is rare and must not wait for an append. */
  async delete(ref: string): Promise<void> {
    this.uncommitted.delete(ref);
    this.deleteEntry.run(ref);
    await this.events.syncWritesSoFar();
    await this.earlier?.delete(ref);
  }
}
