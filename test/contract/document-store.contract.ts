import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import {
  CursorNotFoundError,
  type UntypedDocument,
  type DocumentStore,
  type ListPage,
  type ListQuery,
} from '../../packages/readstore/document-store.ts';

/**
 * What every DocumentStore adapter must do. Each test uses collections and checkpoint keys of its
 * own, so that runs can share one MongoDB database.
 */
export function describeDocumentStoreContract(adapterName: string, open: () => Promise<DocumentStore>): void {
  describe(`DocumentStore contract: ${adapterName}`, () => {
    const runId = randomBytes(4).toString('hex');
    let store: DocumentStore;
    let created: string[] = [];
    let counter = 0;

    /** A fresh collection name, dropped after the test. */
    const fresh = (base: string): string => {
      const name = `${base}_${runId}_${++counter}`;
      created.push(name);
      return name;
    };
    const freshKey = (projection: string): string => `${projection}_${runId}_${++counter}@1`;

    before(async () => {
      store = await open();
    });
    afterEach(async () => {
      for (const name of created) await store.dropCollection(name);
      created = [];
    });
    after(async () => {
      await store.close();
    });

    describe('documents', () => {
      it('returns a nested document exactly as put', async () => {
        const customers = store.collection(fresh('customers'));
        const customer = {
          id: 'cust_1',
          created: 1_700_000_000,
          _seq: 42,
          _accountId: 'acct_1',
          _mode: 'test',
          email: 'zoë@example.com',
          balance: -12.5,
          deleted: false,
          description: null,
          metadata: { orderId: '17', tags: ['a', 'b'], nested: { deep: [1, { x: true }] } },
          cards: [],
        };
        await customers.put(customer);
        expect(await customers.get('cust_1')).to.deep.equal(customer);
      });

      it('returns null for an unknown id', async () => {
        expect(await store.collection(fresh('customers')).get('cust_missing')).to.equal(null);
      });

      it('put replaces the whole document', async () => {
        const customers = store.collection(fresh('customers'));
        await customers.put({ id: 'cust_1', created: 1, email: 'a@example.com', description: 'first' });
        await customers.put({ id: 'cust_1', created: 1, email: 'b@example.com' });
        expect(await customers.get('cust_1')).to.deep.equal({ id: 'cust_1', created: 1, email: 'b@example.com' });
      });

      it('insert adds a new document and refuses an id that is taken', async () => {
        const keys = store.collection(fresh('idempotency'));
        expect(await keys.insert({ id: 'key_1', created: 1, response: 'first' })).to.equal(true);
        expect(await keys.insert({ id: 'key_1', created: 2, response: 'second' })).to.equal(false);
        expect(await keys.get('key_1')).to.deep.equal({ id: 'key_1', created: 1, response: 'first' });
      });

      it('delete reports whether a document was deleted', async () => {
        const customers = store.collection(fresh('customers'));
        await customers.put(doc('cust_1', 1, 1));
        expect(await customers.delete('cust_1')).to.equal(true);
        expect(await customers.delete('cust_1')).to.equal(false);
        expect(await customers.get('cust_1')).to.equal(null);
      });

      it('getMany returns the documents found and leaves out missing ids', async () => {
        const customers = store.collection(fresh('customers'));
        await customers.put(doc('cust_1', 1, 1));
        await customers.put(doc('cust_2', 2, 2));
        await customers.put(doc('cust_3', 3, 3));
        const found = await customers.getMany(['cust_3', 'cust_missing', 'cust_1']);
        expect(found.map((d) => d.id).sort()).to.deep.equal(['cust_1', 'cust_3']);
        expect(await customers.getMany([])).to.deep.equal([]);
      });

      it('count counts all documents or those matching a filter', async () => {
        const customers = store.collection(fresh('customers'), { indexes: ['_accountId', '_mode'] });
        await customers.put(doc('cust_1', 1, 1, { _accountId: 'acct_a', _mode: 'live' }));
        await customers.put(doc('cust_2', 2, 2, { _accountId: 'acct_a', _mode: 'test' }));
        await customers.put(doc('cust_3', 3, 3, { _accountId: 'acct_b', _mode: 'live' }));
        expect(await customers.count()).to.equal(3);
        expect(await customers.count({ _accountId: 'acct_a' })).to.equal(2);
        expect(await customers.count({ _accountId: 'acct_a', _mode: 'live' })).to.equal(1);
        expect(await customers.count({ _accountId: 'acct_c' })).to.equal(0);
      });
    });

    describe('list', () => {
      it('lists newest first, ties on created broken by _seq', async () => {
        const charges = store.collection(fresh('charges'));
        for (const d of [doc('a', 100, 1), doc('d', 50, 9), doc('e', 100, 3), doc('c', 200, 2), doc('b', 100, 5)]) {
          await charges.put(d);
        }
        expect(ids(await charges.list({ limit: 10 }))).to.deep.equal(['c', 'b', 'e', 'a', 'd']);
      });

      describe('equality filters', () => {
        const fixtures = [
          doc('f1', 1, 1, { _accountId: 'acct_a', _mode: 'live', status: 'paid', deleted: false }),
          doc('f2', 2, 2, { _accountId: 'acct_a', _mode: 'live', status: 'paid', deleted: true }),
          doc('f3', 3, 3, { _accountId: 'acct_a', _mode: 'test', status: 'paid', deleted: false }),
          doc('f4', 4, 4, { _accountId: 'acct_b', _mode: 'live', status: 'paid', deleted: false }),
          doc('f5', 5, 5, { _accountId: 'acct_a', _mode: 'live', status: null, deleted: 0 }),
          doc('f6', 6, 6, { _accountId: 'acct_a', _mode: 'live', amount: 1 }),
          doc('f7', 7, 7, { _accountId: 'acct_a', _mode: 'live', status: 'open', amount: '1' }),
        ];
        const cases: [string, ListQuery['filter'], string[]][] = [
          ['false matches stored false only (not 0, not missing)', { deleted: false }, ['f4', 'f3', 'f1']],
          ['true matches stored true', { deleted: true }, ['f2']],
          ['null matches null and missing', { status: null }, ['f6', 'f5']],
          ['a number does not match a numeric string', { amount: 1 }, ['f6']],
          ['a string does not match a number', { amount: '1' }, ['f7']],
          ['scope plus a field', { _accountId: 'acct_a', _mode: 'live', status: 'paid' }, ['f2', 'f1']],
          ['scope plus two fields', { _accountId: 'acct_a', _mode: 'live', status: 'paid', deleted: false }, ['f1']],
          ['a field that was not declared as an index', { amount: 1, _mode: 'live' }, ['f6']],
          ['no match', { _accountId: 'acct_c' }, []],
        ];
        for (const [title, filter, expected] of cases) {
          it(title, async () => {
            const charges = store.collection(fresh('charges'), {
              indexes: ['_accountId', '_mode', 'status', 'deleted'],
            });
            for (const fixture of fixtures) await charges.put(fixture);
            expect(ids(await charges.list({ filter, limit: 10 }))).to.deep.equal(expected);
            expect(await charges.count(filter)).to.equal(expected.length);
          });
        }
      });

      it('filters on created with gt, gte, lt and lte', async () => {
        const charges = store.collection(fresh('charges'));
        for (const created of [10, 20, 30, 40, 50]) await charges.put(doc(`ch_${created}`, created, created));
        const listed = async (range: ListQuery['created']) => ids(await charges.list({ created: range, limit: 10 }));
        expect(await listed({ gt: 20 })).to.deep.equal(['ch_50', 'ch_40', 'ch_30']);
        expect(await listed({ gte: 20 })).to.deep.equal(['ch_50', 'ch_40', 'ch_30', 'ch_20']);
        expect(await listed({ lt: 40 })).to.deep.equal(['ch_30', 'ch_20', 'ch_10']);
        expect(await listed({ lte: 40 })).to.deep.equal(['ch_40', 'ch_30', 'ch_20', 'ch_10']);
        expect(await listed({ gt: 10, lt: 50 })).to.deep.equal(['ch_40', 'ch_30', 'ch_20']);
      });

      it('returns at most limit documents and tells whether more match', async () => {
        const charges = store.collection(fresh('charges'));
        for (const n of [1, 2, 3]) await charges.put(doc(`ch_${n}`, n, n));
        expect(await charges.list({ limit: 2 })).to.deep.include({ hasMore: true });
        expect(ids(await charges.list({ limit: 2 }))).to.deep.equal(['ch_3', 'ch_2']);
        expect(await charges.list({ limit: 3 })).to.deep.include({ hasMore: false });
        expect(await charges.list({ limit: 1, filter: { status: 'none' } })).to.deep.equal({
          list: [],
          hasMore: false,
        });
      });

      describe('paging through 25 documents in pages of 10', () => {
        // Three documents per second: ties on created everywhere.
        const all = Array.from({ length: 25 }, (_, i) =>
          doc(`ch_${String(i).padStart(2, '0')}`, 1000 + Math.floor(i / 3), i),
        );
        const newestFirst = [...all].reverse().map((d) => d.id);

        it('forward with startingAfterId: no duplicates, no gaps', async () => {
          const charges = store.collection(fresh('charges'));
          for (const d of all) await charges.put(d);
          const pages: ListPage<UntypedDocument>[] = [await charges.list({ limit: 10 })];
          while (pages.at(-1)!.hasMore) {
            pages.push(await charges.list({ limit: 10, startingAfterId: pages.at(-1)!.list.at(-1)!.id }));
          }
          expect(pages.map((page) => page.list.length)).to.deep.equal([10, 10, 5]);
          expect(pages.flatMap(ids)).to.deep.equal(newestFirst);
        });

        it('backward with endingBeforeId: each page newest first, no duplicates, no gaps', async () => {
          const charges = store.collection(fresh('charges'));
          for (const d of all) await charges.put(d);
          const oldest = newestFirst.at(-1)!;
          const pages: ListPage<UntypedDocument>[] = [await charges.list({ limit: 10, endingBeforeId: oldest })];
          while (pages.at(-1)!.hasMore) {
            pages.push(await charges.list({ limit: 10, endingBeforeId: pages.at(-1)!.list[0]!.id }));
          }
          expect(pages.map((page) => page.list.length)).to.deep.equal([10, 10, 4]);
          expect(pages.reverse().flatMap(ids)).to.deep.equal(newestFirst.slice(0, -1));
        });

        it('finds nothing beyond either end', async () => {
          const charges = store.collection(fresh('charges'));
          for (const d of all) await charges.put(d);
          const empty = { list: [], hasMore: false };
          expect(await charges.list({ limit: 10, startingAfterId: newestFirst.at(-1)! })).to.deep.equal(empty);
          expect(await charges.list({ limit: 10, endingBeforeId: newestFirst[0]! })).to.deep.equal(empty);
        });
      });

      it('pages without gaps through documents that share created and have no _seq', async () => {
        const keys = store.collection(fresh('idempotency'));
        const all = Array.from({ length: 12 }, (_, i) => ({ id: `key_${i}`, created: 500 }));
        for (const d of all) await keys.put(d);
        const seen: string[] = [];
        let page = await keys.list({ limit: 5 });
        seen.push(...ids(page));
        while (page.hasMore) {
          page = await keys.list({ limit: 5, startingAfterId: seen.at(-1)! });
          seen.push(...ids(page));
        }
        expect(seen).to.have.length(12);
        expect([...seen].sort()).to.deep.equal(all.map((d) => d.id).sort());
      });

      it('combines cursors with a filter and a created range', async () => {
        const charges = store.collection(fresh('charges'), { indexes: ['_accountId', '_mode', 'status'] });
        const all = Array.from({ length: 40 }, (_, i) =>
          doc(`ch_${String(i).padStart(2, '0')}`, 100 + Math.floor(i / 2), i, {
            _accountId: i % 2 === 0 ? 'acct_a' : 'acct_b',
            _mode: 'live',
            status: i % 3 === 0 ? 'paid' : 'open',
          }),
        );
        for (const d of all) await charges.put(d);
        const filter = { _accountId: 'acct_a', _mode: 'live', status: 'open' };
        const range = { gte: 103, lt: 117 };
        const expected = all
          .filter((d) => d._accountId === 'acct_a' && d.status === 'open' && d.created >= 103 && d.created < 117)
          .reverse()
          .map((d) => d.id);
        expect(expected).to.have.length.above(6);

        const forward: string[] = [];
        let page = await charges.list({ filter, created: range, limit: 3 });
        forward.push(...ids(page));
        while (page.hasMore) {
          page = await charges.list({ filter, created: range, limit: 3, startingAfterId: forward.at(-1)! });
          forward.push(...ids(page));
        }
        expect(forward).to.deep.equal(expected);

        const backward: string[] = [];
        page = await charges.list({ filter, created: range, limit: 3, endingBeforeId: expected.at(-1)! });
        backward.unshift(...ids(page));
        while (page.hasMore) {
          page = await charges.list({ filter, created: range, limit: 3, endingBeforeId: backward[0]! });
          backward.unshift(...ids(page));
        }
        expect(backward).to.deep.equal(expected.slice(0, -1));
      });

      it('ignores endingBeforeId when startingAfterId is set', async () => {
        const charges = store.collection(fresh('charges'));
        for (const n of [1, 2, 3, 4]) await charges.put(doc(`ch_${n}`, n, n));
        const page = await charges.list({ limit: 10, startingAfterId: 'ch_3', endingBeforeId: 'ch_1' });
        expect(ids(page)).to.deep.equal(['ch_2', 'ch_1']);
      });

      it('accepts a cursor document outside a filter that is not the tenant scope', async () => {
        const charges = store.collection(fresh('charges'), { indexes: ['status'] });
        await charges.put(doc('ch_1', 1, 1, { status: 'open' }));
        await charges.put(doc('ch_2', 2, 2, { status: 'paid' }));
        await charges.put(doc('ch_3', 3, 3, { status: 'open' }));
        expect(
          ids(await charges.list({ filter: { status: 'open' }, limit: 10, startingAfterId: 'ch_2' })),
        ).to.deep.equal(['ch_1']);
      });

      describe('unknown cursors', () => {
        it('rejects an id that names no document', async () => {
          const charges = store.collection(fresh('charges'));
          await charges.put(doc('ch_1', 1, 1));
          const after = await rejectionOf(charges.list({ limit: 10, startingAfterId: 'ch_missing' }));
          expect(after)
            .to.be.instanceOf(CursorNotFoundError)
            .and.include({ parameter: 'startingAfterId', cursorId: 'ch_missing' });
          const before = await rejectionOf(charges.list({ limit: 10, endingBeforeId: 'ch_missing' }));
          expect(before)
            .to.be.instanceOf(CursorNotFoundError)
            .and.include({ parameter: 'endingBeforeId', cursorId: 'ch_missing' });
        });

        it("rejects another account's or mode's document when the filter is scoped", async () => {
          const charges = store.collection(fresh('charges'), { indexes: ['_accountId', '_mode'] });
          await charges.put(doc('ch_a', 1, 1, { _accountId: 'acct_a', _mode: 'live' }));
          await charges.put(doc('ch_b', 2, 2, { _accountId: 'acct_b', _mode: 'live' }));
          await charges.put(doc('ch_t', 3, 3, { _accountId: 'acct_a', _mode: 'test' }));
          const scoped = { _accountId: 'acct_a', _mode: 'live' };
          expect(
            await rejectionOf(charges.list({ filter: { _accountId: 'acct_a' }, limit: 10, startingAfterId: 'ch_b' })),
          ).to.be.instanceOf(CursorNotFoundError);
          expect(
            await rejectionOf(charges.list({ filter: scoped, limit: 10, endingBeforeId: 'ch_b' })),
          ).to.be.instanceOf(CursorNotFoundError);
          expect(
            await rejectionOf(charges.list({ filter: scoped, limit: 10, startingAfterId: 'ch_t' })),
          ).to.be.instanceOf(CursorNotFoundError);
          expect(ids(await charges.list({ limit: 10, startingAfterId: 'ch_b' }))).to.deep.equal(['ch_a']);
        });
      });
    });

    describe('expiry', () => {
      it('hides a document whose _expiresAt has passed and lets insert take its id again', async () => {
        const keys = store.collection(fresh('idempotency'), { indexes: ['_accountId'] });
        const expired = doc('key_old', 1, 1, { _accountId: 'acct_a', _expiresAt: Date.now() - 60_000 });
        const live = doc('key_live', 2, 2, { _accountId: 'acct_a', _expiresAt: Date.now() + 3_600_000 });
        await keys.put(expired);
        await keys.put(live);

        expect(await keys.get('key_old')).to.equal(null);
        expect((await keys.getMany(['key_old', 'key_live'])).map((d) => d.id)).to.deep.equal(['key_live']);
        expect(ids(await keys.list({ filter: { _accountId: 'acct_a' }, limit: 10 }))).to.deep.equal(['key_live']);
        expect(await keys.count()).to.equal(1);
        expect(await keys.count({ _accountId: 'acct_a' })).to.equal(1);
        expect(await rejectionOf(keys.list({ limit: 10, startingAfterId: 'key_old' }))).to.be.instanceOf(
          CursorNotFoundError,
        );
        expect(await keys.delete('key_old')).to.equal(false);

        const retaken = doc('key_old', 3, 3, { _accountId: 'acct_a' });
        expect(await keys.insert(retaken)).to.equal(true);
        expect(await keys.get('key_old')).to.deep.equal(retaken);
        expect(await keys.insert(doc('key_live', 4, 4))).to.equal(false);
        expect(await keys.get('key_live')).to.deep.equal(live);
      });
    });

    describe('projection commits', () => {
      it('applies puts and deletes across collections and moves the checkpoint', async () => {
        const customers = fresh('customers__g1');
        const cards = fresh('cards__g1');
        const key = freshKey('customers');
        await store.collection(customers).put(doc('cust_gone', 1, 1));
        await store.commitProjection(
          [
            { collection: customers, op: 'put', doc: doc('cust_1', 10, 5, { email: 'a@example.com' }), position: 5 },
            { collection: cards, op: 'put', doc: doc('card_1', 11, 6, { customerId: 'cust_1' }), position: 6 },
            { collection: customers, op: 'delete', id: 'cust_gone', position: 7 },
          ],
          [{ key, position: 7 }],
        );
        expect(await store.collection(customers).get('cust_1')).to.deep.equal(
          doc('cust_1', 10, 5, { email: 'a@example.com' }),
        );
        expect(await store.collection(cards).get('card_1')).to.deep.equal(
          doc('card_1', 11, 6, { customerId: 'cust_1' }),
        );
        expect(await store.collection(customers).get('cust_gone')).to.equal(null);
        expect(await store.getCheckpoint(key)).to.equal(7);
      });

      it('replaying a batch that was applied changes nothing', async () => {
        const customers = fresh('customers__g1');
        const key = freshKey('customers');
        const batch = [
          {
            collection: customers,
            op: 'put' as const,
            doc: doc('cust_1', 10, 5, { email: 'a@example.com' }),
            position: 5,
          },
          { collection: customers, op: 'put' as const, doc: doc('cust_2', 11, 6), position: 6 },
          {
            collection: customers,
            op: 'put' as const,
            doc: doc('cust_1', 10, 5, { email: 'b@example.com' }),
            position: 7,
          },
          { collection: customers, op: 'delete' as const, id: 'cust_2', position: 8 },
        ];
        await store.commitProjection(batch, [{ key, position: 8 }]);
        await store.commitProjection(batch, [{ key, position: 8 }]);
        expect(await store.collection(customers).list({ limit: 10 })).to.deep.equal({
          list: [doc('cust_1', 10, 5, { email: 'b@example.com' })],
          hasMore: false,
        });
        expect(await store.getCheckpoint(key)).to.equal(8);
      });

      it('applies several writes caused by one event in batch order', async () => {
        const customers = fresh('customers__g1');
        const key = freshKey('customers');
        await store.commitProjection(
          [
            { collection: customers, op: 'put', doc: doc('cust_1', 10, 5, { step: 1 }), position: 5 },
            { collection: customers, op: 'put', doc: doc('cust_1', 10, 5, { step: 2 }), position: 5 },
            { collection: customers, op: 'put', doc: doc('cust_2', 11, 5), position: 5 },
            { collection: customers, op: 'delete', id: 'cust_2', position: 5 },
          ],
          [{ key, position: 5 }],
        );
        expect(await store.collection(customers).get('cust_1')).to.deep.equal(doc('cust_1', 10, 5, { step: 2 }));
        expect(await store.collection(customers).get('cust_2')).to.equal(null);
      });

      it('never overwrites or deletes a document with a write from an older position', async () => {
        const customers = fresh('customers__g1');
        const key = freshKey('customers');
        const newer = doc('cust_1', 10, 5, { email: 'new@example.com' });
        await store.commitProjection(
          [{ collection: customers, op: 'put', doc: newer, position: 20 }],
          [{ key, position: 20 }],
        );
        await store.commitProjection(
          [{ collection: customers, op: 'put', doc: doc('cust_1', 10, 5, { email: 'old@example.com' }), position: 12 }],
          [{ key, position: 12 }],
        );
        await store.commitProjection(
          [{ collection: customers, op: 'delete', id: 'cust_1', position: 15 }],
          [{ key, position: 15 }],
        );
        expect(await store.collection(customers).get('cust_1')).to.deep.equal(newer);
        expect(await store.getCheckpoint(key)).to.equal(20);

        await store.commitProjection(
          [{ collection: customers, op: 'delete', id: 'cust_1', position: 21 }],
          [{ key, position: 21 }],
        );
        expect(await store.collection(customers).get('cust_1')).to.equal(null);
        expect(await store.getCheckpoint(key)).to.equal(21);
      });

      it('commits the writes of several projections with all their checkpoints at once', async () => {
        const customers = fresh('customers__g1');
        const events = fresh('events__g2');
        const customersKey = freshKey('customers');
        const eventsKey = freshKey('events');
        await store.commitProjection(
          [{ collection: customers, op: 'put', doc: doc('cust_1', 10, 3), position: 3 }],
          [{ key: customersKey, position: 3 }],
        );
        await store.commitProjection(
          [
            { collection: customers, op: 'put', doc: doc('cust_1', 10, 3, { email: 'b@example.com' }), position: 9 },
            { collection: events, op: 'put', doc: doc('evt_1', 12, 9, { type: 'customer.updated' }), position: 9 },
          ],
          [
            { key: customersKey, position: 9 },
            { key: eventsKey, position: 9 },
          ],
        );
        expect(await store.collection(customers).get('cust_1')).to.deep.equal(
          doc('cust_1', 10, 3, { email: 'b@example.com' }),
        );
        expect(await store.collection(events).get('evt_1')).to.deep.equal(
          doc('evt_1', 12, 9, { type: 'customer.updated' }),
        );
        expect(await store.getCheckpoint(customersKey)).to.equal(9);
        expect(await store.getCheckpoint(eventsKey)).to.equal(9);
      });

      it('has no checkpoint for a key never committed', async () => {
        expect(await store.getCheckpoint(freshKey('never'))).to.equal(null);
      });
    });

    describe('collections', () => {
      it('lists existing collections by prefix', async () => {
        const prefix = `${fresh('listed')}__`;
        const names = [fresh(`${prefix}g1`), fresh(`${prefix}g2`)];
        const other = fresh('unlisted');
        for (const name of [...names, other]) await store.collection(name).put(doc('x', 1, 1));
        expect(await store.listCollections(prefix)).to.deep.equal(names.sort());
        expect(await store.listCollections()).to.include.members([...names, other]);
      });

      it('drops a collection with its documents; it can be used again afterwards', async () => {
        const name = fresh('customers__g1');
        const customers = store.collection(name, { indexes: ['_accountId', '_mode'] });
        await customers.put(doc('cust_1', 1, 1, { _accountId: 'acct_a', _mode: 'live' }));
        await store.dropCollection(name);
        expect(await store.listCollections(name)).to.deep.equal([]);
        expect(await customers.get('cust_1')).to.equal(null);
        await customers.put(doc('cust_2', 2, 2, { _accountId: 'acct_a', _mode: 'live' }));
        expect(ids(await customers.list({ filter: { _accountId: 'acct_a', _mode: 'live' }, limit: 10 }))).to.deep.equal(
          ['cust_2'],
        );
      });

      it('drops a collection that does not exist without error', async () => {
        await store.dropCollection(fresh('absent'));
      });
    });
  });
}

function doc(id: string, created: number, seq: number, fields: Record<string, unknown> = {}): UntypedDocument {
  return { id, created, _seq: seq, ...fields };
}

const ids = (page: ListPage<UntypedDocument>): string[] => page.list.map((d) => d.id);

/** The error a promise rejects with; fails when it resolves. */
function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}
