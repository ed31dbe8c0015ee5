import { expect } from 'chai';
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { useService } from '../support/use-service.ts';

/** Every file under the data directory (uploaded files included), with its bytes, for scanning what is stored at rest. */
function dataFiles(dataDir: string): { name: string; mode: number; bytes: Buffer }[] {
  return readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(dataDir, name)).isFile())
    .map((name) => {
      const path = join(dataDir, name);
      return { name, mode: statSync(path).mode & 0o777, bytes: readFileSync(path) };
    });
}

/** An upload as client libraries send it. */
async function uploadFile(baseUrl: string, secretKey: string, bytes: Buffer): Promise<{ id: string }> {
  const form = new FormData();
  form.append('purpose', 'dispute_evidence');
  form.append('file', new Blob([bytes]), 'receipt.pdf');
  const response = await fetch(`${baseUrl}/files`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}` },
    body: form,
  });
  expect(response.status).to.equal(200);
  return (await response.json()) as { id: string };
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

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

describe('data at rest: uploaded files', function () {
  this.timeout(60_000);
  const { service, keys, start } = useService();
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  it('keeps DATA_DIR/files at 0700 and each uploaded file at 0600, and tightens looser ones at the next start', async () => {
    const files = join(service.dataDir, 'files');
    const first = await uploadFile(service.baseUrl, keys.testSecretKey, PDF);
    expect(modeOf(files)).to.equal(0o700);
    expect(modeOf(join(files, first.id))).to.equal(0o600);

    // As an older installation left them, or a restore wrote them.
    await service.stop();
    chmodSync(files, 0o755);
    chmodSync(join(files, first.id), 0o644);
    await start();
    expect(modeOf(files)).to.equal(0o700);
    expect(modeOf(join(files, first.id))).to.equal(0o600);
    const second = await uploadFile(service.baseUrl, keys.testSecretKey, PDF);
    expect(readdirSync(files).sort()).to.deep.equal([first.id, second.id].sort());
    expect(modeOf(join(files, second.id))).to.equal(0o600);
  });
});
