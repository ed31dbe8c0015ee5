import { expect } from 'chai';
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DomainEvent } from '../../../packages/domain/decider.ts';
import { SqliteEventStore } from '../../../packages/eventstore/sqlite-event-store.ts';
import { currentSchemaVersion } from '../../../packages/eventstore/upcast-recorded-event.ts';
import { physicalCollectionName, checkpointKey } from '../../../packages/projection-runtime/projection.ts';
import { ProjectionRunner } from '../../../packages/projection-runtime/projection-runner.ts';
import { readProjectionState } from '../../../packages/projection-runtime/projection-state.ts';
import { WrittenDocuments } from '../../../packages/projection-runtime/written-documents.ts';
import type { Document } from '../../../packages/readstore/document-store.ts';
import { SqliteDocumentStore } from '../../../packages/readstore/sqlite-document-store.ts';
import { customersCollection, customersProjection } from '../../../projections/customers-projection.ts';
import { allProjections } from '../../../services/resources/registries.ts';
import { publicEventsCollection } from '../../../projections/public-events-projection.ts';
import { cardAdded, customerCreated } from './fixtures.ts';
import { tenant } from './projection-spec.ts';

/** The runner over real SQLite stores in a temporary directory. */
class RunnerFixture {
  readonly dir = mkdtempSync(join(tmpdir(), 'projection-runner-'));
  readonly events = new SqliteEventStore(join(this.dir, 'events.sqlite'));
  store = new SqliteDocumentStore(join(this.dir, 'read.sqlite'));
  readonly errors: Error[] = [];

  async append(stream: string, event: DomainEvent): Promise<void> {
    await this.events.appendToStream(
      stream,
      [
        {
          id: randomUUID(),
          type: event.type,
          data: { ...event.data },
          metadata: {
            ...tenant,
            occurredAt: '2026-01-05T10:00:00.000Z',
            requestId: `req_${randomUUID()}`,
            schemaVersion: currentSchemaVersion(event.type),
          },
        },
      ],
      { expectedRevision: 'any' },
    );
  }

  /** A runner of every projection, started, once every live build has committed the log's head. */
  async caughtUpRunner(batchSize?: number): Promise<ProjectionRunner> {
    const runner = new ProjectionRunner(this.events, this.store, allProjections(), {
      dropGraceMs: 0,
      onError: (error) => this.errors.push(error),
      ...(batchSize ? { batchSize, catchUpBatchSize: batchSize } : {}),
    });
    await runner.start();
    await this.until(runner, await this.events.headPosition());
    return runner;
  }

  async until(runner: ProjectionRunner, position: number): Promise<void> {
    const deadline = Date.now() + 15_000;
    while ([...runner.checkpoints().values()].some((checkpoint) => checkpoint.position < position)) {
      if (Date.now() > deadline)
        throw new Error(
          `projections did not reach ${position}: ${JSON.stringify([...runner.checkpoints()])} ${this.errors.join()}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async documents(collection: string, generation: number): Promise<Document[]> {
    return (await this.store.collection(physicalCollectionName(collection, generation)).list({ limit: 100 })).list;
  }

  /** Names of the read store's tables and indexes. */
  schema(): string[] {
    const db = new Database(join(this.dir, 'read.sqlite'), { readonly: true });
    try {
      return db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index')")
        .all()
        .map((row) => row.name);
    } finally {
      db.close();
    }
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.store.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe('projection runner', function () {
  this.timeout(30_000);
  let fixture: RunnerFixture;
  beforeEach(async () => {
    fixture = new RunnerFixture();
    for (let n = 1; n <= 12; n++) await fixture.append(`customer-cust_${n}`, customerCreated(`cust_${n}`));
    await fixture.append('customer-cust_1', cardAdded('card_1'));
  });
  afterEach(() => fixture.close());

  it('catches up in batches from an empty read store, then makes the list indexes', async () => {
    const runner = await fixture.caughtUpRunner(5);
    await runner.stop();
    const customers = await fixture.documents(customersCollection.name, 1);
    expect(customers.map((doc) => doc.id)).to.have.members(Array.from({ length: 12 }, (_, n) => `cust_${n + 1}`));
    const events = await fixture.documents(publicEventsCollection.name, 1);
    expect(events.map((event) => (event as unknown as { type: string }).type)).to.include.members([
      'CUSTOMER_CREATED',
      'CUSTOMER_CARD_CREATED',
    ]);
    expect(fixture.schema()).to.include.members([
      'customers__g1 by _accountId,_mode,email',
      'events__g1 by _accountId,_mode,type',
    ]);
    // No object copies beside the views: the public events and webhook deliveries read them.
    expect(fixture.schema().filter((name) => /objects/.test(name))).to.deep.equal([]);
    expect(fixture.errors).to.deep.equal([]);
  });

  it('rebuilds the public events beside shadow builds of the views they read, leaving the live views alone', async () => {
    const runner = await fixture.caughtUpRunner();
    const before = await fixture.documents(publicEventsCollection.name, 1);
    await runner.rebuild('events');
    // The replaced build is dropped after the grace period (none here).
    await new Promise((resolve) => setTimeout(resolve, 50));
    await runner.stop();

    expect(runner.checkpoints().get('events')?.generation).to.equal(2);
    expect(runner.checkpoints().get(customersProjection.name)?.generation).to.equal(1);
    expect((await readProjectionState(fixture.store, customersProjection.name)).activeGeneration).to.equal(1);
    expect(await fixture.documents(publicEventsCollection.name, 2)).to.deep.equal(before);
    // The shadow builds (numbered below zero) are gone, and so is the replaced build.
    expect(fixture.schema().filter((name) => name.includes('__g-') || name.startsWith('events__g1'))).to.deep.equal([]);
    expect(fixture.schema()).to.include('customers__g1');
    expect(fixture.errors).to.deep.equal([]);
  });

  it('rebuilds at start a live build that is not at the position of a view it reads, and serves it after', async () => {
    const first = await fixture.caughtUpRunner();
    await first.stop();
    const before = await fixture.documents(publicEventsCollection.name, 1);

    // As if the customers view were new: its build has nothing, while `events` is at the head.
    await fixture.store.dropCollection(physicalCollectionName(customersCollection.name, 1));
    await fixture.store.close();
    const db = new Database(join(fixture.dir, 'read.sqlite'));
    db.prepare('DELETE FROM _checkpoints WHERE key = ?').run(checkpointKey(customersProjection.name, 1));
    db.close();
    fixture.store = new SqliteDocumentStore(join(fixture.dir, 'read.sqlite'));

    const second = await fixture.caughtUpRunner();
    const deadline = Date.now() + 15_000;
    while (second.checkpoints().get('events')?.generation !== 2) {
      if (Date.now() > deadline) throw new Error('events was not rebuilt');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await fixture.append('customer-cust_13', customerCreated('cust_13'));
    await fixture.until(second, await fixture.events.headPosition());
    await second.stop();

    const after = await fixture.documents(publicEventsCollection.name, 2);
    expect(after.slice(1)).to.deep.equal(before);
    expect((after[0] as unknown as { data: { id: string } }).data.id).to.equal('cust_13');
    expect(await fixture.documents(customersCollection.name, 1)).to.have.length(13);
    expect(fixture.errors).to.deep.equal([]);
  });
});

describe('written documents filter', () => {
  it('never forgets a document it was told of, and rules out nearly all others', () => {
    const written = new WrittenDocuments();
    const ids = Array.from({ length: 20_000 }, (_, n) => `cust_${n}`);
    for (const id of ids) written.add('customers__g2', id);
    expect(ids.every((id) => written.mayHave('customers__g2', id))).to.equal(true);
    const others = Array.from({ length: 20_000 }, (_, n) => `cust_other_${n}`);
    const falsePositives = others.filter((id) => written.mayHave('customers__g2', id)).length;
    expect(falsePositives).to.be.below(200);
    expect(ids.filter((id) => written.mayHave('customers__g3', id)).length).to.be.below(200);
  });
});
