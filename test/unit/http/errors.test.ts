import { expect } from 'chai';
import { INTERNAL_ERROR_MESSAGE } from '../../../packages/http/errors.ts';
import { call, startToyApi, type ToyApi } from './support/toy-api.ts';

describe('http kit: error envelope, request ids and logs', () => {
  let api: ToyApi;
  before(async () => {
    api = await startToyApi();
  });
  after(() => api.close());

  it('maps a NotFoundError to 404 invalid_request', async () => {
    const res = await call(api, 'GET', '/widgets/wid_missing');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({
      error: { type: 'invalid_request', message: "Widget 'wid_missing' does not exist" },
    });
  });

  it('maps a CardError to 402 card_error with its code and details', async () => {
    const res = await call(api, 'GET', '/widgets/wid_declined');
    expect(res.status).to.equal(402);
    expect(res.body).to.deep.equal({
      error: {
        type: 'card_error',
        code: 'insufficient_funds',
        message: 'Insufficient funds',
        chargeId: 'char_1',
        issuerDeclineCode: '51',
      },
    });
  });

  it('maps a CursorNotFoundError to 400 naming the cursor parameter', async () => {
    const res = await call(api, 'GET', '/widgets?startingAfterId=wid_gone');
    expect(res.status).to.equal(400);
    expect(res.body.error).to.deep.equal({
      type: 'invalid_request',
      message: 'Invalid parameter: startingAfterId does not name an existing object',
    });
  });

  it('answers an unexpected error with 500 gateway_error and a generic message, and logs the stack', async () => {
    const res = await call(api, 'GET', '/widgets/wid_boom', { headers: { 'x-request-id': 'trace-500' } });
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({ error: { type: 'gateway_error', message: INTERNAL_ERROR_MESSAGE } });
    const logged = api.logs.find((line) => line.level === 'error' && line.correlationId === 'trace-500');
    expect(logged, 'error log line').to.not.equal(undefined);
    const error = logged!.error as { message: string; stack: string };
    expect(error.message).to.contain('database exploded');
    expect(error.stack).to.contain('toy-api.ts');
  });

  it('answers an unknown route, or a known path with another method, with 404 invalid_request', async () => {
    for (const [method, path] of [
      ['GET', '/nothing-here'],
      ['PUT', '/widgets'],
      ['POST', '/widgets/wid_1/zap'],
      // No route answers OPTIONS: the API does not list a path's methods.
      ['OPTIONS', '/widgets'],
      ['GET', '/widgetsx'],
    ]) {
      const res = await call(api, method!, path!);
      expect(res.status, `${method} ${path}`).to.equal(404);
      expect(res.body.error.type).to.equal('invalid_request');
    }
  });

  it('matches paths without regard to case, as express does', async () => {
    expect((await call(api, 'GET', '/Widgets')).status).to.equal(200);
    expect((await call(api, 'GET', '/WIDGETS/')).status).to.equal(200);
  });

  it('sends a server-generated X-Request-Id on every response; a safe incoming one is only a correlation id', async () => {
    const generated = await call(api, 'GET', '/widgets');
    expect(generated.headers.get('x-request-id')).to.match(/^req_[A-Za-z0-9]{24}$/);
    const unauthenticated = await call(api, 'GET', '/widgets', { key: null });
    expect(unauthenticated.headers.get('x-request-id')).to.match(/^req_/);
    const health = await call(api, 'GET', '/health', { key: null });
    expect(health.headers.get('x-request-id')).to.match(/^req_/);
    const first = await call(api, 'GET', '/widgets', { headers: { 'x-request-id': 'client-123.abc' } });
    const second = await call(api, 'GET', '/widgets', { headers: { 'x-request-id': 'client-123.abc' } });
    expect(first.headers.get('x-request-id')).to.match(/^req_/);
    expect(second.headers.get('x-request-id')).to.match(/^req_/).and.not.equal(first.headers.get('x-request-id'));
    expect(first.headers.get('x-correlation-id')).to.equal('client-123.abc');
    for (const rejected of ['x'.repeat(65), 'a b<script>', 'r4000000000000077']) {
      const res = await call(api, 'GET', '/widgets', { headers: { 'x-request-id': rejected } });
      expect(res.headers.get('x-request-id'), rejected).to.match(/^req_/);
      expect(res.headers.get('x-correlation-id'), rejected).to.equal(null);
    }
  });

  it('answers a malformed percent-escape on an unauthenticated route with the JSON envelope and a redacted log', async () => {
    const res = await fetch(`${api.url}/pictures/%E0%A44242424242424242.txt`);
    expect(res.status).to.equal(400);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).to.match(/^req_/);
    expect(await res.json()).to.deep.equal({
      error: { type: 'invalid_request', message: 'Invalid request: the request is malformed' },
    });
    const lines = api.logs.filter((entry) => entry.requestId === requestId);
    expect(lines.map((line) => line.message)).to.include.members(['Malformed request', 'request']);
    expect(JSON.stringify(lines)).not.to.contain('4242424242424242');
    const missing = await fetch(`${api.url}/pictures/nope.txt`);
    expect(missing.status).to.equal(404);
    expect(((await missing.json()) as { error: { type: string } }).error.type).to.equal('invalid_request');
    const served = await fetch(`${api.url}/pictures/ok.txt`);
    expect(await served.text()).to.equal('picture');
  });

  it('puts the request id, account and key on log lines written by handlers', async () => {
    await call(api, 'POST', '/widgets', {
      form: 'amount=1&currency=USD',
      headers: { 'x-request-id': 'trace-handler' },
    });
    const line = api.logs.find(
      (entry) => entry.message === 'creating widget' && entry.correlationId === 'trace-handler',
    );
    expect(line).to.include({ correlationId: 'trace-handler', accountId: 'acct_a', keyId: 'key_sa' });
    expect(line!.requestId).to.match(/^req_/);
  });

  it('writes one access log line per request, without query, body or credentials', async () => {
    await call(api, 'POST', '/widgets?secret=1', {
      json: { amount: 1, currency: 'USD', description: 'hush' },
      headers: { 'x-request-id': 'trace-access' },
    });
    const lines = api.logs.filter((entry) => entry.correlationId === 'trace-access' && entry.message === 'request');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ method: 'POST', path: '/widgets', status: 400, keyId: 'key_sa', level: 'info' });
    expect(lines[0]!.durationMs).to.be.a('number');
    const text = JSON.stringify(api.logs.filter((entry) => entry.correlationId === 'trace-access'));
    expect(text).not.to.contain('hush');
    expect(text).not.to.contain('secret=1');
    expect(text).not.to.contain('Basic');
  });
});
