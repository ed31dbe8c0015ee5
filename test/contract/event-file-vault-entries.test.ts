import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { testProgram } from '../support/build-service.ts';
import { expect } from 'chai';
import { SqliteEventStore } from '../../packages/eventstore/sqlite-event-store.ts';
import { SqliteDocumentStore } from '../../packages/readstore/sqlite-document-store.ts';
import { EventFileVaultEntries } from '../../packages/vault/event-file-vault-entries.ts';
import { Vault, type VaultEntry } from '../../packages/vault/vault.ts';
import { newEvent, newStreamId, waitUntil } from './event-store.contract.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STORE_CARDS_UNTIL_KILLED = testProgram('store-cards-until-killed');
/** Acknowledged charges to wait for before killing the writer. */
const ACKS_BEFORE_KILL = 60;

describe('Vault entries in the events file', () => {
  const key = randomBytes(32);
  let directory: string;
  let fileNumber = 0;
  const closers: (() => Promise<void>)[] = [];

  /** A vault on an events file (its own unless given) and the group commits that file makes. */
  function open(
    filePath = join(directory, `events-${(fileNumber += 1)}.sqlite`),
    earlier?: EventFileVaultEntries | SqliteDocumentStore,
  ) {
    const groups: number[] = [];
    const events = new SqliteEventStore(filePath, { onGroupCommit: (appends) => groups.push(appends) });
    closers.push(() => events.close());
    const previous = earlier instanceof SqliteDocumentStore ? earlier.collection<VaultEntry>('vault') : earlier;
    return { events, groups, vault: new Vault(new EventFileVaultEntries(events, previous), key), filePath };
  }

  before(() => {
    directory = mkdtempSync(join(tmpdir(), 'event-file-vault-'));
  });

  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  after(() => rmSync(directory, { recursive: true, force: true }));

  it('costs no commit of its own: the card rides with the append that refers to it', async () => {
    const { events, groups, vault, filePath } = open();

    const ref = await vault.store('card_number', '4242424242424242');
    expect(await vault.reveal(ref)).to.equal('4242424242424242');
    await events.appendToStream(newStreamId(), [newEvent('ChargeProbed', { vaultRef: ref })], {
      expectedRevision: 'no_stream',
    });

    expect(groups).to.deep.equal([1]);
    expect(await open(filePath).vault.reveal(ref)).to.equal('4242424242424242');
  });

  it('commits a secret alone when no append follows it', async () => {
    const { groups, vault, filePath } = open();

    const ref = await vault.store('secret_key', 'sk_test_secret');
    const elsewhere = open(filePath).vault;

    await waitUntil(() => groups.length === 1, 2_000);
    expect(groups).to.deep.equal([0]);
    expect(await elsewhere.reveal(ref)).to.equal('sk_test_secret');
  });

  it('erases an entry for good, whether or not it was committed yet', async () => {
    const { events, vault, filePath } = open();
    const committed = await vault.store('card_number', '4000056655665556');
    await events.appendToStream(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' });
    const uncommitted = await vault.store('card_number', '5555555555554444');

    await vault.erase(committed);
    await vault.erase(uncommitted);
    await events.appendToStream(newStreamId(), [newEvent()], { expectedRevision: 'no_stream' });

    const reopened = open(filePath).vault;
    for (const ref of [committed, uncommitted]) {
      expect(await vault.reveal(ref)).to.equal(null);
      expect(await reopened.reveal(ref)).to.equal(null);
    }
  });

  it('still reveals and erases the entries stored in the state store before the vault moved', async () => {
    const state = new SqliteDocumentStore(join(directory, `state-${randomUUID()}.sqlite`));
    closers.push(() => state.close());
    const before = new Vault(state.collection<VaultEntry>('vault'), key);
    const ref = await before.store('card_number', '4242424242424242');

    const { vault } = open(undefined, state);

    expect(await vault.reveal(ref)).to.equal('4242424242424242');
    await vault.erase(ref);
    expect(await before.reveal(ref)).to.equal(null);
  });

  it('never leaves an acknowledged event referring to a card that is not in the file when the process is killed', async () => {
    const filePath = join(directory, 'killed-writer.sqlite');
    const writer = spawn(process.execPath, [STORE_CARDS_UNTIL_KILLED, filePath, key.toString('hex')], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acknowledged: { streamId: string; vaultRef: string; number: string }[] = [];
    createInterface({ input: writer.stdout }).on('line', (line) => {
      const [word, streamId, vaultRef, number] = line.split(' ');
      if (word !== 'ack' || !streamId || !vaultRef || !number) return;
      acknowledged.push({ streamId, vaultRef, number });
      if (acknowledged.length === ACKS_BEFORE_KILL) writer.kill('SIGKILL');
    });

    const [exitCode, signal] = (await once(writer, 'close')) as [number | null, NodeJS.Signals | null];

    expect(signal, `writer exited on its own with code ${exitCode}`).to.equal('SIGKILL');
    expect(acknowledged.length).to.be.at.least(ACKS_BEFORE_KILL);
    const { events, vault } = open(filePath);
    for (const { streamId, vaultRef, number } of acknowledged) {
      const [event] = await events.readStream(streamId);
      expect(event?.data).to.deep.equal({ vaultRef });
      expect(await vault.reveal(vaultRef)).to.equal(number);
    }
    // Every event in the file, acknowledged or not, finds its card.
    for (const event of await events.readAll())
      expect(await vault.reveal(String(event.data.vaultRef))).to.match(/^4242/);
  });
});
