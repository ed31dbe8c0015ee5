import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { EventFileNetworkJournal } from '../../packages/network/event-file-network-journal.ts';
import { StoredNetworkJournal } from '../../packages/network/network-journal.ts';
import { SqliteDocumentStore } from '../../packages/readstore/sqlite-document-store.ts';
import { newEvent, newStreamId, waitUntil } from './event-store.contract.ts';

interface Answer {
  approved: boolean;
  transactionId: string | null;
}

const APPROVED: Answer = { approved: true, transactionId: 'sim_first' };
const DECLINED: Answer = { approved: false, transactionId: null };

describe('The card network journal in the events file', () => {
  let directory: string;
  let fileNumber = 0;
  const closers: (() => Promise<void>)[] = [];

  /** A journal on an events file (its own unless given) and the group commits that file makes. */
  function open(filePath = join(directory, `events-${(fileNumber += 1)}.sqlite`), earlier?: SqliteDocumentStore) {
    const groups: number[] = [];
    const events = new SqliteEventStore(filePath, { onGroupCommit: (appends) => groups.push(appends) });
    closers.push(() => events.close());
    const previous =
      earlier && new StoredNetworkJournal<Answer>(earlier.collection('simulated_network_authorizations'));
    return {
      events,
      groups,
      journal: new EventFileNetworkJournal<Answer>(events, 'authorizations', previous),
      filePath,
    };
  }

  const appendOne = (events: SqliteEventStore) =>
    events.appendToStream(newStreamId(), [newEvent('ChargeProbed')], { expectedRevision: 'no_stream' });

  before(() => {
    directory = mkdtempSync(join(tmpdir(), 'event-file-network-journal-'));
  });

  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  after(() => rmSync(directory, { recursive: true, force: true }));

  it('answers from memory before its commit, and commits with the next append at no commit of its own', async () => {
    const { events, groups, journal, filePath } = open();

    expect(await journal.record('test', 'char_1', APPROVED)).to.deep.equal(APPROVED);
    expect(await journal.find('test', 'char_1')).to.deep.equal(APPROVED);
    expect(await open(filePath).journal.find('test', 'char_1'), 'not on disk before the append').to.equal(null);

    await appendOne(events);

    expect(groups).to.deep.equal([1]);
    expect(await open(filePath).journal.find('test', 'char_1')).to.deep.equal(APPROVED);
  });

  it('keeps the first answer for a reference, also of records racing in one process', async () => {
    const { events, journal, filePath } = open();

    const racing = await Promise.all([
      journal.record('test', 'char_race', APPROVED),
      journal.record('test', 'char_race', DECLINED),
    ]);
    expect(racing).to.deep.equal([APPROVED, APPROVED]);
    await appendOne(events);
    expect(await journal.record('test', 'char_race', DECLINED), 'after the commit').to.deep.equal(APPROVED);
    expect(await open(filePath).journal.record('test', 'char_race', DECLINED)).to.deep.equal(APPROVED);
  });

  it('tells modes and journals apart', async () => {
    const { events, journal, filePath } = open();
    await journal.record('test', 'char_mode', APPROVED);
    await appendOne(events);

    expect(await journal.find('live', 'char_mode')).to.equal(null);
    const credits = new EventFileNetworkJournal<Answer>(open(filePath).events, 'credits');
    expect(await credits.find('test', 'char_mode')).to.equal(null);
  });

  it('survives closing the file, and commits alone when no append follows', async () => {
    const first = open();
    await first.journal.record('test', 'char_alone', DECLINED);
    await waitUntil(() => first.groups.length === 1, 2_000);
    expect(first.groups).to.deep.equal([0]);
    await first.events.close();

    expect(await open(first.filePath).journal.find('test', 'char_alone')).to.deep.equal(DECLINED);
  });

  it('is written by closing the file: an answer recorded before is not lost', async () => {
    const { events, journal, filePath } = open();
    await journal.record('test', 'char_closing', APPROVED);
    await events.close();

    expect(await open(filePath).journal.find('test', 'char_closing')).to.deep.equal(APPROVED);
  });

  it('still finds the answers recorded in the state store before the journal moved, and keeps them first', async () => {
    const state = new SqliteDocumentStore(join(directory, `state-${randomUUID()}.sqlite`));
    closers.push(() => state.close());
    await new StoredNetworkJournal<Answer>(state.collection('simulated_network_authorizations')).record(
      'test',
      'char_before',
      DECLINED,
    );

    const { journal } = open(undefined, state);

    expect(await journal.find('test', 'char_before')).to.deep.equal(DECLINED);
    expect(await journal.record('test', 'char_before', APPROVED)).to.deep.equal(DECLINED);
  });
});
