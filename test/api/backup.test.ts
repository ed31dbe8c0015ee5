import Database from 'better-sqlite3';
import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { byteSize } from '../../services/backup/byte-size.ts';
import { ApiClient } from '../support/api-client.ts';
import { cardDetails, type Charge, type Customer } from '../support/payments.ts';
import { seedCustomerCreations } from '../support/seed-log.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

interface Manifest {
  log: { headPosition: number; events: number };
  verification: { events: number; checkpoints: number; of: number; firstBreak: { reason: string } | null } | null;
  databases: { file: string; bytes: number; sha256: string }[];
  uploadedFiles: { count: number; bytes: number };
  keys: { vault: string | null; fingerprint: string | null };
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const modeOf = (path: string): number => statSync(path).mode & 0o777;
const OPERATOR_TOKEN = 'backup-test-operator-token-0123456789abcdef';
const ROOT = resolve(import.meta.dirname, '../..');
/** The compiled CLI (build-service.ts) in a process of its own, so that the service's writes go on beside it. */
const backUpInOwnProcess = (dataDir: string, target: string) =>
  promisify(execFile)(process.execPath, ['dist/cli/main.js', 'backup', target, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
  });
const PNG = readFileSync(join(import.meta.dirname, '../../docs/images/card-fields.png'));

describe('backup of a running service', function () {
  this.timeout(120_000);
  const workDir = mkdtempSync(join(tmpdir(), 'backups-'));
  const backupDir = join(workDir, 'backup');
  const original = useService({
    env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000', OPERATOR_TOKEN },
  });
  const restored = useService({ startedBy: 'test', dataDir: backupDir, env: { OPERATOR_TOKEN } });
  const uncheckedDir = join(workDir, 'unchecked');
  const changedLog = useService({ startedBy: 'test', dataDir: uncheckedDir, env: { OPERATOR_TOKEN } });
  /** The operator console's "Backups" section, as text. */
  const backupsShown = async (baseUrl: string): Promise<string> => {
    const page = await (
      await fetch(`${baseUrl}/console`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })
    ).text();
    return /<section aria-labelledby="backups-title"[^]*?<\/section>/.exec(page)![0].replace(/<[^>]+>/g, '');
  };
  after(() => rmSync(workDir, { recursive: true, force: true }));

  it('copies the log, state, files and keys while writes go on; a service started on the copy serves them', async () => {
    const { api, service, keys } = original;
    const saved = await api.post<Customer>('/customers', {
      json: { email: 'saved-card@example.com', card: cardDetails('4242424242424242') },
    });
    expect(saved.status).to.equal(200);
    const form = new FormData();
    form.append('purpose', 'dispute_evidence');
    form.append('file', new Blob([PNG]), 'receipt.png');
    const uploaded = await fetch(`${service.baseUrl}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.testSecretKey}` },
      body: form,
    });
    expect(uploaded.status).to.equal(200);
    const file = (await uploaded.json()) as { id: string };
    const checkpoint = await runCli(['audit', 'checkpoint'], service.dataDir);
    expect(checkpoint.code, checkpoint.stderr).to.equal(0);
    // An earlier backup, which the original's console shows until the next one.
    const earlier = await runCli(['backup', join(workDir, 'earlier')], service.dataDir);
    expect(earlier.code, earlier.stderr).to.equal(0);
    expect(await backupsShown(service.baseUrl)).to.include(`into ${join(workDir, 'earlier')}`);

    // Writers keep creating customers while the backup runs.
    const acknowledged: { id: string; sentAt: number; answeredAt: number }[] = [];
    let writing = true;
    const writer = async () => {
      for (let i = 0; writing; i++) {
        const sentAt = performance.now();
        const created = await api.post<Customer>('/customers', { json: { email: `during-${i}@example.com` } });
        expect(created.status).to.equal(200);
        acknowledged.push({ id: created.body.id, sentAt, answeredAt: performance.now() });
      }
    };
    const writers = [writer(), writer(), writer()];
    while (acknowledged.length < 50) await new Promise((resolveWait) => setTimeout(resolveWait, 10));
    const backupStarted = performance.now();
    const backup = await backUpInOwnProcess(service.dataDir, backupDir);
    const backupEnded = performance.now();
    while (!acknowledged.some((write) => write.sentAt > backupEnded))
      await new Promise((resolveWait) => setTimeout(resolveWait, 10));
    writing = false;
    await Promise.all(writers);
    expect(backup.stderr.split('\n')).to.deep.equal([
      'Copying state.sqlite…',
      'Copying events.sqlite…',
      'Checking the copied log (audit verify)…',
      'Copying the uploaded files and the keys…',
      '',
    ]);
    const manifest = JSON.parse(backup.stdout) as Manifest;
    const beforeBackup = acknowledged.filter((write) => write.answeredAt < backupStarted).map((write) => write.id);
    const afterBackup = acknowledged.filter((write) => write.sentAt > backupEnded).map((write) => write.id);

    // What the directory holds: the manifest's figures are the files', and only the service's user may read them.
    expect(readdirSync(backupDir).sort()).to.deep.equal([
      'backup.json',
      'events.sqlite',
      'files',
      'fingerprint.key',
      'state.sqlite',
      'vault.key',
    ]);
    expect(JSON.parse(readFileSync(join(backupDir, 'backup.json'), 'utf8'))).to.deep.equal(manifest);
    for (const database of manifest.databases) {
      expect(sha256(join(backupDir, database.file)), database.file).to.equal(database.sha256);
      expect(statSync(join(backupDir, database.file)).size).to.equal(database.bytes);
    }
    expect(manifest.uploadedFiles).to.deep.equal({ count: 1, bytes: PNG.length });
    expect(manifest.keys).to.deep.equal({ vault: 'vault.key', fingerprint: 'fingerprint.key' });
    // The copied log was checked as audit verify checks it, against the copied checkpoint.
    expect(manifest.verification).to.deep.equal({
      events: manifest.log.events,
      checkpoints: 1,
      of: 1,
      firstBreak: null,
    });
    expect(modeOf(backupDir)).to.equal(0o700);
    expect(modeOf(join(backupDir, 'files'))).to.equal(0o700);
    for (const name of ['backup.json', 'events.sqlite', 'state.sqlite', 'vault.key', 'fingerprint.key'])
      expect(modeOf(join(backupDir, name)), name).to.equal(0o600);
    expect(modeOf(join(backupDir, 'files', file.id))).to.equal(0o600);
    // No half-made backup is left beside it.
    expect(readdirSync(workDir).sort()).to.deep.equal(['backup', 'earlier']);
    // The original's console shows the new one; the copy is in no backup of its own yet.
    const backedUpBytes = manifest.databases.reduce((sum, { bytes }) => sum + bytes, PNG.length);
    expect(await backupsShown(service.baseUrl)).to.include(`into ${backupDir} (${byteSize(backedUpBytes)})`);

    // The copy's log is intact, its checkpoint included.
    const verified = await runCli(['audit', 'verify'], backupDir);
    expect(verified.code, verified.stdout).to.equal(0);
    expect(verified.stdout).to.match(new RegExp(`^Intact: ${manifest.log.events} events, 1 of 1 checkpoints`));

    // A service started on the copy serves at once (the original's leases are not in it), with the
    // original's keys, every customer acknowledged before the backup began, the saved card (the
    // vault and its key) and the uploaded file.
    const copy = await restored.start();
    const client = new ApiClient(copy.baseUrl, keys.testSecretKey);
    for (const id of beforeBackup) expect((await client.get(`/customers/${id}`)).status, id).to.equal(200);
    for (const id of afterBackup)
      expect((await client.get(`/customers/${id}`)).status, `${id}, sent after`).to.equal(404);
    const charge = await client.post<Charge>('/charges', {
      json: { amount: 1500, currency: 'EUR', customerId: saved.body.id },
    });
    expect(charge.status, JSON.stringify(charge.body)).to.equal(200);
    expect(charge.body.card?.last4).to.equal('4242');
    const contents = await fetch(`${copy.baseUrl}/files/${file.id}/contents`, {
      headers: { authorization: `Bearer ${keys.testSecretKey}` },
    });
    expect(Buffer.from(await contents.arrayBuffer()).equals(PNG)).to.equal(true);
    expect(copy.output()).to.not.include('waiting for the projections lease');
    expect(await backupsShown(copy.baseUrl)).to.include('No backup taken with npm run cli -- backup');
  });

  it('keeps the backup of a log that does not verify, says where it breaks, and exits 1', async () => {
    const { api, service } = original;
    await api.post('/customers', { json: { email: 'to-be-changed@example.com' } });
    const unchecked = uncheckedDir;
    const copied = await runCli(['backup', unchecked, '--no-verify', '--json'], service.dataDir);
    expect(copied.code, copied.stderr).to.equal(0);
    expect((JSON.parse(copied.stdout) as Manifest).verification).to.equal(null);
    expect(await backupsShown(service.baseUrl)).to.include('Its lognot verified (taken with --no-verify)');
    // Someone with access to the files changes a recorded event.
    const log = new Database(join(unchecked, 'events.sqlite'));
    const changed = log
      .prepare(
        `UPDATE events SET data = replace(data, 'to-be-changed@', 'changed@') WHERE type = 'CustomerCreated' AND data LIKE '%to-be-changed@%'`,
      )
      .run();
    log.close();
    expect(changed.changes).to.equal(1);

    const target = join(workDir, 'of-a-changed-log');
    const backup = await runCli(['backup', target], unchecked);
    expect(backup.code).to.equal(1);
    expect(backup.stdout).to.match(/verified: BROKEN after \d+ events/);
    expect(backup.stderr).to.include('The copied log does not verify: BROKEN');
    expect(backup.stderr).to.include('was changed after it was recorded');
    const manifest = JSON.parse(readFileSync(join(target, 'backup.json'), 'utf8')) as Manifest;
    expect(manifest.verification?.firstBreak?.reason).to.include('was changed after it was recorded');
    // The operator of the installation whose log it is sees it in the console.
    const shown = await backupsShown((await changedLog.start()).baseUrl);
    expect(shown).to.include(`into ${target}`);
    expect(shown).to.include('Its logdid not verify when it was taken');
  });

  it('leaves no backup when killed mid-way, and the next run into the same directory removes what it left', async () => {
    const dataDir = join(workDir, 'long-log');
    mkdirSync(dataDir);
    await seedCustomerCreations(join(dataDir, 'events.sqlite'), ['acct_backupKilledMidWay'], 0, 40_000);
    const target = join(workDir, 'killed');
    const partials = () => readdirSync(workDir).filter((name) => /^\.killed\..*\.partial$/.test(name));
    const child = spawn(process.execPath, ['dist/cli/main.js', 'backup', target], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: 'ignore',
    });
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
    while (partials().length === 0) {
      expect(child.exitCode, 'the backup ended before it could be killed').to.equal(null);
      await new Promise((resolveWait) => setTimeout(resolveWait, 5));
    }
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(target)).to.equal(false);
    expect(partials()).to.have.length(1);
    expect(partials()[0]).to.match(new RegExp(`^\\.killed\\.${child.pid}-[0-9a-f]{12}\\.partial$`));
    // One of a run still going (this process's id) is left alone.
    const running = `.killed.${process.pid}-0123456789ab.partial`;
    mkdirSync(join(workDir, running));

    const again = await runCli(['backup', target, '--json'], dataDir);
    expect(again.code, again.stderr).to.equal(0);
    expect((JSON.parse(again.stdout) as Manifest).log.events).to.equal(40_000);
    expect(partials()).to.deep.equal([running]);
  });

  it('refuses a target that exists, one inside the data directory, a data directory without a log, and the distributed profile', async () => {
    const { service } = original;
    const existing = join(workDir, 'existing');
    mkdirSync(existing);
    const refusedExisting = await runCli(['backup', existing], service.dataDir);
    expect(refusedExisting.code).to.equal(1);
    expect(refusedExisting.stderr).to.include(`Backup refused: ${existing} already exists`);
    expect(readdirSync(existing)).to.deep.equal([]);

    const inside = await runCli(['backup', join(service.dataDir, 'backup')], service.dataDir);
    expect(inside.code).to.equal(1);
    expect(inside.stderr).to.include('is inside the data directory');
    expect(existsSync(join(service.dataDir, 'backup'))).to.equal(false);

    const empty = join(workDir, 'empty-data');
    mkdirSync(empty);
    const noLog = await runCli(['backup', join(workDir, 'of-empty')], empty);
    expect(noLog.code).to.equal(1);
    expect(noLog.stderr).to.include('holds no event log');
    expect(existsSync(join(workDir, 'of-empty'))).to.equal(false);

    const distributed = await runCli(['backup', join(workDir, 'of-eventstore')], service.dataDir, {
      EVENTSTORE_URL: 'esdb://127.0.0.1:2113?tls=false',
    });
    expect(distributed.code).to.equal(1);
    expect(distributed.stderr).to.include('Backup refused: it copies the embedded profile’s files');
    expect(distributed.stderr).to.include('back up EventStoreDB and MongoDB with their own tools');
    expect(existsSync(join(workDir, 'of-eventstore'))).to.equal(false);
  });
});
