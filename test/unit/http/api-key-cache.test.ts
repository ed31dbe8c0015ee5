import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashApiKey } from '../../../packages/commands/account-commands.ts';
import { KeyNotKnownYet } from '../../../packages/http/authenticate.ts';
import { checkpointKey, physicalCollectionName } from '../../../packages/projection-runtime/projection.ts';
import { ReadModels } from '../../../packages/projection-runtime/read-models.ts';
import type { ProjectionWrite } from '../../../packages/readstore/document-store.ts';
import { SqliteDocumentStore } from '../../../packages/readstore/sqlite-document-store.ts';
import { accountsProjection, type ApiKeyDoc } from '../../../projections/accounts-projection.ts';
import { apiKeyAuthenticator } from '../../../services/api/authenticator.ts';

const KEY = 'sk_test_cacheCheck0000000000000000000001';

const keyDoc = (): ApiKeyDoc => ({
  id: hashApiKey(KEY),
  created: 1_767_225_600,
  _seq: 1,
  keyId: 'key_cache',
  accountId: 'acct_cache',
  mode: 'test',
  kind: 'secret',
  last4: KEY.slice(-4),
  vaultRef: null,
});

describe('API key cache of the authenticator (SQLite read store)', () => {
  let dir: string;
  let store: SqliteDocumentStore;
  let readModels: ReadModels;

  /** What the accounts projection's commit does: its writes and its checkpoint in one transaction. */
  const projectAccounts = async (
    write: { op: 'put'; doc: ApiKeyDoc } | { op: 'delete'; id: string },
    position: number,
  ) => {
    const collection = physicalCollectionName('api_keys', 1);
    await store.commitProjection(
      [{ ...write, collection, position } as ProjectionWrite],
      [{ key: checkpointKey(accountsProjection.name, 1), position }],
    );
    // As an API process without its own projector sees it (its refresh runs every second).
    await readModels.refresh();
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'key-cache-'));
    store = new SqliteDocumentStore(join(dir, 'read.sqlite'));
    readModels = new ReadModels(store, [accountsProjection]);
  });

  afterEach(async () => {
    readModels.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a known key from the cache while the accounts read model stays where it was', async () => {
    const authenticate = apiKeyAuthenticator(readModels);
    await projectAccounts({ op: 'put', doc: keyDoc() }, 1);
    const expected = { accountId: 'acct_cache', mode: 'test', keyId: 'key_cache', keyKind: 'secret' };
    expect(await authenticate(KEY)).to.deep.equal(expected);

    // Removed behind the projection's back (no checkpoint moved): the cache still knows the key.
    await store.collection(physicalCollectionName('api_keys', 1)).delete(hashApiKey(KEY));
    expect(await authenticate(KEY)).to.deep.equal(expected);
  });

  it('refuses a key withdrawn from the accounts read model from the very next request', async () => {
    const authenticate = apiKeyAuthenticator(readModels);
    await projectAccounts({ op: 'put', doc: keyDoc() }, 1);
    expect(await authenticate(KEY)).to.include({ keyId: 'key_cache' });
    expect(await authenticate(KEY)).to.include({ keyId: 'key_cache' });

    await projectAccounts({ op: 'delete', id: hashApiKey(KEY) }, 2);
    expect(await authenticate(KEY)).to.equal(null);
  });

  it('recognises a key added to the read model after the cache filled', async () => {
    const authenticate = apiKeyAuthenticator(readModels);
    const other = 'sk_test_cacheCheck0000000000000000000002';
    await projectAccounts({ op: 'put', doc: keyDoc() }, 1);
    expect(await authenticate(KEY)).to.include({ keyId: 'key_cache' });
    expect(await authenticate(other)).to.equal(null);

    await projectAccounts({ op: 'put', doc: { ...keyDoc(), id: hashApiKey(other), keyId: 'key_other' } }, 2);
    expect(await authenticate(other)).to.include({ keyId: 'key_other' });
    expect(await authenticate(KEY)).to.include({ keyId: 'key_cache' });
  });

  it('waits for a key issued by another process until the accounts read model reaches the head of the log', async () => {
    await projectAccounts({ op: 'put', doc: keyDoc() }, 1);
    const other = 'sk_test_cacheCheck0000000000000000000003';
    // The log already holds the new key's events (position 2); the read model is at 1.
    const authenticate = apiKeyAuthenticator(readModels, { logHead: async () => 2, timeoutMs: 5_000 });
    const answer = authenticate(other);
    setTimeout(
      () => void projectAccounts({ op: 'put', doc: { ...keyDoc(), id: hashApiKey(other), keyId: 'key_new' } }, 2),
      200,
    );
    expect(await answer).to.include({ keyId: 'key_new' });
  });

  it('refuses an unknown key at once when the accounts read model is at the head of the log', async () => {
    await projectAccounts({ op: 'put', doc: keyDoc() }, 1);
    const authenticate = apiKeyAuthenticator(readModels, { logHead: async () => 1, timeoutMs: 5_000 });
    const started = Date.now();
    expect(await authenticate('sk_test_cacheCheck0000000000000000000004')).to.equal(null);
    expect(Date.now() - started).to.be.below(500);
  });

  it('neither recognises nor refuses an unknown key once the wait for a read model that stays behind runs out', async () => {
    await projectAccounts({ op: 'put', doc: keyDoc() }, 1);
    const authenticate = apiKeyAuthenticator(readModels, { logHead: async () => 5, timeoutMs: 300 });
    const answer = await Promise.resolve(authenticate('sk_test_cacheCheck0000000000000000000005')).catch(
      (error: unknown) => error,
    );
    expect(answer).to.be.instanceOf(KeyNotKnownYet);
    expect(answer).to.include({ status: 503 });
  });
});
