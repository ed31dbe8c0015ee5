import Database from 'better-sqlite3';
import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Document, FieldValue, ProjectionWrite } from '../../packages/readstore/document-store.ts';
import { SqliteBuildFile } from '../../packages/readstore/sqlite-build-file.ts';
import { SqliteDocumentStore } from '../../packages/readstore/sqlite-document-store.ts';

interface CustomerDoc extends Document {
  email: string;
  _accountId: string;
  _mode: string;
}

const customer = (n: number, email = `c${n}@example.com`): CustomerDoc => ({
  id: `cus_${String(n).padStart(6, '0')}`,
  created: 1_700_000_000 + n,
  _seq: n,
  email,
  _accountId: `acct_${n % 3}`,
  _mode: 'test',
});

const put = (doc: Document, position: number): ProjectionWrite => ({
  collection: 'customers__g1',
  op: 'put',
  doc,
  position,
});

describe('SqliteBuildFile: a rebuild’s read store file written on a thread of its own', function () {
  this.timeout(30_000);
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'build-file-'));
    path = join(dir, 'read.1.sqlite');
    // As `SqliteReadFiles.newFile` leaves it: empty.
    closeSync(openSync(path, 'w', 0o600));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back every write handed over, committed or still in flight, and seals a file that serves them', async () => {
    const build = new SqliteBuildFile(path);
    await build.commitProjection([put(customer(0), 1)], [{ key: 'customers@1', position: 1 }]);
    expect(await build.get('customers__g1', 'cus_000000')).to.deep.equal(customer(0));
    const more = Array.from({ length: 20_000 }, (_, i) => customer(i + 1));
    await build.commitProjection(
      more.map((doc, i) => put(doc, i + 2)),
      [{ key: 'customers@1', position: 20_001 }],
    );
    // Handed over just now, and tens of milliseconds of SQLite work for the thread: the build reads it all the same.
    expect(await build.get<CustomerDoc>('customers__g1', 'cus_020000')).to.deep.equal(more.at(-1));
    await build.commitProjection(
      [
        put(customer(7, 'changed@example.com'), 20_002),
        { collection: 'customers__g1', op: 'delete', id: 'cus_000008', position: 20_003 },
      ],
      [{ key: 'customers@1', position: 20_003 }],
    );
    expect((await build.get<CustomerDoc>('customers__g1', 'cus_000007'))?.email).to.equal('changed@example.com');
    expect(await build.get('customers__g1', 'cus_000008')).to.equal(null);
    // From the file, once the commit that wrote it has landed.
    expect((await build.get<CustomerDoc>('customers__g1', 'cus_000009'))?.email).to.equal('c9@example.com');
    expect(await build.getCheckpoint('customers@1')).to.equal(20_003);
    build.collection('customers__g1', { indexes: ['_accountId', '_mode'] });
    await build.collection('_projections').put({ id: 'customers', created: 0 });
    await build.seal();

    const sealed = new SqliteDocumentStore(path);
    try {
      const customers = sealed.collection<CustomerDoc>('customers__g1', { indexes: ['_accountId', '_mode'] });
      expect(await customers.count()).to.equal(20_000);
      expect((await customers.get('cus_000007'))?.email).to.equal('changed@example.com');
      const query = { filter: { _accountId: 'acct_1', _mode: 'test' }, limit: 2 };
      expect((await customers.list(query)).list.map((doc) => doc.id)).to.deep.equal(['cus_019999', 'cus_019996']);
      // The list index was built in the file, not left to the first reader.
      expect(customers.queryPlan(query).join(' ')).to.include('USING INDEX customers__g1 by _accountId,_mode');
      expect(await sealed.getCheckpoint('customers@1')).to.equal(20_003);
      expect(await sealed.collection('_projections').get('customers')).to.not.equal(null);
    } finally {
      await sealed.close();
    }
  });

  it('keeps a planned collection’s list-index fields as columns: lists and counts are those of a store without them, served by their indexes', async () => {
    const options = { indexes: ['_accountId', '_mode', 'email', 'flag'], scopeAloneListed: true };
    // Values of every JSON type a filter meets, and the look-alikes only json_type tells apart.
    const flags: unknown[] = [true, false, 1, 0, '1', null, undefined, 2.5, { nested: 1 }, 'true'];
    const docs = Array.from({ length: 60 }, (_, n) => {
      const doc = customer(n, n % 4 === 0 ? 'same@example.com' : `c${n}@example.com`);
      const flag = flags[n % flags.length];
      return (flag === undefined ? doc : { ...doc, flag }) as CustomerDoc;
    });
    const build = new SqliteBuildFile(path);
    build.plannedCollections(new Map([['customers__g1', options]]));
    await build.commitProjection(
      docs.map((doc, i) => put(doc, i + 1)),
      [{ key: 'customers@1', position: docs.length }],
    );
    build.collection('customers__g1', options);
    await build.seal();

    const plainPath = join(dir, 'plain.sqlite');
    const plain = new SqliteDocumentStore(plainPath);
    const sealed = new SqliteDocumentStore(path);
    try {
      const file = new Database(path, { readonly: true });
      const columns = file.prepare("SELECT name FROM pragma_table_xinfo('customers__g1')").pluck().all();
      file.close();
      expect(columns).to.include.members(['doc._accountId', 'doc._mode', 'doc.email', 'doc.flag']);
      const plainCustomers = plain.collection<CustomerDoc>('customers__g1', options);
      for (const doc of docs) await plainCustomers.put(doc);
      const builtCustomers = sealed.collection<CustomerDoc>('customers__g1', options);
      const filters: Record<string, FieldValue>[] = [
        { _accountId: 'acct_1', _mode: 'test' },
        { _accountId: 'acct_2', _mode: 'test', email: 'same@example.com' },
        ...[true, false, 1, 0, '1', null, 2.5].map((flag) => ({ _accountId: 'acct_0', _mode: 'test', flag })),
      ];
      for (const filter of filters) {
        const query = { filter, limit: 5 };
        const ids = async (store: typeof plainCustomers) => (await store.list(query)).list.map((doc) => doc.id);
        expect(await ids(builtCustomers), JSON.stringify(filter)).to.deep.equal(await ids(plainCustomers));
        expect(await builtCustomers.count(filter), JSON.stringify(filter)).to.equal(await plainCustomers.count(filter));
        const index = `customers__g1 by ${Object.keys(filter).join(',')}`;
        expect(builtCustomers.queryPlan(query).join(' '), JSON.stringify(filter)).to.include(`USING INDEX ${index}`);
      }
      expect(await builtCustomers.count({ _accountId: 'acct_0', _mode: 'test', flag: false })).to.be.greaterThan(0);
      // Written after the switch, a document's columns follow it: lists find it by its new values.
      await builtCustomers.put({ ...docs[1]!, email: 'moved@example.com' });
      const moved = { filter: { _accountId: 'acct_1', _mode: 'test', email: 'moved@example.com' }, limit: 5 };
      expect((await builtCustomers.list(moved)).list.map((doc) => doc.id)).to.deep.equal([docs[1]!.id]);
    } finally {
      await sealed.close();
      await plain.close();
    }
  });

  it('reads documents written batches ago, and those it never wrote, before anything is committed', async () => {
    const build = new SqliteBuildFile(path);
    try {
      await build.commitProjection([put(customer(1), 1)], [{ key: 'customers@1', position: 1 }]);
      await build.commitProjection([put(customer(2), 2)], [{ key: 'customers@1', position: 2 }]);
      // Neither in the batch in flight nor committed yet: the table itself is not in the file yet.
      expect(await build.get('customers__g1', 'cus_999999')).to.equal(null);
      expect(await build.get('customers__g1', 'cus_000001')).to.deep.equal(customer(1));
      await build.commitProjection([put(customer(3), 3)], [{ key: 'customers@1', position: 3 }]);
      await build.commitProjection([put(customer(4), 4)], [{ key: 'customers@1', position: 4 }]);
      expect(await build.get('customers__g1', 'cus_000003')).to.deep.equal(customer(3));
      expect(await build.getCheckpoint('customers@1')).to.equal(4);
    } finally {
      await build.close();
    }
  });

  it('reads the newest of several batches in flight that wrote the same document', async () => {
    const build = new SqliteBuildFile(path);
    try {
      const many = Array.from({ length: 20_000 }, (_, i) => customer(i + 1));
      // Handed over one after the other, without waiting for the writer: the first takes it a while.
      await build.commitProjection(
        many.map((doc, i) => put(doc, i + 1)),
        [{ key: 'customers@1', position: 20_000 }],
      );
      await build.commitProjection([put(customer(5, 'second@example.com'), 20_001)], []);
      await build.commitProjection(
        [
          put(customer(5, 'third@example.com'), 20_002),
          { collection: 'customers__g1', op: 'delete', id: 'cus_000006', position: 20_002 },
        ],
        [],
      );
      expect((await build.get<CustomerDoc>('customers__g1', 'cus_000005'))?.email).to.equal('third@example.com');
      expect(await build.get('customers__g1', 'cus_000006')).to.equal(null);
      expect(await build.get<CustomerDoc>('customers__g1', 'cus_019999')).to.deep.equal(many.at(-2));
      expect(await build.getCheckpoint('customers@1')).to.equal(20_000);
      expect((await build.get<CustomerDoc>('customers__g1', 'cus_000005'))?.email).to.equal('third@example.com');
    } finally {
      await build.close();
    }
  });

  it('builds the same file when every id shares one hash: each candidate row is checked against its stored id', async () => {
    const colliding = new SqliteBuildFile(path, { idHash: '() => 7' });
    const plainPath = join(dir, 'read.2.sqlite');
    const plain = new SqliteDocumentStore(plainPath, { bulkBuild: true });
    for (const build of [colliding, plain]) {
      await build.commitProjection(
        Array.from({ length: 300 }, (_, i) => put(customer(i), i + 1)),
        [{ key: 'customers@1', position: 300 }],
      );
      await build.commitProjection(
        [
          put(customer(150, 'changed@example.com'), 301),
          { collection: 'customers__g1', op: 'delete', id: 'cus_000010', position: 302 },
          // A write from an earlier event than the stored document's changes nothing.
          put(customer(20, 'stale@example.com'), 5),
          { collection: 'customers__g1', op: 'delete', id: 'cus_000030', position: 25 },
        ],
        [{ key: 'customers@1', position: 302 }],
      );
      await build.commitProjection([put(customer(10, 'again@example.com'), 303)], []);
      await build.collection('_projections').put({ id: 'customers', created: 0 });
      await build.collection('_projections').put({ id: 'customers', created: 1 });
    }
    // Neither in flight any more: read from the writer's rows, past 300 candidates that are other ids'.
    await colliding.commitProjection([put(customer(1_000), 304)], []);
    await colliding.commitProjection([put(customer(1_001), 305)], []);
    await colliding.getCheckpoint('customers@1');
    expect((await colliding.get<CustomerDoc>('customers__g1', 'cus_000150'))?.email).to.equal('changed@example.com');
    expect((await colliding.get<CustomerDoc>('customers__g1', 'cus_000020'))?.email).to.equal('c20@example.com');
    expect((await colliding.get<CustomerDoc>('customers__g1', 'cus_000010'))?.email).to.equal('again@example.com');
    expect(await colliding.get('customers__g1', 'cus_000030')).to.deep.equal(customer(30));
    expect(await colliding.get('customers__g1', 'cus_999999')).to.equal(null);
    await colliding.commitProjection(
      [{ collection: 'customers__g1', op: 'delete', id: 'cus_001000', position: 306 }],
      [],
    );
    await colliding.commitProjection(
      [{ collection: 'customers__g1', op: 'delete', id: 'cus_001001', position: 307 }],
      [],
    );
    await plain.commitProjection([put(customer(1_000), 304)], []);
    await plain.commitProjection([put(customer(1_001), 305)], []);
    await plain.commitProjection([{ collection: 'customers__g1', op: 'delete', id: 'cus_001000', position: 306 }], []);
    await plain.commitProjection([{ collection: 'customers__g1', op: 'delete', id: 'cus_001001', position: 307 }], []);
    await colliding.seal();
    await plain.seal();
    expect(fileRows(path)).to.deep.equal(fileRows(plainPath));
    expect(fileRows(path).customers__g1).to.have.length(300);
  });

  it('seals a file whose ids are unique in each table, as a primary key keeps them', async () => {
    const build = new SqliteBuildFile(path);
    await build.commitProjection([put(customer(1), 1), put(customer(2), 2)], [{ key: 'customers@1', position: 2 }]);
    await build.seal();
    const db = new Database(path);
    try {
      expect(db.pragma('integrity_check', { simple: true })).to.equal('ok');
      const insert = db.prepare(
        `INSERT INTO "customers__g1" (id, created, seq, pos, expires_at, doc) VALUES ('cus_000001', 1, 1, 9, NULL, '{}')`,
      );
      expect(() => insert.run()).to.throw(/UNIQUE constraint failed: customers__g1.id/);
      // Lookups by id go through the index, as they went through the primary key's.
      const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT doc FROM "customers__g1" WHERE id = ?`).all('cus_000001');
      expect(JSON.stringify(plan)).to.include('USING INDEX customers__g1 by id (id=?)');
    } finally {
      db.close();
    }
    // The serving store's upserts (ON CONFLICT (id)) replace the row.
    const sealed = new SqliteDocumentStore(path);
    try {
      await sealed.commitProjection([put(customer(1, 'served@example.com'), 3)], []);
      const customers = sealed.collection<CustomerDoc>('customers__g1');
      expect(await customers.count()).to.equal(2);
      expect((await customers.get('cus_000001'))?.email).to.equal('served@example.com');
    } finally {
      await sealed.close();
    }
  });

  it('fails a later commit and the seal after a commit SQLite refused, leaving no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): number => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      await refusedCommit(path);
      // Rejections are reported unhandled once the microtasks after them have run.
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});

/** Every row of every table of a file (the row's number among them), by table. */
function fileRows(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare<[], { name: string }>(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
      .all();
    return Object.fromEntries(
      tables.map(({ name }) => [name, db.prepare(`SELECT rowid AS _row, * FROM "${name}" ORDER BY rowid`).all()]),
    );
  } finally {
    db.close();
  }
}

/**
 * A build whose first commit SQLite refuses: a later commit fails with its error (at the latest
 * once the batches that may be in flight have been handed over), and so does the seal; closing
 * it ends its thread.
 */
async function refusedCommit(path: string): Promise<void> {
  const build = new SqliteBuildFile(path);
  // No `created`: the row breaks the table's NOT NULL constraint.
  await build.commitProjection([put({ id: 'cus_bad' } as Document, 1)], [{ key: 'customers@1', position: 1 }]);
  let failure: unknown;
  for (let position = 2; position < 100 && failure === undefined; position++) {
    try {
      await build.commitProjection([put(customer(position), position)], []);
    } catch (error) {
      failure = error;
    }
  }
  expect(String(failure)).to.match(/NOT NULL constraint failed/);
  let sealFailure: unknown;
  try {
    await build.seal();
  } catch (error) {
    sealFailure = error;
  }
  expect(String(sealFailure)).to.match(/NOT NULL constraint failed/);
  await build.close();
}
