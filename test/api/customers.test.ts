import { expect } from 'chai';
import { createOtherAccount } from '../support/payments.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';

type Customer = {
  id: string;
  created: number;
  objectType: string;
  email: string;
  description: string | null;
  metadata: Record<string, string>;
  deleted?: boolean;
  defaultCardId: string | null;
  cards: unknown[];
};
type Page<T> = { list: T[]; hasMore: boolean };
type Event = { id: string; type: string; objectType: string; created: number; data: Customer; log: string };

describe('customers and events over HTTP', function () {
  this.timeout(60_000);
  const { api, service, keys } = useService();

  it('creates from JSON and from a form body alike, readable at once', async () => {
    const fromJson = await api.post<Customer>('/customers', {
      json: { email: 'json@example.com', description: 'J', metadata: { tier: 'gold' } },
    });
    const fromForm = await api.post<Customer>('/customers', {
      form: { email: 'form@example.com', description: 'F', 'metadata[tier]': 'gold' },
    });
    for (const [response, email] of [
      [fromJson, 'json@example.com'],
      [fromForm, 'form@example.com'],
    ] as const) {
      expect(response.status).to.equal(200);
      expect(response.body).to.include({ objectType: 'customer', email, defaultCardId: null });
      expect(response.body.id).to.match(/^cust_[A-Za-z0-9]{24}$/);
      expect(response.body.metadata).to.deep.equal({ tier: 'gold' });
      expect(response.body.cards).to.deep.equal([]);
      expect(response.body.created).to.be.within(Math.floor(Date.now() / 1000) - 60, Math.floor(Date.now() / 1000) + 1);
      const read = await api.get<Customer>(`/customers/${response.body.id}`);
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(response.body);
    }
  });

  it('walks a full lifecycle, each step visible in /events with the customer as data', async () => {
    const created = (await api.post<Customer>('/customers', { json: { email: 'life@example.com' } })).body;
    const updated = await api.post<Customer>(`/customers/${created.id}`, {
      form: { description: 'Regular', 'metadata[a]': '1' },
    });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ id: created.id, email: 'life@example.com', description: 'Regular' });
    expect(updated.body.metadata).to.deep.equal({ a: '1' });

    const deleted = await api.delete(`/customers/${created.id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ id: created.id });
    const afterDelete = await api.get<Customer>(`/customers/${created.id}`);
    expect(afterDelete.status).to.equal(200);
    expect(afterDelete.body).to.include({ id: created.id, deleted: true, description: 'Regular' });

    const events = (await api.get<Page<Event>>('/events', { query: { limit: '100' } })).body.list.filter(
      (event) => event.data.id === created.id,
    );
    expect(events.map((event) => event.type)).to.deep.equal([
      'CUSTOMER_DELETED',
      'CUSTOMER_UPDATED',
      'CUSTOMER_CREATED',
    ]);
    expect(events[2]!.data).to.deep.equal(created);
    expect(events[1]!.data).to.deep.equal(updated.body);
    expect(events[0]!.data).to.deep.equal(afterDelete.body);
    for (const event of events) {
      expect(event.id).to.match(/^event_/);
      expect(event.log).to.match(/^log_/);
      expect(event.objectType).to.equal('event');
      const single = await api.get<Event>(`/events/${event.id}`);
      expect(single.body).to.deep.equal(event);
    }
    const onlyDeletes = await api.get<Page<Event>>('/events', { query: { type: 'CUSTOMER_DELETED' } });
    expect(onlyDeletes.body.list.map((event) => event.type))
      .to.include('CUSTOMER_DELETED')
      .and.not.include('CUSTOMER_CREATED');
  });

  it('lists newest first and pages with startingAfterId and endingBeforeId without gaps or repeats', async () => {
    const email = `page-${Date.now()}@example.com`;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await api.post<Customer>('/customers', { json: { email } })).body.id);
    const newestFirst = [...ids].reverse();

    const first = await api.get<Page<Customer>>('/customers', { query: { email, limit: '3' } });
    expect(first.body.list.map((c) => c.id)).to.deep.equal(newestFirst.slice(0, 3));
    expect(first.body.hasMore).to.equal(true);
    const second = await api.get<Page<Customer>>('/customers', {
      query: { email, limit: '3', startingAfterId: newestFirst[2]! },
    });
    expect(second.body.list.map((c) => c.id)).to.deep.equal(newestFirst.slice(3, 6));
    expect(second.body.hasMore).to.equal(true);
    const third = await api.get<Page<Customer>>('/customers', {
      query: { email, limit: '3', startingAfterId: newestFirst[5]! },
    });
    expect(third.body.list.map((c) => c.id)).to.deep.equal(newestFirst.slice(6));
    expect(third.body.hasMore).to.equal(false);
    const back = await api.get<Page<Customer>>('/customers', {
      query: { email, limit: '3', endingBeforeId: newestFirst[6]! },
    });
    expect(back.body.list.map((c) => c.id)).to.deep.equal(newestFirst.slice(3, 6));
    expect(back.body.hasMore).to.equal(true);
  });

  it('leaves deleted customers out of lists unless deleted=true, which lists only them', async () => {
    const email = `deleted-${Date.now()}@example.com`;
    const kept = (await api.post<Customer>('/customers', { json: { email } })).body;
    const gone = (await api.post<Customer>('/customers', { json: { email } })).body;
    await api.delete(`/customers/${gone.id}`);
    const live = await api.get<Page<Customer>>('/customers', { query: { email } });
    expect(live.body.list.map((c) => c.id)).to.deep.equal([kept.id]);
    const deleted = await api.get<Page<Customer>>('/customers', { query: { email, deleted: 'true' } });
    expect(deleted.body.list.map((c) => c.id)).to.deep.equal([gone.id]);
    expect(deleted.body.list[0]!.deleted).to.equal(true);
  });

  it('filters lists on created', async () => {
    const email = `created-${Date.now()}@example.com`;
    const customer = (await api.post<Customer>('/customers', { json: { email } })).body;
    const inRange = await api.get<Page<Customer>>('/customers', {
      query: { email, 'created[gte]': String(customer.created), 'created[lte]': String(customer.created) },
    });
    expect(inRange.body.list.map((c) => c.id)).to.deep.equal([customer.id]);
    const after = await api.get<Page<Customer>>('/customers', {
      query: { email, 'created[gt]': String(customer.created) },
    });
    expect(after.body.list).to.deep.equal([]);
  });

  it('answers bad input with 400 invalid_request naming the parameter, and changes nothing', async () => {
    const before = (await api.get<Page<Event>>('/events', { query: { limit: '1' } })).body.list[0]?.id;
    const cases: [Record<string, unknown> | Record<string, string>, RegExp, 'json' | 'form'][] = [
      [{}, /email/, 'json'],
      [{ email: 'not-an-email' }, /email/, 'json'],
      [{ email: 'x@example.com', color: 'red' }, /color/, 'json'],
      [{ email: 'x@example.com', metadata: { k: 'v'.repeat(256) } }, /metadata/, 'json'],
      [{ email: 'x@example.com', 'metadata[k]': 'v'.repeat(256) }, /metadata/, 'form'],
      [{ email: 42 }, /email/, 'json'],
    ];
    for (const [body, message, encoding] of cases) {
      const response =
        encoding === 'json'
          ? await api.post('/customers', { json: body })
          : await api.post('/customers', { form: body as Record<string, string> });
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect(response.body).to.have.nested.property('error.type', 'invalid_request');
      expect((response.body as { error: { message: string } }).error.message).to.match(message);
    }
    const badQueries: Record<string, string>[] = [
      { limit: '0' },
      { limit: '101' },
      { limit: 'ten' },
      { 'created[gte]': 'yesterday' },
      { startingAfterId: 'cust_doesnotexist' },
    ];
    for (const query of badQueries) {
      const response = await api.get('/customers', { query });
      expect(response.status, JSON.stringify(query)).to.equal(400);
      expect(response.body).to.have.nested.property('error.type', 'invalid_request');
    }
    const malformed = await fetch(`${service.baseUrl}/customers`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${keys.testSecretKey}:`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: '{"email": ',
    });
    expect(malformed.status).to.equal(400);
    const after = (await api.get<Page<Event>>('/events', { query: { limit: '1' } })).body.list[0]?.id;
    expect(after).to.equal(before);
  });

  it('requires a valid secret key: 401 otherwise', async () => {
    expect((await api.get('/customers', { key: null })).status).to.equal(401);
    expect((await api.get('/customers', { key: 'sk_test_wrong' })).status).to.equal(401);
    const withPublicKey = await api.get('/customers', { key: keys.testPublicKey });
    expect(withPublicKey.status).to.equal(401);
    expect(withPublicKey.body).to.have.nested.property('error.type', 'invalid_request');
  });

  it("keeps tenants apart: another account's or mode's customer is a 404", async () => {
    const { api: otherApi } = await createOtherAccount(api, service.dataDir, 'Other shop');

    const mine = (await api.post<Customer>('/customers', { json: { email: 'mine@example.com' } })).body;
    expect((await otherApi.get(`/customers/${mine.id}`)).status).to.equal(404);
    expect((await otherApi.post(`/customers/${mine.id}`, { json: { description: 'x' } })).status).to.equal(404);
    expect((await otherApi.delete(`/customers/${mine.id}`)).status).to.equal(404);
    const live = api.withKey(keys.liveSecretKey);
    const inLive = await live.get(`/customers/${mine.id}`);
    expect(inLive.status).to.equal(404);
    expect(inLive.body).to.have.nested.property('error.type', 'invalid_request');
    expect((await otherApi.get<Page<Customer>>('/customers')).body.list.map((c) => c.id)).to.not.include(mine.id);
    expect((await live.get<Page<Event>>('/events')).body.list.map((e) => e.data.id)).to.not.include(mine.id);
    expect((await api.get(`/customers/${mine.id}`)).status).to.equal(200);
  });

  it('replays the first response for a repeated Idempotency-Key, once even when concurrent', async () => {
    const key = `idem-${Date.now()}`;
    const email = `${key}@example.com`;
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.post<Customer>('/customers', { json: { email }, headers: { 'idempotency-key': key } }),
      ),
    );
    const ids = new Set(responses.map((response) => response.body.id));
    expect(responses.map((response) => response.status)).to.deep.equal(Array(8).fill(200));
    expect(ids.size).to.equal(1);
    const listed = await api.get<Page<Customer>>('/customers', { query: { email } });
    expect(listed.body.list).to.have.length(1);

    const later = await api.post<Customer>('/customers', { json: { email }, headers: { 'idempotency-key': key } });
    expect(later.body).to.deep.equal(responses[0]!.body);
    const different = await api.post('/customers', {
      json: { email: 'other@example.com' },
      headers: { 'idempotency-key': key },
    });
    expect(different.status).to.equal(400);
    expect(different.body).to.deep.equal({
      error: { type: 'invalid_request', message: 'Idempotent key used for request with different parameters.' },
    });
  });

  it('tells auditors who did what: streams show prints the customer events with actor and request', async () => {
    const created = await api.post<Customer>('/customers', {
      json: { email: 'audit@example.com' },
      headers: { 'Idempotency-Key': 'audit-create-1' },
    });
    await api.post(`/customers/${created.body.id}`, { json: { description: 'audited' } });
    const shown = await runCli(['streams', 'show', created.body.id, '--json'], service.dataDir);
    expect(shown.code, shown.stderr).to.equal(0);
    const rows = shown.stdout
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { type: string; actor: string; requestId: string; data: Record<string, unknown> },
      );
    expect(rows.map((row) => row.type)).to.deep.equal(['CustomerCreated', 'CustomerUpdated']);
    expect(rows[0]!.requestId).to.equal(created.headers.get('x-request-id'));
    expect(rows[0]!.actor).to.match(/^key_/);
    expect(rows[1]!.data).to.deep.include({ description: 'audited' });

    // The same events as text: each with its hash, the idempotency key where the request had one.
    const text = await runCli(['streams', 'show', created.body.id], service.dataDir);
    expect(text.code, text.stderr).to.equal(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).to.have.length(6);
    expect(lines[0]).to.match(
      /^\S+Z {2}#0 CustomerCreated {2}actor=key_\w+ {2}request=req_\w+ {2}idempotency-key="audit-create-1"$/,
    );
    expect(lines[1]).to.equal(`    hash=${(JSON.parse(shown.stdout.split('\n')[0]!) as { hash: string }).hash}`);
    expect(lines[1]).to.match(/^ {4}hash=[0-9a-f]{64}$/);
    expect(lines[3]).to.match(/#1 CustomerUpdated {2}actor=key_\w+ {2}request=req_\w+$/);
  });

  it('serves health, readiness and the OpenAPI document without a key', async () => {
    expect((await api.get('/health', { key: null })).status).to.equal(200);
    expect((await api.get('/ready', { key: null })).status).to.equal(200);
    const openapi = await api.get<{ openapi: string; paths: Record<string, unknown> }>('/openapi.json', { key: null });
    expect(openapi.body.openapi).to.match(/^3\.1/);
    expect(openapi.body.paths).to.include.keys('/customers', '/customers/{customerId}', '/events', '/events/{eventId}');
  });
});
