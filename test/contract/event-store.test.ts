import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EsdbEventStore } from '../../packages/eventstore/esdb-event-store.ts';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { describeEventStoreContract } from './event-store.contract.ts';

describe('EventStore adapters', () => {
  const directory = mkdtempSync(join(tmpdir(), 'event-store-contract-'));
  after(() => rmSync(directory, { recursive: true, force: true }));

  describeEventStoreContract(
    'SqliteEventStore',
    async () => new SqliteEventStore(join(directory, `${randomUUID()}.sqlite`)),
  );

  const eventStoreUrl = process.env.EVENTSTORE_URL;
  if (eventStoreUrl) {
    describeEventStoreContract('EsdbEventStore', async () => new EsdbEventStore(eventStoreUrl));
  } else {
    console.warn('*** EventStoreDB contract suite SKIPPED: set EVENTSTORE_URL to run it ***');
    // Registered as pending, so the skipped tests are counted as skipped rather than passed off as passing.
    describe.skip('EventStoreDB (EVENTSTORE_URL not set)', () => {
      describeEventStoreContract('EsdbEventStore', async () => new EsdbEventStore('esdb://unused'));
    });
  }
});
