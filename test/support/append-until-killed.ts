/**
 * Child process for the SQLite durability test: appends batches of events to one stream, forever,
 * and prints `ack <revision> <event ids...>` after each append has been acknowledged.
 * Usage: node .tmp/test-programs/append-until-killed.js <sqlite file> <stream id> (built by build-service.ts)
 */
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';

const EVENTS_PER_APPEND = 3;

const [filePath, streamId] = process.argv.slice(2);
if (!filePath || !streamId) throw new Error('usage: append-until-killed.ts <sqlite file> <stream id>');

const store = new SqliteEventStore(filePath);
let lastRevision: number | undefined;
for (;;) {
  const events = Array.from({ length: EVENTS_PER_APPEND }, () => ({
    id: randomUUID(),
    type: 'DurabilityProbed',
    data: { writtenAt: Date.now() },
    metadata: { accountId: 'acct_durability', mode: 'test' as const, occurredAt: new Date().toISOString() },
  }));
  const result = await store.appendToStream(streamId, events, { expectedRevision: lastRevision ?? 'no_stream' });
  lastRevision = result.nextExpectedRevision;
  process.stdout.write(`ack ${result.nextExpectedRevision} ${events.map((event) => event.id).join(' ')}\n`);
}
