import { expect } from 'chai';
import { InvalidRequestError } from '../../../packages/domain/errors.ts';
import { HttpError } from '../../../packages/http/errors.ts';
import {
  DIFFERENT_PARAMETERS_MESSAGE,
  IdempotencyStore,
  requestFingerprint,
  type IdempotencyRecord,
} from '../../../packages/http/idempotency.ts';
import { SqliteDocumentStore } from '../../../packages/readstore/sqlite-document-store.ts';
import { call, startToyApi, type ToyApi } from './support/toy-api.ts';

describe('http kit: idempotent requests', () => {
  let api: ToyApi;
  beforeEach(async () => {
    api = await startToyApi();
  });
  afterEach(() => api.close());

  const createWidget = (key: string, form = 'amount=100&currency=USD', apiKey = 'sk_test_a') =>
    call(api, 'POST', '/widgets', { form, key: apiKey, headers: { 'idempotency-key': key } });

  it('runs a repeated request once and replays the first response exactly', async () => {
    const first = await createWidget('order-1');
    const second = await createWidget('order-1');
    expect(api.calls.get('POST /widgets')).to.equal(1);
    expect(first.status).to.equal(200);
    expect(second.status).to.equal(200);
    expect(second.body).to.deep.equal(first.body);
    expect(first.body.idempotencyKey).to.equal('order-1');
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('treats the JSON and form spellings of the same parameters as the same request', async () => {
    const form = await createWidget('order-2', 'currency=USD&amount=100');
    const json = await call(api, 'POST', '/widgets', {
      json: { amount: 100, currency: 'USD' },
      headers: { 'idempotency-key': 'order-2' },
    });
    expect(json.status).to.equal(200);
    expect(json.body).to.deep.equal(form.body);
    expect(api.calls.get('POST /widgets')).to.equal(1);
  });

  it('runs concurrent requests with the same key once; all get the same response', async () => {
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => createWidget('order-3', 'amount=100&currency=USD&delayMs=200')),
    );
    expect(api.calls.get('POST /widgets')).to.equal(1);
    for (const response of responses) {
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal(responses[0]!.body);
    }
    expect(responses.filter((response) => response.headers.get('idempotent-replayed') === 'true')).to.have.length(4);
  });

  it('refuses the key for a request with different parameters', async () => {
    await createWidget('order-4', 'amount=100&currency=USD');
    const other = await createWidget('order-4', 'amount=200&currency=USD');
    expect(other.status).to.equal(400);
    expect(other.body).to.deep.equal({ error: { type: 'invalid_request', message: DIFFERENT_PARAMETERS_MESSAGE } });
    expect(api.calls.get('POST /widgets')).to.equal(1);
  });

  it('refuses the key for another path', async () => {
    await createWidget('order-5');
    const other = await call(api, 'POST', '/pings', { headers: { 'idempotency-key': 'order-5' } });
    expect(other.status).to.equal(400);
    expect(other.body.error.message).to.equal(DIFFERENT_PARAMETERS_MESSAGE);
  });

  it('keeps keys of different accounts apart', async () => {
    const a = await createWidget('shared-key', 'amount=100&currency=USD', 'sk_test_a');
    const b = await createWidget('shared-key', 'amount=100&currency=USD', 'sk_test_b');
    expect(api.calls.get('POST /widgets')).to.equal(2);
    expect(a.body.accountId).to.equal('acct_a');
    expect(b.body.accountId).to.equal('acct_b');
    expect(b.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('keeps the keys of public and secret keys apart: a public key can neither claim nor probe them', async () => {
    const ping = (key: string, note: string, apiKey: string) =>
      call(api, 'POST', '/pings', { form: `note=${note}`, key: apiKey, headers: { 'idempotency-key': key } });
    // The public key (in checkout pages) uses a predictable key first...
    expect((await ping('order-1001', 'first', 'pk_test_a')).status).to.equal(200);
    // ...the merchant's own request with that key still runs, as its own request.
    const merchant = await ping('order-1001', 'merchant', 'sk_test_a');
    expect(merchant.status).to.equal(200);
    expect(merchant.headers.get('idempotent-replayed')).to.equal(null);
    expect(merchant.body).to.include({ keyKind: 'secret' });
    // A key the secret key used tells the public key nothing: neither a replay nor a refusal.
    expect((await ping('order-1002', 'merchant', 'sk_test_a')).status).to.equal(200);
    const probe = await ping('order-1002', 'probe', 'pk_test_a');
    expect(probe.status).to.equal(200);
    expect(probe.headers.get('idempotent-replayed')).to.equal(null);
    expect(probe.body).to.include({ keyKind: 'public' });
    expect(api.calls.get('POST /pings')).to.equal(4);
  });

  it('refuses a key longer than 255 characters, and an empty one', async () => {
    for (const key of ['k'.repeat(256), '']) {
      const res = await createWidget(key);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.equal({
        type: 'invalid_request',
        message: 'Invalid Idempotency-Key header: must be 1 to 255 characters long',
      });
    }
    expect((await createWidget('k'.repeat(255))).status).to.equal(200);
  });

  it('stores 4xx responses', async () => {
    const first = await createWidget('order-6', 'amount=0&currency=USD');
    const second = await createWidget('order-6', 'amount=0&currency=USD');
    expect(first.status).to.equal(400);
    expect(second.body).to.deep.equal(first.body);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('does not store 5xx responses: a retry runs again', async () => {
    const first = await call(api, 'POST', '/flaky', { headers: { 'idempotency-key': 'flaky-1' } });
    expect(first.status).to.equal(500);
    const retry = await call(api, 'POST', '/flaky', { headers: { 'idempotency-key': 'flaky-1' } });
    expect(retry.status).to.equal(200);
    expect(retry.body).to.deep.equal({ run: 2 });
    const replay = await call(api, 'POST', '/flaky', { headers: { 'idempotency-key': 'flaky-1' } });
    expect(replay.status).to.equal(200);
    expect(replay.body).to.deep.equal({ run: 2 });
    expect(api.calls.get('POST /flaky')).to.equal(2);
  });

  it('ignores the header on other methods', async () => {
    const res = await call(api, 'GET', '/widgets', { headers: { 'idempotency-key': 'k'.repeat(300) } });
    expect(res.status).to.equal(200);
  });
});

describe('http kit: IdempotencyStore', () => {
  let store: SqliteDocumentStore;
  let now: number;
  const scope = { accountId: 'acct_a', mode: 'test' as const, keyKind: 'secret' as const, key: 'k1' };
  const ok = (body: unknown) => async () => ({ status: 200, body });

  beforeEach(() => {
    store = new SqliteDocumentStore(':memory:');
    now = Date.now();
  });
  afterEach(() => store.close());

  const records = () => store.collection<IdempotencyRecord>('idempotency');
  const KEY = Buffer.alloc(32, 7);
  const idempotency = (options = {}) =>
    new IdempotencyStore(records(), { now: () => now, pollIntervalMs: 5, fingerprintKey: KEY, ...options });

  it('keys records by account, mode and key, and expires them after the TTL', async () => {
    await idempotency({ ttlMs: 3_600_000 }).run(scope, 'f', ok({ a: 1 }));
    const record = await records().get('acct_a:test:secret:k1');
    expect(record).to.include({ state: 'completed', fingerprint: 'f', _expiresAt: now + 3_600_000 });
    expect(record!.response).to.deep.equal({ status: 200, body: { a: 1 } });
  });

  it('takes over a pending record left by a request that died', async () => {
    await records().insert({
      id: 'acct_a:test:secret:k1',
      created: 0,
      state: 'pending',
      fingerprint: 'f',
      startedAt: now - 61_000,
      _expiresAt: now + 1e6,
    });
    const outcome = await idempotency().run(scope, 'f', ok('second try'));
    expect(outcome).to.deep.equal({ response: { status: 200, body: 'second try' }, replayed: false });
  });

  it('does not take over a pending record whose request is alive (it renews its heartbeat)', async () => {
    let clock = Date.now();
    const store = () =>
      new IdempotencyStore(records(), {
        now: () => clock,
        pollIntervalMs: 5,
        heartbeatMs: 10,
        staleAfterMs: 100,
        waitTimeoutMs: 60_000,
        fingerprintKey: KEY,
      });
    let runs = 0;
    const slow = async () => {
      runs += 1;
      // Business time runs 5 times faster than real time: 500 ms pass, beyond staleAfterMs.
      for (let i = 0; i < 50; i++) {
        clock += 10;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      return { status: 200, body: 'slow' };
    };
    const [first, duplicate] = await Promise.all([
      store().run(scope, 'f', slow),
      new Promise((resolve) => setTimeout(resolve, 20)).then(() => store().run(scope, 'f', slow)),
    ]);
    expect(runs).to.equal(1);
    expect(first.replayed).to.equal(false);
    expect(duplicate).to.deep.equal({ response: { status: 200, body: 'slow' }, replayed: true });
  });

  it('gives each request a token of its own, the same across stores (processes) and restarts', () => {
    const token = idempotency().requestToken(scope, 'f');
    expect(idempotency().requestToken(scope, 'f')).to.equal(token);
    expect(idempotency().requestToken(scope, 'g')).not.to.equal(token);
    expect(idempotency().requestToken({ ...scope, keyKind: 'public' }, 'f')).not.to.equal(token);
    expect(idempotency().requestToken({ ...scope, accountId: 'acct_b' }, 'f')).not.to.equal(token);
  });

  it('lets exactly one of several duplicates take over a stale record', async () => {
    await records().insert({
      id: 'acct_a:test:secret:k1',
      created: 0,
      state: 'pending',
      fingerprint: 'f',
      startedAt: now - 61_000,
      _expiresAt: now + 1e6,
    });
    let runs = 0;
    const execute = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { status: 200, body: 'taken over' };
    };
    const outcomes = await Promise.all([1, 2, 3].map(() => idempotency().run(scope, 'f', execute)));
    expect(runs).to.equal(1);
    expect(outcomes.map((outcome) => outcome.response.body)).to.deep.equal(['taken over', 'taken over', 'taken over']);
  });

  it('lets a retry take over a stale record whose last taker was killed before recording its own claim', async () => {
    await records().insert({
      id: 'acct_a:test:secret:k1',
      created: 0,
      state: 'pending',
      fingerprint: 'f',
      startedAt: now - 61_000,
      _expiresAt: now + 1e6,
    });
    // The first taker dies between its claim and the write of its own record.
    const dying = records();
    const killedBeforeItsRecord = new Proxy(dying, {
      get: (target, property, receiver) =>
        property === 'put'
          ? () => Promise.reject(new Error('killed'))
          : (Reflect.get(target, property, receiver) as unknown),
    });
    const options = { now: () => now, pollIntervalMs: 5, waitTimeoutMs: 50, fingerprintKey: KEY };
    const killed = await new IdempotencyStore(killedBeforeItsRecord, options)
      .run(scope, 'f', ok('never'))
      .catch((error: unknown) => error);
    expect(killed).to.have.property('message', 'killed');

    // The client retries once the record is stale again.
    now += 5_001;
    const retry = await new IdempotencyStore(records(), options).run(scope, 'f', ok('taken over after the kill'));
    expect(retry).to.deep.equal({ response: { status: 200, body: 'taken over after the kill' }, replayed: false });
  });

  it('gives up waiting for a pending request after the wait timeout with 409', async () => {
    await records().insert({
      id: 'acct_a:test:secret:k1',
      created: 0,
      state: 'pending',
      fingerprint: 'f',
      startedAt: now,
      _expiresAt: now + 1e6,
    });
    const store = new IdempotencyStore(records(), { waitTimeoutMs: 30, pollIntervalMs: 5, fingerprintKey: KEY });
    const error = await store.run(scope, 'f', ok('never')).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(HttpError);
    expect(error).to.include({ status: 409, type: 'invalid_request' });
  });

  it('refuses a different fingerprint even while the first request is pending', async () => {
    await records().insert({
      id: 'acct_a:test:secret:k1',
      created: 0,
      state: 'pending',
      fingerprint: 'f',
      startedAt: now,
      _expiresAt: now + 1e6,
    });
    const error = await idempotency()
      .run(scope, 'other', ok('x'))
      .catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(InvalidRequestError);
    expect((error as Error).message).to.equal(DIFFERENT_PARAMETERS_MESSAGE);
  });

  it('releases the key when the request throws', async () => {
    const failing = async () => {
      throw new Error('boom');
    };
    await idempotency()
      .run(scope, 'f', failing)
      .catch(() => undefined);
    expect(await records().get('acct_a:test:secret:k1')).to.equal(null);
  });

  it('fingerprints method, path and body, ignoring key order and scalar spelling', () => {
    const base = requestFingerprint('POST', '/charges', { amount: 100, card: { number: 'x', cvc: '1' } }, KEY);
    expect(requestFingerprint('post', '/charges', { card: { cvc: '1', number: 'x' }, amount: '100' }, KEY)).to.equal(
      base,
    );
    expect(requestFingerprint('POST', '/charges', { amount: 101, card: { number: 'x', cvc: '1' } }, KEY)).not.to.equal(
      base,
    );
    expect(requestFingerprint('POST', '/refunds', { amount: 100, card: { number: 'x', cvc: '1' } }, KEY)).not.to.equal(
      base,
    );
    expect(
      requestFingerprint('POST', '/charges', { amount: [100], card: { number: 'x', cvc: '1' } }, KEY),
    ).not.to.equal(base);
  });

  it('keys the fingerprints, so a body holding a card number cannot be found by hashing guesses', () => {
    const body = { card: { number: '4242424242424242' } };
    expect(requestFingerprint('POST', '/charges', body, KEY)).not.to.equal(
      requestFingerprint('POST', '/charges', body, Buffer.alloc(32, 8)),
    );
    expect(idempotency().fingerprint('POST', '/charges', body)).to.equal(
      requestFingerprint('POST', '/charges', body, KEY),
    );
  });
});
