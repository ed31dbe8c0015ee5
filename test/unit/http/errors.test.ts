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
    const logged = api.logs.find((line) => line.level === 'error' && line.requestId === 'trace-500');
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
    ]) {
      const res = await call(api, method!, path!);
      expect(res.status, `${method} ${path}`).to.equal(404);
      expect(res.body.error.type).to.equal('invalid_request');
    }
  });

  it('sends X-Request-Id on every response, keeping a safe incoming one', async () => {
    const generated = await call(api, 'GET', '/widgets');
    expect(generated.headers.get('x-request-id')).to.match(/^req_[A-Za-z0-9]{24}$/);
    const unauthenticated = await call(api, 'GET', '/widgets', { key: null });
    expect(unauthenticated.headers.get('x-request-id')).to.match(/^req_/);
    const health = await call(api, 'GET', '/health', { key: null });
    expect(health.headers.get('x-request-id')).to.match(/^req_/);
    const kept = await call(api, 'GET', '/widgets', { headers: { 'x-request-id': 'client-123.abc' } });
    expect(kept.headers.get('x-request-id')).to.equal('client-123.abc');
    const replaced = await call(api, 'GET', '/widgets', { headers: { 'x-request-id': 'x'.repeat(65) } });
    expect(replaced.headers.get('x-request-id')).to.match(/^req_/);
    const unsafe = await call(api, 'GET', '/widgets', { headers: { 'x-request-id': 'a b<script>' } });
    expect(unsafe.headers.get('x-request-id')).to.match(/^req_/);
  });

  it('puts the request id, account and key on log lines written by handlers', async () => {
    await call(api, 'POST', '/widgets', {
      form: 'amount=1&currency=USD',
      headers: { 'x-request-id': 'trace-handler' },
    });
    const line = api.logs.find((entry) => entry.message === 'creating widget' && entry.requestId === 'trace-handler');
    expect(line).to.include({ requestId: 'trace-handler', accountId: 'acct_a', keyId: 'key_sa' });
  });

  it('writes one access log line per request, without query, body or credentials', async () => {
    await call(api, 'POST', '/widgets?secret=1', {
      json: { amount: 1, currency: 'USD', description: 'hush' },
      headers: { 'x-request-id': 'trace-access' },
    });
    const lines = api.logs.filter((entry) => entry.requestId === 'trace-access' && entry.message === 'request');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ method: 'POST', path: '/widgets', status: 400, keyId: 'key_sa', level: 'info' });
    expect(lines[0]!.durationMs).to.be.a('number');
    const text = JSON.stringify(api.logs.filter((entry) => entry.requestId === 'trace-access'));
    expect(text).not.to.contain('hush');
    expect(text).not.to.contain('secret=1');
    expect(text).not.to.contain('Basic');
  });
});
