import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { cardDetails, createOtherAccount, type Charge, type Customer } from '../support/payments.ts';
import { eventually } from '../support/eventually.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

interface StoredEvent {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
  hash: string | null;
}

describe('tamper-evident log: audit verify, seal-existing, export and replay', function () {
  this.timeout(180_000);
  const { api, service, keys } = useService();

  /** The embedded event log, edited behind the service's back as an intruder with file access would. */
  const withLog = <T>(work: (db: Database.Database) => T): T => {
    const db = new Database(join(service.dataDir, 'events.sqlite'), { timeout: 5_000 });
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  const cli = (...args: string[]) => runCli(args, service.dataDir);

  it('finds an event edited directly in SQLite: the first break names its stream, revision and position', async () => {
    const customer = await api.post<Customer>('/customers', { json: { email: 'honest@example.com' } });
    await api.post(`/customers/${customer.body.id}`, { json: { description: 'Later change' } });
    const other = await createOtherAccount(api, service.dataDir, 'Bystander');
    await other.api.post('/customers', { json: { email: 'bystander@example.com' } });

    const before = await cli('audit', 'verify');
    expect(before.code, before.stderr).to.equal(0);
    expect(before.stdout).to.match(/^Intact: \d+ events/);

    const edited = withLog((db) => {
      const row = db
        .prepare<[string], StoredEvent>('SELECT * FROM events WHERE stream_id = ? AND revision = 0')
        .get(`customer-${customer.body.id}`)!;
      const data = { ...(JSON.parse(row.data) as Record<string, unknown>), email: 'intruder@example.com' };
      db.prepare('UPDATE events SET data = ? WHERE position = ?').run(JSON.stringify(data), row.position);
      return row;
    });

    const after = await cli('audit', 'verify', '--json');
    expect(after.code).to.equal(1);
    const { firstBreak } = JSON.parse(after.stdout) as { firstBreak: Record<string, unknown> };
    expect(firstBreak).to.include({
      streamId: `customer-${customer.body.id}`,
      revision: 0,
      position: edited.position,
      reason: 'the event or one before it in its stream was changed after it was recorded',
    });
    const ownAccount = await cli('audit', 'verify', '--account', keys.id);
    expect(ownAccount.code).to.equal(1);
    expect(ownAccount.stdout).to.include('BROKEN').and.to.include(customer.body.id);
    const bystander = await cli('audit', 'verify', '--account', other.keys.id);
    expect(bystander.code, bystander.stdout).to.equal(0);
    expect(bystander.stdout).to.match(/^Intact: [1-9]\d* events/);

    // Put the event back as it was, so the later tests start from an intact log.
    withLog((db) => db.prepare('UPDATE events SET data = ? WHERE position = ?').run(edited.data, edited.position));
    expect((await cli('audit', 'verify')).code).to.equal(0);
  });

  it('seals a log recorded before hashes once; appends in between chain over the unsealed events', async () => {
    const customer = await api.post<Customer>('/customers', { json: { email: 'legacy@example.com' } });
    const original = withLog((db) => db.prepare<[], StoredEvent>('SELECT * FROM events ORDER BY position').all());
    withLog((db) => db.prepare('UPDATE events SET hash = NULL').run());

    const unsealed = await cli('audit', 'verify');
    expect(unsealed.code).to.equal(1);
    expect(unsealed.stdout).to.include('the log was not sealed');
    // Recorded while older events have no stored hash: it still chains to what they would hash to.
    await api.post(`/customers/${customer.body.id}`, { json: { description: 'After the upgrade' } });

    const seal = await cli('audit', 'seal-existing');
    expect(seal.code, seal.stderr).to.equal(0);
    expect(seal.stdout).to.include(`Sealed ${original.length} events`);
    expect(seal.stdout).to.match(/Checkpoint ckpt_\d+: \d+ events, digest [0-9a-f]{64}/);

    const sealed = withLog((db) => db.prepare<[], StoredEvent>('SELECT * FROM events ORDER BY position').all());
    expect(sealed.slice(0, original.length).map((row) => row.hash)).to.deep.equal(original.map((row) => row.hash));
    const verified = await cli('audit', 'verify');
    expect(verified.code, verified.stdout).to.equal(0);
    expect(verified.stdout).to.match(/^Intact: \d+ events, 1 of 1 checkpoints/);
  });

  it('finds a removed last event, which no stream chain shows, by the checkpoint over the whole log', async () => {
    const customer = await api.post<Customer>('/customers', { json: { email: 'removed@example.com' } });
    await api.post(`/customers/${customer.body.id}`, { json: { description: 'To be removed' } });
    const checkpoint = await cli('audit', 'checkpoint');
    expect(checkpoint.code, checkpoint.stderr).to.equal(0);
    expect(checkpoint.stdout).to.match(/Checkpoint ckpt_\d+/);

    const removed = withLog((db) => {
      const row = db
        .prepare<[string], StoredEvent>('SELECT * FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1')
        .get(`customer-${customer.body.id}`)!;
      db.prepare('DELETE FROM events WHERE position = ?').run(row.position);
      return row;
    });

    const verified = await cli('audit', 'verify', '--json');
    expect(verified.code).to.equal(1);
    const { firstBreak } = JSON.parse(verified.stdout) as { firstBreak: { checkpoint: string; reason: string } };
    expect(firstBreak.checkpoint).to.match(/^ckpt_/);
    expect(firstBreak.reason).to.include('events were removed, inserted or changed');

    withLog((db) =>
      db
        .prepare(
          'INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          removed.position,
          removed.stream_id,
          removed.revision,
          removed.event_id,
          removed.type,
          removed.data,
          removed.metadata,
          removed.recorded_at,
          removed.hash,
        ),
    );
    expect((await cli('audit', 'verify')).code).to.equal(0);
  });

  it("exports an account's events and replays them offline into the objects the API shows, hashes checked", async () => {
    const customer = await api.post<Customer>('/customers', {
      json: { email: 'export@example.com', card: cardDetails('4242424242424242') },
    });
    const charge = await api.post<Charge>('/charges', {
      json: { amount: 1500, currency: 'EUR', customerId: customer.body.id },
    });
    await api.post('/refunds', { json: { chargeId: charge.body.id, amount: 400 } });
    const other = await createOtherAccount(api, service.dataDir, 'Not exported');
    const foreign = await other.api.post<Customer>('/customers', { json: { email: 'foreign@example.com' } });

    const exported = await cli('audit', 'export', '--account', keys.id);
    expect(exported.code, exported.stderr).to.equal(0);
    const lines = exported.stdout.trim().split('\n');
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(exported.stderr).to.include(`Exported ${lines.length} events of ${keys.id}`);
    for (const event of events) {
      expect(event).to.have.all.keys(
        'position',
        'streamId',
        'revision',
        'id',
        'type',
        'data',
        'metadata',
        'recordedAt',
        'previousHash',
        'hash',
      );
      expect(event.hash).to.match(/^[0-9a-f]{64}$/);
      expect((event.metadata as { accountId: string }).accountId).to.equal(keys.id);
    }
    expect(exported.stdout).to.not.include(foreign.body.id);
    expect(exported.stdout).to.not.include('4242424242424242');

    const file = join(service.dataDir, 'export.ndjson');
    writeFileSync(file, exported.stdout);
    const replayed = await cli('audit', 'replay', file);
    expect(replayed.code, replayed.stderr).to.equal(0);
    expect(replayed.stderr).to.match(new RegExp(`Intact: ${lines.length} events of \\d+ streams`));
    const objects = new Map(
      replayed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string })
        .map((object) => [object.id, object]),
    );
    expect(objects.get(customer.body.id)).to.deep.equal((await api.get(`/customers/${customer.body.id}`)).body);
    expect(objects.get(charge.body.id)).to.deep.equal((await api.get(`/charges/${charge.body.id}`)).body);

    // Edit the charge's own event (its authorization intent carries the amount too).
    const tampered = readFileSync(file, 'utf8')
      .split('\n')
      .map((line) =>
        line.includes(`"streamId":"charge-${charge.body.id}"`) ? line.replace('"amount":1500', '"amount":15') : line,
      )
      .join('\n');
    expect(tampered).to.not.equal(readFileSync(file, 'utf8'));
    writeFileSync(file, tampered);
    const broken = await cli('audit', 'replay', file);
    expect(broken.code).to.equal(1);
    expect(broken.stderr).to.include('BROKEN').and.to.include(`charge-${charge.body.id}`);

    const window = await cli('audit', 'export', '--account', keys.id, '--to', '1000');
    expect(window.code).to.equal(0);
    expect(window.stdout).to.equal('');

    // An account id nobody opened is an error, not an empty export that passes for a quiet account.
    const unknown = await cli('audit', 'export', '--account', 'acct_neverOpened');
    expect(unknown.code).to.equal(1);
    expect(unknown.stdout).to.equal('');
    expect(unknown.stderr).to.include("Account 'acct_neverOpened' does not exist");
  });
});

describe('periodic checkpoints of the whole log', function () {
  this.timeout(60_000);
  const { api, service } = useService({ env: { AUDIT_CHECKPOINT_INTERVAL_MS: '300' } });

  it('are recorded by the projector while events are appended, and verify intact', async () => {
    await api.post('/customers', { json: { email: 'periodic@example.com' } });
    await eventually(
      async () => service.output(),
      (output) => output.includes('log checkpoint recorded'),
    );

    const verified = await runCli(['audit', 'verify'], service.dataDir);
    expect(verified.code, verified.stdout).to.equal(0);
    expect(verified.stdout).to.match(/^Intact: \d+ events, ([1-9]\d*) of \1 checkpoints/);
  });
});
