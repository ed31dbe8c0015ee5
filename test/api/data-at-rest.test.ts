import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { useService } from '../support/use-service.ts';

/** Every file of the data directory, with its bytes, for scanning what is stored at rest. */
function dataFiles(dataDir: string): { name: string; mode: number; bytes: Buffer }[] {
  return readdirSync(dataDir).map((name) => {
    const path = join(dataDir, name);
    return { name, mode: statSync(path).mode & 0o777, bytes: readFileSync(path) };
  });
}

describe('data at rest: file modes and secrets in replayable answers', function () {
  this.timeout(60_000);
  const { api, service } = useService();

  it('keeps DATA_DIR at 0700 and every file in it (databases, -wal, -shm, keys) at 0600', async () => {
    expect((await api.post('/customers', { json: { email: 'modes@example.com' } })).status).to.equal(200);
    expect(statSync(service.dataDir).mode & 0o777).to.equal(0o700);
    const files = dataFiles(service.dataDir);
    const names = files.map((file) => file.name);
    for (const expected of ['events.sqlite', 'events.sqlite-wal', 'read.sqlite', 'state.sqlite', 'vault.key'])
      expect(names).to.include(expected);
    for (const file of files) expect(file.mode, file.name).to.equal(0o600);
  });

  it('stores a webhook endpoint creation replay encrypted: the secret appears in no data file, the replay still shows it', async () => {
    const request = {
      json: { url: 'https://hooks.example.com/orders' },
      headers: { 'Idempotency-Key': 'endpoint-secret-at-rest' },
    };
    const created = await api.post<{ id: string; secret: string }>('/webhook-endpoints', request);
    expect(created.status).to.equal(200);
    const { secret } = created.body;
    expect(secret).to.be.a('string').with.length.greaterThan(16);

    const replay = await api.post<{ id: string; secret: string }>('/webhook-endpoints', request);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body).to.deep.equal(created.body);

    for (const file of dataFiles(service.dataDir)) {
      expect(file.bytes.includes(Buffer.from(secret)), `${file.name} holds the secret`).to.equal(false);
    }
  });
});
