import Database from 'better-sqlite3';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sinon from 'sinon';
import type { ProjectionWrite, UntypedDocument } from '../../packages/readstore/document-store.ts';
import { MongoDocumentStore } from '../../packages/readstore/mongo-document-store.ts';
import { SqliteDocumentStore } from '../../packages/readstore/sqlite-document-store.ts';
import { SqliteReadFiles } from '../../packages/readstore/sqlite-read-files.ts';
import { describeDocumentStoreContract } from './document-store.contract.ts';
import { rejectionOf } from './event-store.contract.ts';

describe('SqliteDocumentStore', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'document-store-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describeDocumentStoreContract('SQLite', async () => new SqliteDocumentStore(join(dir, 'contract.sqlite')));
  describeDocumentStoreContract('SQLite in memory', async () => new SqliteDocumentStore(':memory:'));
  describeDocumentStoreContract(
    'SQLite read store files',
    async () => new SqliteReadFiles(mkdtempSync(join(dir, 'files-'))),
  );
  describeDocumentStoreContract(
    'SQLite with projection commits on a thread',
    // From the first batch on: the thread takes every batch once it has started.
    async () =>
      new SqliteDocumentStore(join(dir, 'commits-on-thread.sqlite'), { commitsOnThread: { startAtPerSecond: 1 } }),
  );
  describeDocumentStoreContract(
    'SQLite read store files with projection commits on a thread',
    async () => new SqliteReadFiles(mkdtempSync(join(dir, 'files-')), { commitsOnThread: { startAtPerSecond: 1 } }),
  );
  describeDocumentStoreContract('SQLite read store files, after a switch to a rebuilt file', async () => {
    const files = new SqliteReadFiles(mkdtempSync(join(dir, 'files-')));
    const path = files.newFile();
    await new SqliteDocumentStore(path, { bulkBuild: true }).seal();
    files.switchTo(path);
    return files;
  });

  describe('SQLite read store files', () => {
    it('serves a rebuilt file in every process of the data directory once one switches to it', async () => {
      const dataDir = mkdtempSync(join(dir, 'switch-'));
      const api = new SqliteReadFiles(dataDir);
      const projector = new SqliteReadFiles(dataDir);
      api.followSwitches();
      try {
        await projector.collection('customers').put({ id: 'cus_old', created: 1 });
        const path = projector.newFile();
        const build = new SqliteDocumentStore(path, { bulkBuild: true });
        await build.collection('customers').put({ id: 'cus_rebuilt', created: 2 });
        await build.seal();
        expect(await api.collection('customers').get('cus_old')).to.not.equal(null);

        projector.switchTo(path);
        expect(await projector.collection('customers').get('cus_rebuilt')).to.not.equal(null);
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(await api.collection('customers').get('cus_rebuilt')).to.not.equal(null);
        expect(await api.collection('customers').get('cus_old')).to.equal(null);
      } finally {
        await api.close();
        await projector.close();
      }
    });
    it('answers a read in a process that has not looked at the pointer yet from the new file, with what was written there after the switch', async () => {
      const dataDir = mkdtempSync(join(dir, 'late-'));
      const api = new SqliteReadFiles(dataDir); // never follows the pointer by itself
      const projector = new SqliteReadFiles(dataDir);
      try {
        await projector.collection('charges').put({ id: 'char_before', created: 1 });
        expect(await api.collection('charges').get('char_before')).to.not.equal(null);
        const path = projector.newFile();
        const build = new SqliteDocumentStore(path, { bulkBuild: true });
        await build.collection('charges').put({ id: 'char_before', created: 1 });
        await build.seal();

        projector.switchTo(path);
        // Acknowledged by another process once the projector wrote it to the new file.
        await projector.collection('charges').put({ id: 'char_after', created: 2 });
        await projector.collection('charges').put({ id: 'char_before', created: 1, status: 'changed' });

        // A document the replaced file holds too is read again from the new one, where it changed.
        expect(await api.collection('charges').get('char_before')).to.include({ status: 'changed' });
        expect(api.currentPath).to.equal(path);
        expect(await api.collection('charges').get('char_after')).to.not.equal(null);
        const listed = await api.collection('charges').list({ limit: 10 });
        expect(listed.list.map((doc) => doc.id)).to.deep.equal(['char_after', 'char_before']);
        expect(api.currentPath).to.equal(path);
      } finally {
        await api.close();
        await projector.close();
      }
    });
  });

  describe('SQLite specifics', () => {
    const charge = (i: number, fields: Record<string, unknown> = {}): UntypedDocument => ({
      id: `ch_${i}`,
      created: 1000 + i,
      _seq: i,
      _accountId: `acct_${i % 2}`,
      _mode: 'live',
      status: i % 3 === 0 ? 'paid' : 'open',
      ...fields,
    });
    /** 2,000 charges as one projection batch, from `position` on. */
    const bigBatch = (position: number): ProjectionWrite[] =>
      Array.from({ length: 2000 }, (_, i) => ({
        collection: 'charges__g1',
        op: 'put' as const,
        doc: charge(i),
        position: position + i,
      }));
    /** Whether the event loop turned while `commit` ran: it does when SQLite commits on another thread. */
    const loopTurnedDuring = async (commit: Promise<void>): Promise<boolean> => {
      let turned = false;
      setImmediate(() => (turned = true));
      await commit;
      return turned;
    };
    /**
     * Commits small batches (a checkpoint each) often enough to start the store's committing
     * thread, and a big batch after each few until one commits while the event loop turns: on the
     * thread. Returns the position that batch committed `charges@1` at.
     */
    const commitUntilOnThread = async (store: SqliteDocumentStore): Promise<number> => {
      const deadline = Date.now() + 20_000;
      for (let position = 0; Date.now() < deadline;) {
        for (let i = 0; i < 5; i++) await store.commitProjection([], [{ key: 'warm-up@1', position: position + i }]);
        const at = position + 2000;
        if (
          await loopTurnedDuring(store.commitProjection(bigBatch(position + 1), [{ key: 'charges@1', position: at }]))
        )
          return at;
        position = at;
        await new Promise((resolveWait) => setTimeout(resolveWait, 20));
      }
      throw new Error('the projection commits never moved to a thread');
    };

    it('serves a scoped, filtered list with a cursor from one index, without sorting', async () => {
      const store = new SqliteDocumentStore(':memory:');
      try {
        const charges = store.collection('charges', { indexes: ['_accountId', '_mode', 'status'] });
        for (let i = 0; i < 20; i++) await charges.put(charge(i));
        const filter = { _accountId: 'acct_0', _mode: 'live', status: 'open' };
        for (const query of [
          { filter, limit: 10, startingAfterId: 'ch_10' },
          { filter, limit: 10, endingBeforeId: 'ch_2', created: { gte: 1000 } },
          { filter: { _accountId: 'acct_0', _mode: 'live' }, limit: 10, startingAfterId: 'ch_10' },
        ]) {
          const plan = charges.queryPlan(query).join('\n');
          expect(plan).to.match(/SEARCH charges USING INDEX charges by _accountId,_mode/);
          expect(plan, 'the cursor bounds the index range').to.include('(created,seq,id)');
          expect(plan).not.to.match(/SCAN|TEMP B-TREE/);
        }
      } finally {
        await store.close();
      }
    });

    it('makes no index of the scope alone when every list also filters on deletion, and serves those lists', async () => {
      const store = new SqliteDocumentStore(':memory:');
      try {
        const customers = store.collection('customers', {
          indexes: ['_accountId', '_mode', '_deleted', 'email'],
          scopeAloneListed: false,
        });
        for (let i = 0; i < 20; i++) await customers.put(charge(i, { _deleted: i % 5 === 0, email: `c${i % 3}@x.io` }));
        const scope = { _accountId: 'acct_0', _mode: 'live' };
        for (const filter of [
          { ...scope, _deleted: false },
          { ...scope, _deleted: false, email: 'c1@x.io' },
        ]) {
          const plan = customers.queryPlan({ filter, limit: 10 }).join('\n');
          expect(plan).to.match(/SEARCH customers USING INDEX customers by _accountId,_mode,(_deleted|email)/);
          expect(plan).not.to.match(/SCAN|TEMP B-TREE/);
        }
        const listed = await customers.list({ filter: { ...scope, _deleted: false, email: 'c1@x.io' }, limit: 10 });
        expect(listed.list.map((doc) => doc.id)).to.deep.equal(['ch_16', 'ch_4']);
        // Listing by the scope alone still works (on the sort key), but no index of the scope alone was made.
        expect(customers.queryPlan({ filter: scope, limit: 10 }).join('\n')).not.to.match(/by _accountId,_mode(?!,)/);
      } finally {
        await store.close();
      }
    });

    it('shares one file between two stores (processes) and keeps it across reopening', async () => {
      const path = join(dir, 'shared.sqlite');
      const api = new SqliteDocumentStore(path, { synchronous: 'FULL' });
      const projector = new SqliteDocumentStore(path);
      await projector.commitProjection(
        [{ collection: 'charges__g1', op: 'put', doc: charge(1), position: 9 }],
        [{ key: 'charges@1', position: 9 }],
      );
      expect(await api.collection('charges__g1').get('ch_1')).to.deep.equal(charge(1));
      await api.close();
      await projector.close();

      const reopened = new SqliteDocumentStore(path);
      expect(await reopened.getCheckpoint('charges@1')).to.equal(9);
      await reopened.close();
    });

    it('commits a lone projection batch on its own connection, without a thread', async () => {
      const store = new SqliteDocumentStore(join(dir, 'lone-commit.sqlite'), { commitsOnThread: true });
      try {
        expect(
          await loopTurnedDuring(store.commitProjection(bigBatch(1), [{ key: 'charges@1', position: 2000 }])),
        ).to.equal(false);
        expect(await store.collection('charges__g1').get('ch_1999')).to.deep.equal(charge(1999));
        expect(await store.getCheckpoint('charges@1')).to.equal(2000);
      } finally {
        await store.close();
      }
    });

    it('commits projection batches on a thread of its own once they come often: the event loop runs while a batch commits, reads after it see it', async () => {
      const store = new SqliteDocumentStore(join(dir, 'thread-commits.sqlite'), {
        commitsOnThread: { startAtPerSecond: 5 },
      });
      try {
        await commitUntilOnThread(store);
        expect(await store.collection('charges__g1').get('ch_1999')).to.deep.equal(charge(1999));
        expect(await store.collection('charges__g1').count()).to.equal(2000);
        expect(await store.getCheckpoint('charges@1')).to.be.at.least(2000);
      } finally {
        await store.close();
      }
    });

    it('commits on its own connection again once batches stopped coming, without waiting for the thread', async () => {
      const store = new SqliteDocumentStore(join(dir, 'thread-rests.sqlite'), {
        commitsOnThread: { startAtPerSecond: 5, restAfterMs: 200 },
      });
      try {
        const position = await commitUntilOnThread(store);
        await new Promise((resolveWait) => setTimeout(resolveWait, 600));
        const next = bigBatch(position + 1).map((write) =>
          write.op === 'put' ? { ...write, doc: { ...write.doc, status: 'refunded' } } : write,
        );
        const at = position + 2000;
        expect(await loopTurnedDuring(store.commitProjection(next, [{ key: 'charges@1', position: at }]))).to.equal(
          false,
        );
        expect(await store.collection('charges__g1').get('ch_1999')).to.deep.equal(
          charge(1999, { status: 'refunded' }),
        );
        expect(await store.getCheckpoint('charges@1')).to.equal(at);
      } finally {
        await store.close();
      }
    });

    it('writes nothing of a batch whose commit fails on the thread, and commits the next', async () => {
      const store = new SqliteDocumentStore(join(dir, 'thread-failure.sqlite'), {
        commitsOnThread: { startAtPerSecond: 5 },
      });
      try {
        const position = await commitUntilOnThread(store);
        const failing = store.commitProjection(
          [{ collection: 'charges__g1', op: 'put', doc: charge(5000), position: position + 1 }],
          // A checkpoint without a position breaks the checkpoints table's NOT NULL: the whole batch is rolled back.
          [{ key: 'charges@1', position: null as unknown as number }],
        );
        expect(String(await rejectionOf(failing))).to.match(/NOT NULL/);
        expect(await store.collection('charges__g1').get('ch_5000')).to.equal(null);
        expect(await store.getCheckpoint('charges@1')).to.equal(position);

        await store.commitProjection(
          [{ collection: 'charges__g1', op: 'put', doc: charge(5001), position: position + 2 }],
          [{ key: 'charges@1', position: position + 2 }],
        );
        expect(await store.collection('charges__g1').get('ch_5001')).to.deep.equal(charge(5001));
        expect(await store.getCheckpoint('charges@1')).to.equal(position + 2);
      } finally {
        await store.close();
      }
    });

    it('purges expired documents from the table on a later write', async () => {
      const path = join(dir, 'purge.sqlite');
      const store = new SqliteDocumentStore(path);
      const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
      try {
        const keys = store.collection('idempotency');
        await keys.put({ id: 'key_1', created: 1, _expiresAt: Date.now() + 1000 });
        clock.tick(120_000);
        expect(await keys.get('key_1')).to.equal(null);
        expect(rowCount(path, 'idempotency')).to.equal(1);
        await keys.put({ id: 'key_2', created: 2 });
        expect(rowCount(path, 'idempotency')).to.equal(1);
        expect(await keys.get('key_2')).to.deep.equal({ id: 'key_2', created: 2 });
      } finally {
        clock.restore();
        await store.close();
      }
    });

    it('rejects collection names it cannot quote safely', () => {
      const store = new SqliteDocumentStore(':memory:');
      expect(() => store.collection('charges"; DROP TABLE x; --')).to.throw(TypeError);
      expect(() => store.collection('_checkpoints')).to.throw(TypeError);
    });
  });
});

const mongodbUrl = process.env.MONGODB_URL;
if (mongodbUrl) {
  describe('MongoDocumentStore', () => {
    describeDocumentStoreContract('MongoDB', () => MongoDocumentStore.connect(mongodbUrl));
  });
} else {
  console.warn('*** MongoDB contract suite SKIPPED: set MONGODB_URL to run it ***');
  // Registered as pending, so that the skipped tests are counted.
  describe.skip('MongoDocumentStore (set MONGODB_URL to run)', () => {
    describeDocumentStoreContract('MongoDB', () => MongoDocumentStore.connect('mongodb://unset'));
  });
}

function rowCount(path: string, table: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}
