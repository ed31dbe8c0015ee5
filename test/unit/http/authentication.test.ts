import { expect } from 'chai';
import { call, startToyApi, type ToyApi } from './support/toy-api.ts';

describe('http kit: authentication', () => {
  let api: ToyApi;
  before(async () => {
    api = await startToyApi();
  });
  after(() => api.close());

  async function expect401(res: Awaited<ReturnType<typeof call>>, message: RegExp) {
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.equal('Basic realm="api"');
    expect(res.body.error.type).to.equal('invalid_request');
    expect(res.body.error.message).to.match(message);
  }

  it('refuses a request without a key', async () => {
    await expect401(await call(api, 'GET', '/widgets', { key: null }), /No API key provided/);
  });

  it('refuses an unknown key, and an empty one', async () => {
    await expect401(await call(api, 'GET', '/widgets', { key: 'sk_test_nope' }), /Invalid API key/);
    await expect401(await call(api, 'GET', '/widgets', { key: '' }), /No API key provided/);
  });

  it('accepts exactly the documented Authorization forms: no trailing text, odd base64 or other schemes', async () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const malformed = [
      'Basic !!!',
      'Digest sk_test_a',
      `Basic ${b64('sk_test_a:')} junk`,
      `Basic ${b64('sk_test_a:')},`,
      `Basic  ${b64('sk_test_a:')}`,
      `Basic ${b64('sk_test_a:').replace(/=+$/, '')}`,
      `Basic ${b64('sk_test_a:').slice(0, 4)} ${b64('sk_test_a:').slice(4)}`,
      `Basic ${b64('sk_test_a')}`,
      `Basic ${b64('sk test a:')}`,
      'Bearer sk_test_a junk',
      'Bearer sk_test_a;',
      'Bearer',
      'sk_test_a',
    ];
    for (const authorization of malformed) {
      await expect401(
        await call(api, 'GET', '/widgets', { key: null, headers: { authorization } }),
        /^Malformed Authorization header/,
      );
    }
    expect(api.calls.get('GET /widgets')).to.equal(undefined);
  });

  it('refuses a public key on a secret-key route', async () => {
    await expect401(await call(api, 'GET', '/widgets', { key: 'pk_test_a' }), /requires a secret key/);
    expect(api.calls.get('GET /widgets')).to.equal(undefined);
  });

  it('accepts a public key where the route allows it, and a secret key there too', async () => {
    const publicKey = await call(api, 'POST', '/pings', { key: 'pk_test_a' });
    expect(publicKey.status).to.equal(200);
    expect(publicKey.body.keyKind).to.equal('public');
    const secretKey = await call(api, 'POST', '/pings', { key: 'sk_test_a' });
    expect(secretKey.body.keyKind).to.equal('secret');
  });

  it('ignores the Basic password', async () => {
    const withPassword = await call(api, 'GET', '/widgets', {
      key: null,
      headers: { authorization: `Basic ${Buffer.from('sk_test_a:whatever').toString('base64')}` },
    });
    expect(withPassword.status).to.equal(200);
    const upperCaseScheme = await call(api, 'GET', '/widgets', {
      key: null,
      headers: { authorization: `BASIC ${Buffer.from('sk_test_a:').toString('base64')}` },
    });
    expect(upperCaseScheme.status).to.equal(200);
  });

  it('accepts the key as a Bearer token', async () => {
    const res = await call(api, 'GET', '/widgets', { key: null, headers: { authorization: 'Bearer sk_test_a' } });
    expect(res.status).to.equal(200);
    const lowerCase = await call(api, 'GET', '/widgets', { key: null, headers: { authorization: 'bearer sk_test_a' } });
    expect(lowerCase.status).to.equal(200);
  });

  it('does not hand the Authorization header to handlers', async () => {
    const res = await call(api, 'POST', '/pings', { headers: { 'user-agent': 'toy-client/1.0' } });
    expect(res.body).to.include({ userAgent: 'toy-client/1.0', hasAuthorization: false });
    expect(res.body.ip).to.be.a('string').and.not.equal('');
  });
});
