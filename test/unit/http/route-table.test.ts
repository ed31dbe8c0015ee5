import { expect } from 'chai';
import { call, startToyApi, type ToyApi } from './support/toy-api.ts';

/** How the API's route table finds routes, seen from a client of the toy API (real HTTP). */
describe('http kit: finding the route of a request', () => {
  let api: ToyApi;
  before(async () => {
    api = await startToyApi();
  });
  after(() => api.close());

  it('finds a route by method and path and hands its parameters to the handler, percent-decoded', async () => {
    const found = await call(api, 'GET', '/widgets/wid_%61bc');
    expect(found.status).to.equal(200);
    expect(found.body.id).to.equal('wid_abc');
    const deleted = await call(api, 'DELETE', '/widgets/wid_abc');
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ id: 'wid_abc' });
  });

  it('matches as express does: any case, an optional trailing slash; HEAD answers like GET without a body', async () => {
    expect((await call(api, 'GET', '/WIDGETS/wid_abc')).body.id).to.equal('wid_abc');
    expect((await call(api, 'GET', '/widgets/wid_abc/')).body.id).to.equal('wid_abc');
    const head = await fetch(`${api.url}/widgets/wid_abc`, {
      method: 'HEAD',
      headers: { authorization: `Basic ${Buffer.from('sk_test_a:').toString('base64')}` },
    });
    expect(head.status).to.equal(200);
    expect(await head.text()).to.equal('');
  });

  it('answers 404 in the envelope for an unknown path, an unknown method on a known path, and OPTIONS', async () => {
    for (const [method, path] of [
      ['GET', '/gadgets/wid_abc'],
      ['GET', '/widgets/wid_abc/parts'],
      ['PUT', '/widgets/wid_abc'],
      ['OPTIONS', '/widgets'],
    ] as const) {
      const answer = await call(api, method, path);
      expect(answer.status, `${method} ${path}`).to.equal(404);
      expect(answer.body.error.type).to.equal('invalid_request');
      expect(answer.body.error.message).to.match(/Unrecognized request URL/);
    }
  });

  it('asks for a key before it says whether a path exists', async () => {
    const unknown = await call(api, 'GET', '/gadgets/wid_abc', { key: null });
    expect(unknown.status).to.equal(401);
  });

  it('answers 400 to a path parameter that is not valid percent-encoding, without running the route', async () => {
    const before = api.calls.get('GET /widgets/:widgetId') ?? 0;
    const answer = await call(api, 'GET', '/widgets/wid_%E0%A4%A');
    expect(answer.status).to.equal(400);
    expect(answer.body.error).to.deep.equal({
      type: 'invalid_request',
      message: 'Invalid request: the request is malformed',
    });
    expect(api.calls.get('GET /widgets/:widgetId') ?? 0).to.equal(before);
    const requestId = answer.headers.get('x-request-id');
    expect(api.logs.some((line) => line.message === 'Malformed request' && line.requestId === requestId)).to.equal(
      true,
    );
  });
});
