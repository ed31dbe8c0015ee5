import { expect } from 'chai';
import { request } from 'node:http';
import { basic, call, startToyApi, type ToyApi } from './support/toy-api.ts';

interface ErrorAnswer {
  status: number;
  body: { error?: { type: string; message: string } };
}

/** A GET carrying a body (fetch refuses to send one). */
function getWithBody(api: ToyApi, path: string, body: string): Promise<ErrorAnswer> {
  return new Promise((resolveResponse, reject) => {
    const req = request(`${api.url}${path}`, {
      method: 'GET',
      headers: {
        authorization: basic('sk_test_a'),
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolveResponse({ status: res.statusCode ?? 0, body: JSON.parse(text) as ErrorAnswer['body'] }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('http kit: request bodies and query strings', () => {
  let api: ToyApi;
  before(async () => {
    api = await startToyApi({ maxBodyBytes: 4096 });
  });
  after(() => api.close());

  it('validates and coerces a JSON body and the same form body to the same parameters', async () => {
    const json = await call(api, 'POST', '/widgets', {
      json: {
        amount: 100,
        currency: 'usd',
        captured: true,
        metadata: { a: 'b' },
        shipping: { name: 'N', address: { line1: 'L', zip: '1' } },
        items: ['x', 'y'],
      },
    });
    const form = await call(api, 'POST', '/widgets', {
      form: 'amount=100&currency=usd&captured=true&metadata[a]=b&shipping[name]=N&shipping[address][line1]=L&shipping[address][zip]=1&items[]=x&items[]=y',
    });
    expect(json.status).to.equal(200);
    expect(form.status).to.equal(200);
    const { id: _jsonId, ...fromJson } = json.body;
    const { id: _formId, ...fromForm } = form.body;
    expect(fromForm).to.deep.equal(fromJson);
    expect(fromJson).to.include({ amount: 100, currency: 'USD', captured: true });
    expect(fromJson.metadata).to.deep.equal({ a: 'b' });
    expect(fromJson.items).to.deep.equal(['x', 'y']);
  });

  it('refuses __proto__ and other reserved names in JSON bodies, form bodies and query strings', async () => {
    const cases: [string, Parameters<typeof call>[3]][] = [
      ['metadata[__proto__]', { json: JSON.parse('{"amount":1,"currency":"USD","metadata":{"__proto__":"x"}}') }],
      ['metadata[constructor]', { json: { amount: 1, currency: 'USD', metadata: { constructor: 'x' } } }],
      ['metadata[__proto__]', { form: 'amount=1&currency=USD&metadata[__proto__]=x' }],
      ['metadata[__proto__]', { form: 'amount=1&currency=USD&metadata%5B__proto__%5D=x' }],
      ['metadata[toString]', { form: 'amount=1&currency=USD&metadata[toString]=x' }],
      ['shipping[prototype][name]', { form: 'amount=1&currency=USD&shipping[prototype][name]=x' }],
    ];
    const before = api.calls.get('POST /widgets') ?? 0;
    for (const [path, options] of cases) {
      const res = await call(api, 'POST', '/widgets', options);
      expect(res.status, path).to.equal(400);
      expect(res.body.error).to.deep.equal({
        type: 'invalid_request',
        message: `Invalid parameter: ${path} uses a reserved name`,
      });
    }
    expect(api.calls.get('POST /widgets') ?? 0).to.equal(before);
    const query = await call(api, 'GET', '/widgets?__proto__[kind]=small');
    expect(query.status).to.equal(400);
    expect(query.body.error.message).to.equal('Invalid parameter: __proto__[kind] uses a reserved name');
  });

  it('accepts indexed form arrays and the boolean spellings 1/0 and false', async () => {
    const res = await call(api, 'POST', '/widgets', { form: 'amount=5&currency=EUR&captured=0&items[0]=a&items[1]=b' });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ captured: false, amount: 5 });
    expect(res.body.items).to.deep.equal(['a', 'b']);
  });

  it('parses nested query parameters and applies list defaults', async () => {
    const res = await call(api, 'GET', '/widgets?created[gte]=1&created[lt]=1700000000&limit=5&kind=small');
    expect(res.status).to.equal(200);
    expect(res.body.query).to.deep.equal({ created: { gte: 1, lt: 1_700_000_000 }, limit: 5, kind: 'small' });
    const defaults = await call(api, 'GET', '/widgets');
    expect(defaults.body.query).to.deep.equal({ limit: 10 });
  });

  it('accepts a utf-8 charset parameter on either content type', async () => {
    const json = await call(api, 'POST', '/widgets', {
      body: '{"amount":1,"currency":"USD","description":"café"}',
      contentType: 'application/json; charset=UTF-8',
    });
    expect(json.status).to.equal(200);
    expect(json.body.description).to.equal('café');
    const form = await call(api, 'POST', '/widgets', {
      body: 'amount=1&currency=USD&description=caf%C3%A9+au',
      contentType: 'application/x-www-form-urlencoded;charset=utf-8',
    });
    expect(form.status).to.equal(200);
    expect(form.body.description).to.equal('café au');
  });

  it('treats an empty body without content type as no parameters', async () => {
    const res = await call(api, 'POST', '/pings');
    expect(res.status).to.equal(200);
    const empty = await call(api, 'POST', '/pings', { body: '', contentType: 'application/json' });
    expect(empty.status).to.equal(200);
  });

  const badBodies: [string, string | Buffer, string | undefined, number, RegExp][] = [
    ['malformed JSON', '{"amount": 1,', 'application/json', 400, /not valid JSON/],
    ['a JSON array', '[1,2]', 'application/json', 400, /must be an object/],
    ['JSON null', 'null', 'application/json', 400, /must be an object/],
    ['a JSON string', '"x"', 'application/json', 400, /must be an object/],
    [
      'JSON nested 40 levels deep',
      `{"a":${'['.repeat(40)}${']'.repeat(40)}}`,
      'application/json',
      400,
      /nested deeper than 32/,
    ],
    [
      'invalid utf-8',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      'application/json',
      400,
      /utf-8/,
    ],
    [
      'invalid percent-encoding',
      'amount=%E0%A4%A&currency=USD',
      'application/x-www-form-urlencoded',
      400,
      /percent-encoding/,
    ],
    [
      'form nested 7 levels deep',
      'a[b][c][d][e][f][g]=1',
      'application/x-www-form-urlencoded',
      400,
      /nested too deeply/,
    ],
    ['too many form parameters', 'a=1&'.repeat(1001), 'application/x-www-form-urlencoded', 400, /too many parameters/],
    ['text/plain', 'amount=1', 'text/plain', 415, /Unsupported content type/],
    ['multipart', '--x\r\n', 'multipart/form-data; boundary=x', 415, /Unsupported content type/],
    ['a body without content type', 'amount=1', undefined, 415, /Unsupported content type/],
    ['a latin-1 charset', 'amount=1', 'application/x-www-form-urlencoded; charset=iso-8859-1', 415, /charset/],
    [
      'an oversized body',
      JSON.stringify({ description: 'x'.repeat(5000) }),
      'application/json',
      413,
      /maximum size of 4096 bytes/,
    ],
  ];
  for (const [what, body, contentType, status, message] of badBodies) {
    it(`answers ${status} invalid_request to ${what}`, async () => {
      const res = await call(api, 'POST', '/widgets', { body, contentType });
      expect(res.status).to.equal(status);
      expect(res.body.error.type).to.equal('invalid_request');
      expect(res.body.error.message).to.match(message);
    });
  }

  it('answers 400 to malformed percent-encoding in the query string and the path', async () => {
    const query = await call(api, 'GET', '/widgets?limit=%ZZ');
    expect(query.status).to.equal(400);
    expect(query.body.error.type).to.equal('invalid_request');
    const path = await call(api, 'GET', '/widgets/wid_%E0%A4%A');
    expect(path.status).to.equal(400);
    expect(path.body.error.type).to.equal('invalid_request');
  });

  it('answers 415 to an unsupported content encoding', async () => {
    const res = await call(api, 'POST', '/widgets', {
      body: '{}',
      contentType: 'application/json',
      headers: { 'content-encoding': 'compress' },
    });
    expect(res.status).to.equal(415);
    expect(res.body.error.type).to.equal('invalid_request');
  });

  it('never answers 5xx to odd bodies', async () => {
    const oddBodies = [
      '{"__proto__": {"admin": true}}',
      '{"constructor": {"prototype": {}}}',
      '{"metadata": {"__proto__": "x"}}',
      '__proto__[admin]=1&amount=1&currency=USD',
      'amount[]=1&currency[x]=y',
      '{"amount": 1e400, "currency": "USD"}',
      '{"amount": "99999999999999999999999", "currency": "USD"}',
      '{"amount": -0, "currency": "USD"}',
      '\u0000\u0001',
      '{"items": [[[["x"]]]]}',
      '=&=&&&==',
      'a=%00&b=%2525',
    ];
    for (const body of oddBodies) {
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded']) {
        const res = await call(api, 'POST', '/widgets', { body, contentType });
        expect(res.status, `${contentType} ${body}`).to.be.within(200, 499);
        if (res.status >= 400) expect(res.body.error.type).to.equal('invalid_request');
      }
    }
  });

  it('still reads and checks a body sent with a GET; a GET without one has no parameters there', async () => {
    const unknown = await getWithBody(api, '/widgets', '{"surprise":1}');
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error?.type).to.equal('invalid_request');
    expect(unknown.body.error?.message).to.contain('surprise');
    const malformed = await getWithBody(api, '/widgets', '{not json');
    expect(malformed.status).to.equal(400);
    expect(malformed.body.error?.message).to.equal('Invalid request: the body is not valid JSON');
    expect((await getWithBody(api, '/widgets', '')).status).to.equal(200);
    expect((await call(api, 'GET', '/widgets')).status).to.equal(200);
  });
});
