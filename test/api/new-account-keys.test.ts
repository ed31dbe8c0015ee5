import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../support/api-client.ts';
import { eventually } from '../support/eventually.ts';
import {
  removeDataDir,
  runCli,
  startService,
  type AccountKeys,
  type ServiceProcess,
} from '../support/service-process.ts';

const ACCOUNTS = 8;

/**
 * Two `api` processes and a `projector` on one set of embedded files: the keys `accounts create`
 * prints are accepted by both APIs from the first request, though neither process has projected
 * the new account when the CLI returns; a key nobody issued is still refused with 401.
 */
describe('keys printed by the CLI against several API processes on one DATA_DIR', function () {
  this.timeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-new-keys-'));
  const env = {
    // Shared by every process, as several processes on one DATA_DIR require.
    VAULT_KEY: randomBytes(32).toString('hex'),
    FINGERPRINT_KEY: randomBytes(32).toString('hex'),
  };
  const processes: ServiceProcess[] = [];

  after(async () => {
    for (const process of processes) await process.stop();
    removeDataDir(dataDir);
  });

  it('answers the first request with each new key through either API process, and refuses an unknown key', async () => {
    for (const role of ['projector', 'api', 'api'])
      processes.push(await startService({ dataDir, env: { ...env, SERVICE_ROLE: role } }));
    const apis = processes.slice(1);

    const refused: string[] = [];
    let requests = 0;
    for (let i = 0; i < ACCOUNTS; i++) {
      const created = await runCli(['accounts', 'create', '--name', `Shop ${i}`, '--json'], dataDir, env);
      expect(created.code, created.stderr).to.equal(0);
      const keys = JSON.parse(created.stdout) as AccountKeys;
      // At once, and through both APIs at the same moment, as a merchant's first calls may go.
      const answers = await Promise.all(
        apis.flatMap((api, index) =>
          [keys.testSecretKey, keys.liveSecretKey].map(async (key) => {
            const answer = await new ApiClient(api.baseUrl, key).get('/charges');
            return { what: `account ${i}, api ${index + 1}, ${key.slice(0, 8)}…`, status: answer.status };
          }),
        ),
      );
      requests += answers.length;
      for (const { what, status } of answers) if (status !== 200) refused.push(`${what}: ${status}`);
    }
    console.log(`      new keys: ${ACCOUNTS} accounts created, ${requests} first requests, ${refused.length} refused`);
    expect(refused).to.deep.equal([]);

    for (const api of apis) {
      const unknown = await new ApiClient(api.baseUrl, `sk_test_${randomBytes(12).toString('hex')}`).get('/charges');
      expect(unknown.status).to.equal(401);
      expect(unknown.body).to.have.nested.property('error.type', 'invalid_request');
    }
  });

  it('lists every account for the operator, and says when the read model has not applied the newest yet', async () => {
    type Listed = { id: string; name: string; keys: { keyId: string; kind: string; mode: string; last4: string }[] };
    const listed = async () => {
      const run = await runCli(['accounts', 'list', '--json'], dataDir, env);
      expect(run.code, run.stderr).to.equal(0);
      const accounts = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Listed);
      return { accounts, stderr: run.stderr };
    };
    // With the projector running: every account the CLI opened above, newest first, with its four keys.
    const all = await listed();
    expect(all.accounts.map((account) => account.name).slice(0, ACCOUNTS)).to.deep.equal(
      Array.from({ length: ACCOUNTS }, (_, i) => `Shop ${ACCOUNTS - 1 - i}`),
    );
    expect(all.accounts[0]!.keys.map((key) => `${key.mode} ${key.kind}`)).to.have.members([
      'test secret',
      'test public',
      'live secret',
      'live public',
    ]);
    expect(all.stderr).to.equal('');

    // No projector: an account opened now is in the log only. It is not listed yet, and the list says why.
    for (const process of processes.splice(0)) await process.stop();
    const opened = await runCli(['accounts', 'create', '--name', 'Opened\noffline', '--json'], dataDir, env);
    const { id: accountId } = JSON.parse(opened.stdout) as AccountKeys;
    const offline = await listed();
    expect(offline.accounts.map((account) => account.id)).to.not.include(accountId);
    expect(offline.stderr).to.include('The accounts read model is 1 event behind the log');
    const table = (await runCli(['accounts', 'list'], dataDir, env)).stdout.trim().split('\n');
    expect(table[0]).to.match(/^account +opened +name +keys$/);
    expect(table).to.have.length(all.accounts.length + 1);

    // A projector applies it: then it is listed first, and the list says nothing more.
    processes.push(await startService({ dataDir, env: { ...env, SERVICE_ROLE: 'projector' } }));
    const applied = await eventually(listed, ({ stderr }) => stderr === '');
    expect(applied.accounts[0]).to.include({ id: accountId, name: 'Opened\noffline' });
    // As text, a name cannot break the table's lines.
    const [, newest] = (await runCli(['accounts', 'list'], dataDir, env)).stdout.split('\n');
    expect(newest).to.match(new RegExp(`^${accountId} +\\S+Z +Opened\\?offline +key_`));
  });
});
