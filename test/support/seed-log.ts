import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { customerResource, customerStream } from '../../packages/domain/customer/customer-events.ts';
import { eventHash, GENESIS_HASH } from '../../packages/eventstore/event-hash.ts';
import type { EventMetadata } from '../../packages/eventstore/event-store.ts';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { currentSchemaVersion } from '../../packages/eventstore/upcast-recorded-event.ts';
import { newId } from '../../packages/ids/object-id.ts';

/** Rows per transaction: a seed of millions of events is written in a few hundred commits. */
const ROWS_PER_TRANSACTION = 50_000;

/**
 * Appends customers `from` to `to` (exclusive) as customer creations (one new stream each, round
 * robin over `accountIds`; the number in the email and metadata) to an events
 * file straight through SQL, in large unsynced transactions: the rows the event store writes
 * (same columns, JSON and hash chain, new streams chaining to the genesis hash), without its
 * per-append checks and group commits, so that a log of ten million events takes minutes (and
 * the tests' long logs a second). For benchmarks and tests only, on a log no service has open:
 * nothing else may write the file meanwhile. `onProgress` is told the number of the next customer
 * after each transaction.
 */
export async function seedCustomerCreations(
  path: string,
  accountIds: readonly string[],
  from: number,
  to: number,
  onProgress?: (next: number) => void,
): Promise<void> {
  // The event store creates the file (schema, page size, WAL) as the service would.
  await new SqliteEventStore(path).close();
  const db = new Database(path);
  try {
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -64000');
    const insert = db.prepare<[string, number, string, string, string, string, string, string]>(
      `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const writeRows = db.transaction((from: number, to: number) => {
      const recordedAt = new Date().toISOString();
      for (let n = from; n < to; n++) {
        const customerId = newId(customerResource);
        const streamId = customerStream(customerId);
        const id = randomUUID();
        const data = { customerId, email: `customer-${n}@example.com`, description: null, metadata: { n: String(n) } };
        const metadata: EventMetadata = {
          accountId: accountIds[n % accountIds.length]!,
          mode: 'test',
          actor: 'system:seed',
          requestId: newId('req'),
          occurredAt: recordedAt,
          schemaVersion: currentSchemaVersion('CustomerCreated'),
        };
        const type = 'CustomerCreated';
        const hash = eventHash(GENESIS_HASH, { streamId, revision: 0, id, type, data, metadata });
        insert.run(streamId, 0, id, type, JSON.stringify(data), JSON.stringify(metadata), recordedAt, hash);
      }
    });
    for (let first = from; first < to; first += ROWS_PER_TRANSACTION) {
      const next = Math.min(to, first + ROWS_PER_TRANSACTION);
      writeRows(first, next);
      onProgress?.(next);
      // Lets timers (a progress bar) run between transactions.
      await new Promise((resolve) => setImmediate(resolve));
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  // Opening the file through the event store syncs its log and directory once.
  await new SqliteEventStore(path).close();
}
