import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fdatasync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { testProgram } from '../support/build-service.ts';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { WrongExpectedRevisionError, type RecordedEvent } from '../../packages/eventstore/event-store.ts';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { verifyLog } from '../../services/audit/verify-log.ts';
import { newEvent, newStreamId, rejectionOf, waitUntil } from './event-store.contract.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APPEND_UNTIL_KILLED = testProgram('append-until-killed');
/** Acknowledged appends to wait for before killing the writer. */
const ACKS_BEFORE_KILL = 40;

describe('SqliteEventStore', () => {
  let directory: string;
  let fileNumber = 0;
  const stores: SqliteEventStore[] = [];

  /** Opens a store on a file of its own, or on the given one; every store is closed after the test. */
  function open(
    filePath = join(directory, `store-${(fileNumber += 1)}.sqlite`),
    options: ConstructorParameters<typeof SqliteEventStore>[1] = {},
  ): SqliteEventStore {
    const store = new SqliteEventStore(filePath, options);
    stores.push(store);
    return store;
  }

  before(() => {
    directory = mkdtempSync(join(tmpdir(), 'sqlite-event-store-'));
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  after(() => rmSync(directory, { recursive: true, force: true }));

  it('starts empty: head position 0, no events', async () => {
    const store = open();

    expect(await store.headPosition()).to.equal(0);
    expect(await store.readAll()).to.deep.equal([]);
  });

  it('keeps its events when the file is opened again', async () => {
    const filePath = join(directory, 'reopened.sqlite');
    const first = new SqliteEventStore(filePath);
    const event = newEvent();
    await first.appendToStream('reopened', [event], { expectedRevision: 'no_stream' });
    await first.close();

    const [recorded] = await open(filePath).readStream('reopened');

    expect(recorded).to.deep.include({ id: event.id, revision: 0, position: 1, data: event.data });
  });

  it('answers a retried append with the original result, even after later appends', async () => {
    const store = open();
    const streamId = newStreamId();
    const events = [newEvent(), newEvent()];
    const original = await store.appendToStream(streamId, events, { expectedRevision: 'no_stream' });
    await store.appendToStream(streamId, [newEvent()], { expectedRevision: 1 });

    const retry = await store.appendToStream(streamId, events, { expectedRevision: 'no_stream' });

    expect(retry).to.deep.equal(original);
    expect(await store.readStream(streamId)).to.have.length(3);
  });

  it("answers a retried append expecting 'any' with the original result, writes nothing, and commits the rest of its group", async () => {
    const store = open();
    const streamId = newStreamId();
    const event = newEvent();
    const original = await store.appendToStream(streamId, [event], { expectedRevision: 'any' });
    const others = [newStreamId(), newStreamId()];

    const [before, retry, after] = await Promise.all([
      store.appendToStream(others[0]!, [newEvent()], { expectedRevision: 'no_stream' }),
      store.appendToStream(streamId, [event], { expectedRevision: 'any' }),
      store.appendToStream(others[1]!, [newEvent()], { expectedRevision: 'no_stream' }),
    ]);

    expect(retry).to.deep.equal(original);
    expect((await store.readStream(streamId)).map((recorded) => recorded.id)).to.deep.equal([event.id]);
    expect(after.position).to.equal(before.position + 1);
    expect(await store.readAll()).to.have.length(3);
  });

  it('treats an event id recorded elsewhere as a conflict and writes nothing', async () => {
    const store = open();
    const [streamA, streamB] = [newStreamId(), newStreamId()];
    const event = newEvent();
    await store.appendToStream(streamA, [event], { expectedRevision: 'no_stream' });

    const inOtherStream = await rejectionOf(
      store.appendToStream(streamB, [newEvent(), event], { expectedRevision: 'any' }),
    );
    const atOtherRevision = await rejectionOf(store.appendToStream(streamA, [event], { expectedRevision: 0 }));

    expect(inOtherStream).to.be.instanceOf(WrongExpectedRevisionError);
    expect(inOtherStream).to.include({ streamId: streamB, actual: 'no_stream' });
    expect(atOtherRevision).to.be.instanceOf(WrongExpectedRevisionError);
    expect(atOtherRevision).to.include({ streamId: streamA, expected: 0, actual: 0 });
    expect(await store.readAll()).to.have.length(1);
  });

  it('catches a subscription up across several read batches', async () => {
    const store = open();
    const streamId = newStreamId();
    for (let batch = 0; batch < 12; batch += 1) {
      const events = Array.from({ length: 100 }, () => newEvent());
      await store.appendToStream(streamId, events, { expectedRevision: batch === 0 ? 'no_stream' : batch * 100 - 1 });
    }
    const received: RecordedEvent[] = [];

    const subscription = store.subscribeToAll((event) => {
      received.push(event);
    });
    await waitUntil(() => received.length === 1200);
    await subscription.unsubscribe();

    expect(received.map((event) => event.revision)).to.deep.equal(Array.from({ length: 1200 }, (_, index) => index));
  });

  describe('group commit', () => {
    /** A store that records the number of appends of each group commit it makes. */
    function openCounting(): { store: SqliteEventStore; groups: number[] } {
      const groups: number[] = [];
      return { store: open(undefined, { onGroupCommit: (appends) => groups.push(appends) }), groups };
    }

    it('writes concurrent appends to different streams in one commit, and every one succeeds', async () => {
      const { store, groups } = openCounting();
      const streams = Array.from({ length: 25 }, () => newStreamId());

      const results = await Promise.all(
        streams.map((streamId) =>
          store.appendToStream(streamId, [newEvent(), newEvent()], { expectedRevision: 'no_stream' }),
        ),
      );

      expect(groups).to.deep.equal([25]);
      expect(results.map((result) => result.nextExpectedRevision)).to.deep.equal(streams.map(() => 1));
      // Positions follow the order the appends were made in, each append's events contiguous.
      expect(results.map((result) => result.position)).to.deep.equal(streams.map((_, index) => 2 * (index + 1)));
    });

    it('fails a conflicting append alone, with the error it gets outside a group, and commits the rest', async () => {
      const { store, groups } = openCounting();
      const contended = newStreamId();
      await store.appendToStream(contended, [newEvent()], { expectedRevision: 'no_stream' });
      const others = Array.from({ length: 5 }, () => newStreamId());

      const [first, ...rest] = await Promise.allSettled([
        store.appendToStream(contended, [newEvent()], { expectedRevision: 0 }),
        store.appendToStream(contended, [newEvent()], { expectedRevision: 0 }),
        ...others.map((streamId) => store.appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' })),
      ]);
      const alone = await rejectionOf(store.appendToStream(contended, [newEvent()], { expectedRevision: 0 }));

      expect(groups).to.deep.equal([1, 7, 1]);
      expect(first!.status).to.equal('fulfilled');
      const conflict = rest[0] as PromiseRejectedResult;
      expect(conflict.status).to.equal('rejected');
      expect(conflict.reason).to.be.instanceOf(WrongExpectedRevisionError);
      expect(conflict.reason).to.deep.include({ streamId: contended, expected: 0, actual: 1 });
      expect(conflict.reason).to.deep.include({ message: (alone as Error).message, name: (alone as Error).name });
      expect(rest.slice(1).map((outcome) => outcome.status)).to.deep.equal(others.map(() => 'fulfilled'));
      expect(await store.readStream(contended)).to.have.length(2);
    });

    it('keeps global order and every hash chain verifiable across many concurrent groups', async () => {
      const { store, groups } = openCounting();
      const streams = Array.from({ length: 8 }, () => newStreamId());
      for (const streamId of streams)
        await store.appendToStream(streamId, [newEvent()], { expectedRevision: 'no_stream' });

      for (let round = 0; round < 10; round += 1) {
        // Several appends to one stream in one group chain to each other; stale ones fail alone.
        await Promise.allSettled(
          streams.flatMap((streamId) => [
            store.appendToStream(streamId, [newEvent(), newEvent()], { expectedRevision: 'any' }),
            store.appendToStream(streamId, [newEvent()], { expectedRevision: 'any' }),
            store.appendToStream(streamId, [newEvent()], { expectedRevision: 0 }),
          ]),
        );
      }

      expect(groups.slice(8)).to.deep.equal(Array.from({ length: 10 }, () => 24));
      const log = await store.readAll();
      expect(log).to.have.length(8 + 8 * 10 * 3);
      expect(log.map((event) => event.position)).to.deep.equal(log.map((_, index) => index + 1));
      for (const streamId of streams) {
        const stream = await store.readStream(streamId);
        expect(stream.map((event) => event.revision)).to.deep.equal(stream.map((_, index) => index));
      }
      const verification = await verifyLog(store, { checkpoints: [] });
      expect(verification).to.deep.equal({ checked: log.length, checkpoints: 0, firstBreak: null });
    });

    it('writes a full group at once, without waiting for the event loop to idle', async () => {
      const { store, groups } = openCounting();

      await Promise.all(
        Array.from({ length: 300 }, () =>
          store.appendToStream(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' }),
        ),
      );

      expect(groups).to.deep.equal([128, 128, 44]);
    });

    it("commits a write carried with the next append in that append's group, and alone when none comes", async () => {
      const { store, groups } = openCounting();
      store.withConnection((db) => db.exec('CREATE TABLE carried (id TEXT PRIMARY KEY)'));
      const carried = (id: string) =>
        store.carryInNextCommit({ write: (db) => db.prepare('INSERT INTO carried VALUES (?)').run(id) });
      const count = () =>
        store.withConnection((db) => db.prepare<[], number>('SELECT COUNT(*) FROM carried').pluck().get());

      carried('with-append');
      expect(count()).to.equal(0);
      await store.appendToStream(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' });
      expect(count()).to.equal(1);
      expect(groups).to.deep.equal([1]);

      carried('alone');
      await waitUntil(() => count() === 2, 2_000);
      expect(groups).to.deep.equal([1, 0]);
    });
  });

  it('rejects every append of a group whose commit fails, writes none of it, and carries its passengers again', async () => {
    const groups: number[] = [];
    const store = open(undefined, { onGroupCommit: (appends) => groups.push(appends) });
    // The table does not exist yet: the group that carries this write fails as a whole.
    store.carryInNextCommit({ write: (db) => db.prepare("INSERT INTO carried VALUES ('card')").run() });

    const failed = await Promise.allSettled([
      store.appendToStream(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' }),
      store.appendToStream(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' }),
    ]);
    expect(failed.map((outcome) => outcome.status)).to.deep.equal(['rejected', 'rejected']);
    expect(await store.readAll()).to.deep.equal([]);

    store.withConnection((db) => db.exec('CREATE TABLE carried (id TEXT PRIMARY KEY)'));
    await store.appendToStream(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' });

    expect(groups).to.deep.equal([1]);
    expect(store.withConnection((db) => db.prepare('SELECT id FROM carried').pluck().all())).to.deep.equal(['card']);
    expect(await store.readAll()).to.have.length(1);
  });

  describe('durability: commits synced off the event loop', () => {
    /** A log sync that waits until the test lets it go (the disk's flush, held), then syncs for real. */
    const heldSyncs: (() => void)[] = [];
    // A test that failed while holding a sync lets it go, so that its store can close.
    afterEach(() => heldSyncs.splice(0).forEach((release) => release()));

    function heldSync(): { syncFile: (fd: number) => Promise<void>; calls: () => number; release: () => void } {
      let calls = 0;
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      heldSyncs.push(release);
      const syncFile = async (fd: number): Promise<void> => {
        calls += 1;
        await released;
        await promisify(fdatasync)(fd);
      };
      return { syncFile, calls: () => calls, release };
    }
    /** Whether a promise has settled, after letting the event loop run a while. */
    async function settledWithin(promise: Promise<unknown>, ms = 50): Promise<boolean> {
      let settled = false;
      void promise.then(
        () => (settled = true),
        () => (settled = true),
      );
      await sleep(ms);
      return settled;
    }

    it('answers an append, and shows its event to reads and subscribers, only once the log is synced', async () => {
      const sync = heldSync();
      const store = open(undefined, { syncFile: sync.syncFile });
      const received: RecordedEvent[] = [];
      store.subscribeToAll((event) => {
        received.push(event);
      });
      const event = newEvent();

      const append = store.appendToStream('held', [event], { expectedRevision: 'no_stream' });
      await sleep(20);
      const read = store.readStream('held');

      expect(await settledWithin(append)).to.equal(false);
      expect(await settledWithin(read)).to.equal(false);
      expect(received).to.deep.equal([]);
      expect(sync.calls()).to.equal(1);
      // Committed meanwhile (the event loop was free), only not answered.
      expect(await store.headPosition()).to.equal(1);

      sync.release();
      expect(await append).to.deep.equal({ nextExpectedRevision: 0, position: 1 });
      expect((await read).map((recorded) => recorded.id)).to.deep.equal([event.id]);
      await waitUntil(() => received.length === 1);
    });

    it('covers every group committed while a sync ran with one more sync', async () => {
      const sync = heldSync();
      const store = open(undefined, { syncFile: sync.syncFile });
      const first = store.appendToStream(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' });
      await sleep(20);
      // Two more groups, each committed on its own turn of the event loop while the first sync is held.
      const second = store.appendToStream(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' });
      await sleep(20);
      const third = store.appendToStream(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' });
      await sleep(20);
      expect(sync.calls()).to.equal(1);

      sync.release();
      const positions = (await Promise.all([first, second, third])).map((result) => result.position);

      expect(positions).to.deep.equal([1, 2, 3]);
      expect(sync.calls()).to.equal(2);
    });

    it("syncs the log itself to read another connection's commit that is not on disk yet", async () => {
      const filePath = join(directory, 'synced-by-reader.sqlite');
      const writerSync = heldSync();
      const writer = open(filePath, { syncFile: writerSync.syncFile });
      let readerSyncs = 0;
      const reader = open(filePath, {
        syncFile: async (fd) => {
          readerSyncs += 1;
          await promisify(fdatasync)(fd);
        },
      });
      const event = newEvent();
      const append = writer.appendToStream('elsewhere', [event], { expectedRevision: 'no_stream' });
      await sleep(20);

      const read = await reader.readStream('elsewhere');

      expect(read.map((recorded) => recorded.id)).to.deep.equal([event.id]);
      expect(readerSyncs).to.equal(1);
      expect(await settledWithin(append)).to.equal(false);
      writerSync.release();
      await append;
    });

    it('fails the appends of a group whose sync failed, and answers later ones once a sync succeeds', async () => {
      let failNext = true;
      const store = open(undefined, {
        syncFile: async (fd) => {
          if (failNext) {
            failNext = false;
            throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
          }
          await promisify(fdatasync)(fd);
        },
      });

      const failed = await rejectionOf(store.appendToStream('unsure', [newEvent()], { expectedRevision: 'no_stream' }));
      const later = await store.appendToStream('unsure', [newEvent()], { expectedRevision: 0 });

      expect(failed).to.have.property('code', 'EIO');
      // The failed group's commit stands: the next sync made it durable with the later one.
      expect(later).to.deep.equal({ nextExpectedRevision: 1, position: 2 });
      expect((await store.readStream('unsure')).map((recorded) => recorded.revision)).to.deep.equal([0, 1]);
    });
  });

  describe('shared by several connections (e.g. an operator CLI in another process)', () => {
    it('delivers to a live subscription the events another connection appends', async () => {
      const filePath = join(directory, 'shared-subscription.sqlite');
      const subscriber = open(filePath);
      const writer = open(filePath);
      const received: RecordedEvent[] = [];
      subscriber.subscribeToAll((event) => {
        received.push(event);
      });
      const ownEvent = newEvent();
      await subscriber.appendToStream('written-here', [ownEvent], { expectedRevision: 'no_stream' });
      await waitUntil(() => received.length === 1);
      const events = [newEvent(), newEvent()];

      // The subscription is now live and idle: only polling the file can tell it about these.
      await writer.appendToStream('written-elsewhere', events, { expectedRevision: 'no_stream' });

      await waitUntil(() => received.length === 3, 2_000);
      expect(received.map((event) => event.id)).to.deep.equal([ownEvent, ...events].map((event) => event.id));
    });

    it('checks the expected revision against what another connection appended', async () => {
      const filePath = join(directory, 'shared-revision.sqlite');
      const [one, other] = [open(filePath), open(filePath)];
      await one.appendToStream('contended', [newEvent()], { expectedRevision: 'no_stream' });

      const error = await rejectionOf(
        other.appendToStream('contended', [newEvent()], { expectedRevision: 'no_stream' }),
      );

      expect(error).to.be.instanceOf(WrongExpectedRevisionError);
      expect(error).to.include({ actual: 0 });
    });
  });

  it('keeps every acknowledged append when the writing process is killed', async () => {
    const filePath = join(directory, 'killed-writer.sqlite');
    const streamId = 'durability';
    const writer = spawn(process.execPath, [APPEND_UNTIL_KILLED, filePath, streamId], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acknowledged: { revision: number; ids: string[] }[] = [];
    const lines = createInterface({ input: writer.stdout });
    lines.on('line', (line) => {
      const [word, revision, ...ids] = line.split(' ');
      if (word !== 'ack') return;
      acknowledged.push({ revision: Number(revision), ids });
      if (acknowledged.length === ACKS_BEFORE_KILL) writer.kill('SIGKILL');
    });

    // 'close' comes after the exit and after the last line of output has been read.
    const [exitCode, signal] = (await once(writer, 'close')) as [number | null, NodeJS.Signals | null];

    expect(signal, `writer exited on its own with code ${exitCode}`).to.equal('SIGKILL');
    expect(acknowledged.length).to.be.at.least(ACKS_BEFORE_KILL);
    const stream = await open(filePath).readStream(streamId);
    const idAtRevision = new Map(stream.map((event) => [event.revision, event.id]));
    for (const { revision, ids } of acknowledged) {
      const firstRevision = revision - ids.length + 1;
      expect(ids.map((_, index) => idAtRevision.get(firstRevision + index))).to.deep.equal(ids);
    }
    // Appends are atomic: the file holds whole batches of three, even the one the kill interrupted.
    expect(stream.length % 3).to.equal(0);
    expect(stream.map((event) => event.revision)).to.deep.equal(stream.map((_, index) => index));
  });
});
