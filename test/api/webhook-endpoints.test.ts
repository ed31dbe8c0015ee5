import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import type { ApiError, Page } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';
import type { WebhookEndpoint } from '../support/webhooks.ts';

describe('webhook endpoints over HTTP', function () {
  this.timeout(60_000);
  const { api, service } = useService();
  let live: ApiClient;

  before(async () => {
    live = new ApiClient(service.baseUrl, service.keys!.liveSecretKey);
  });

  it('creates an endpoint and shows its signing secret once', async () => {
    const created = await api.post<WebhookEndpoint>('/webhook-endpoints', {
      json: { url: 'http://127.0.0.1:9/hooks', events: ['CHARGE_SUCCEEDED', 'CHARGE_REFUNDED'], description: 'Orders' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const endpoint = created.body;
    expect(endpoint.id).to.match(/^we_[A-Za-z0-9]{24}$/);
    expect(endpoint).to.include({
      objectType: 'webhookEndpoint',
      url: 'http://127.0.0.1:9/hooks',
      description: 'Orders',
      enabled: true,
    });
    expect(endpoint.events).to.deep.equal(['CHARGE_SUCCEEDED', 'CHARGE_REFUNDED']);
    expect(endpoint.secret).to.match(/^whsec_[A-Za-z0-9]{32}$/);

    const read = await api.get<WebhookEndpoint>(`/webhook-endpoints/${endpoint.id}`);
    expect(read.status).to.equal(200);
    const { secret: _secret, ...withoutSecret } = endpoint;
    expect(read.body).to.deep.equal(withoutSecret);
    const listed = await api.get<Page<WebhookEndpoint>>('/webhook-endpoints');
    expect(listed.body.list.find((item) => item.id === endpoint.id)).to.deep.equal(withoutSecret);
    expect(JSON.stringify(listed.body)).to.not.include('whsec_');
  });

  it('accepts form bodies, defaults to every event type, and takes enabled', async () => {
    const created = await api.post<WebhookEndpoint>('/webhook-endpoints', {
      form: { url: 'https://hooks.example.com/all', enabled: 'false' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({ enabled: false, description: null });
    expect(created.body.events).to.deep.equal([]);
    const typed = await api.post<WebhookEndpoint>('/webhook-endpoints', {
      form: { url: 'https://hooks.example.com/t', 'events[0]': 'CUSTOMER_CREATED', 'events[1]': 'CUSTOMER_CREATED' },
    });
    expect(typed.body.events, 'each type once').to.deep.equal(['CUSTOMER_CREATED']);
  });

  it('updates url, events, description and enabled', async () => {
    const endpoint = (
      await api.post<WebhookEndpoint>('/webhook-endpoints', {
        json: { url: 'http://localhost:9/a', description: 'Old' },
      })
    ).body;
    const updated = await api.post<WebhookEndpoint>(`/webhook-endpoints/${endpoint.id}`, {
      json: { url: 'http://localhost:9/b', events: ['CUSTOMER_DELETED'], description: null, enabled: false },
    });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect(updated.body).to.include({
      id: endpoint.id,
      url: 'http://localhost:9/b',
      description: null,
      enabled: false,
    });
    expect(updated.body.events).to.deep.equal(['CUSTOMER_DELETED']);
    expect(updated.body).to.not.have.property('secret');
    expect((await api.get(`/webhook-endpoints/${endpoint.id}`)).body).to.deep.equal(updated.body);
    const allAgain = await api.post<WebhookEndpoint>(`/webhook-endpoints/${endpoint.id}`, { json: { events: [] } });
    expect(allAgain.body.events).to.deep.equal([]);
  });

  it('deletes softly: readable with deleted: true, listed only with deleted=true, no longer updatable', async () => {
    const endpoint = (
      await api.post<WebhookEndpoint>('/webhook-endpoints', { json: { url: 'http://localhost:9/gone' } })
    ).body;
    const deleted = await api.delete(`/webhook-endpoints/${endpoint.id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ id: endpoint.id });
    expect((await api.get(`/webhook-endpoints/${endpoint.id}`)).body).to.include({ id: endpoint.id, deleted: true });
    expect(
      (await api.get<Page<WebhookEndpoint>>('/webhook-endpoints', { query: { limit: '100' } })).body.list.map(
        (item) => item.id,
      ),
    ).to.not.include(endpoint.id);
    expect(
      (await api.get<Page<WebhookEndpoint>>('/webhook-endpoints', { query: { deleted: 'true' } })).body.list.map(
        (item) => item.id,
      ),
    ).to.include(endpoint.id);
    const update = await api.post<ApiError>(`/webhook-endpoints/${endpoint.id}`, { json: { enabled: false } });
    expect(update.status).to.equal(400);
    expect(update.body.error.message).to.match(/has been deleted/);
    expect((await api.delete(`/webhook-endpoints/${endpoint.id}`)).status).to.equal(400);
    expect(
      (await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).status,
      'its deliveries stay readable',
    ).to.equal(200);
  });

  it('refuses invalid parameters with 400', async () => {
    const cases: [body: Record<string, unknown>, message: RegExp][] = [
      [{}, /^url: Must not be empty\.$/],
      [{ url: 'ftp://example.com/x' }, /^Invalid parameter: url must be an absolute http or https URL$/],
      [{ url: 'not a url' }, /^Invalid parameter: url must be an absolute http or https URL$/],
      [
        { url: 'https://user:secret@example.com/' },
        /^Invalid parameter: url must not contain a user name or password$/,
      ],
      [
        { url: `https://example.com/${'a'.repeat(2048)}` },
        /^Invalid parameter: url must be at most 2048 characters long$/,
      ],
      [{ url: 'https://example.com/', events: ['NOT_A_TYPE'] }, /^Invalid parameter: events\[0\] must be one of: /],
      [
        { url: 'https://example.com/', events: 'CHARGE_SUCCEEDED' },
        /^Invalid parameter: events must be a list of event types$/,
      ],
      [{ url: 'https://example.com/', secret: 'whsec_mine' }, /^Unknown parameter: secret$/],
    ];
    for (const [json, message] of cases) {
      const response = await api.post<ApiError>('/webhook-endpoints', { json });
      expect(response.status, JSON.stringify(json)).to.equal(400);
      expect(response.body.error.type).to.equal('invalid_request');
      expect(response.body.error.message, JSON.stringify(json)).to.match(message);
    }
  });

  it("answers 404 for an unknown endpoint, or another mode's", async () => {
    const endpoint = (await api.post<WebhookEndpoint>('/webhook-endpoints', { json: { url: 'http://localhost:9/t' } }))
      .body;
    for (const [client, path] of [
      [api, '/webhook-endpoints/we_unknown'],
      [api, '/webhook-endpoints/we_unknown/deliveries'],
      [live, `/webhook-endpoints/${endpoint.id}`],
      [live, `/webhook-endpoints/${endpoint.id}/deliveries`],
    ] as const) {
      expect((await client.get(path)).status, path).to.equal(404);
    }
    expect((await live.post(`/webhook-endpoints/${endpoint.id}`, { json: { enabled: false } })).status).to.equal(404);
    expect((await live.delete(`/webhook-endpoints/${endpoint.id}`)).status).to.equal(404);
  });

  describe('live mode', () => {
    const refused: [url: string, message: RegExp][] = [
      ['https://127.0.0.1/hooks', /loopback/],
      ['https://localhost:8443/hooks', /loopback/],
      ['https://[::1]/hooks', /loopback/],
      ['https://[::ffff:127.0.0.1]/hooks', /loopback/],
      ['https://10.0.0.8/hooks', /private/],
      ['https://172.16.5.4/hooks', /private/],
      ['https://192.168.1.10/hooks', /private/],
      ['https://[fd00::5]/hooks', /private/],
      ['https://169.254.169.254/latest/meta-data', /link-local/],
      ['https://[fe80::1]/hooks', /link-local/],
      ['https://0.0.0.0/hooks', /unspecified/],
      ['http://93.184.215.14/hooks', /must use https in live mode/],
    ];
    for (const [url, message] of refused) {
      it(`refuses ${url} with 400`, async () => {
        const response = await live.post<ApiError>('/webhook-endpoints', { json: { url } });
        expect(response.status).to.equal(400);
        expect(response.body.error.type).to.equal('invalid_request');
        expect(response.body.error.message)
          .to.match(/^Invalid parameter: url /)
          .and.to.match(message);
      });
    }

    it('accepts an https URL with a public address, and refuses changing it to a private one', async () => {
      const created = await live.post<WebhookEndpoint>('/webhook-endpoints', {
        json: { url: 'https://93.184.215.14/hooks' },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const update = await live.post<ApiError>(`/webhook-endpoints/${created.body.id}`, {
        json: { url: 'https://192.168.0.1/hooks' },
      });
      expect(update.status).to.equal(400);
      expect(update.body.error.message).to.match(/private/);
      expect((await live.get<WebhookEndpoint>(`/webhook-endpoints/${created.body.id}`)).body.url).to.equal(
        'https://93.184.215.14/hooks',
      );
      expect(
        (await live.get<Page<WebhookEndpoint>>('/webhook-endpoints')).body.list.map((item) => item.id),
      ).to.deep.equal([created.body.id]);
    });

    it('lets test mode target loopback addresses', async () => {
      expect((await api.post('/webhook-endpoints', { json: { url: 'http://127.0.0.1:3000/hooks' } })).status).to.equal(
        200,
      );
      expect((await api.post('/webhook-endpoints', { json: { url: 'http://[::1]:3000/hooks' } })).status).to.equal(200);
    });
  });
});
