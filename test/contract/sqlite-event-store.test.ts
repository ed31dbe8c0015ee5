import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { WrongExpectedRevisionError, type RecordedEvent } from '../../packages/eventstore/event-store.ts';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { newEvent, newStreamId, rejectionOf, waitUntil } from './event-store.contract.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APPEND_UNTIL_KILLED = fileURLToPath(new URL('../support/append-until-killed.ts', import.meta.url));
/** Acknowledged appends to wait for before killing the writer. */
const ACKS_BEFORE_KILL = 40;

describe('SqliteEventStore', () => {
  let directory: string;
  let fileNumber = 0;
  const stores: SqliteEventStore[] = [];

  /** Opens a store on a file of its own, or on the given one; every store is closed after the test. */
  function open(filePath = join(directory, `store-${(fileNumber += 1)}.sqlite`)): SqliteEventStore {
    const store = new SqliteEventStore(filePath);
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
    const writer = spawn(process.execPath, ['--import', 'tsx', APPEND_UNTIL_KILLED, filePath, streamId], {
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
