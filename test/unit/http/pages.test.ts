import { expect } from 'chai';
import { Router } from 'express';
import { call, startToyApi, type ToyApi } from './support/toy-api.ts';

describe('http kit: pages below their prefixes', () => {
  let api: ToyApi;
  const seen: string[] = [];
  before(async () => {
    const router = Router();
    router.use((req, _res, next) => {
      seen.push(req.path);
      next();
    });
    router.get('/docs/page', (_req, res) => {
      res.type('text/html').send('<p>page</p>');
    });
    api = await startToyApi({
      rateLimit: { pointsPerSecond: 4, burst: 4 },
      pages: [{ pathPrefix: ['/docs', '/help/'], handler: router }],
    });
  });
  after(() => api.close());

  it('serve their paths whole, without a key, and let unknown paths below them fall through to a 404', async () => {
    const page = await fetch(`${api.url}/docs/page`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.equal('<p>page</p>');
    const unknown = await call(api, 'GET', '/docs/missing', { key: 'sk_test_a' });
    expect(unknown.status).to.equal(404);
    expect(seen).to.deep.equal(['/docs/page', '/docs/missing']);
  });

  it('hand a request their router skips to the API, which answers it in its error envelope', async () => {
    const skipping = Router();
    // Skips the rest of the page's router: the request goes on as if the page were not there.
    skipping.use((_req, _res, next) => {
      next('route');
    });
    const other = await startToyApi({ pages: [{ pathPrefix: '/skipped', handler: skipping }] });
    try {
      const skipped = await call(other, 'GET', '/skipped/page', { key: 'sk_test_a' });
      expect(skipped.status).to.equal(404);
      expect(skipped.body).to.deep.equal({
        error: { type: 'invalid_request', message: 'Unrecognized request URL: check the method and the path' },
      });
      expect((await call(other, 'GET', '/skipped/page', { key: null })).status).to.equal(401);
    } finally {
      await other.close();
    }
  });

  it('never see the API’s requests, nor a path that only begins like a prefix', async () => {
    seen.length = 0;
    await call(api, 'GET', '/widgets');
    await call(api, 'GET', '/docsextra', { key: 'sk_test_a' });
    await call(api, 'GET', '/help', { key: null });
    expect(seen).to.deep.equal(['/help']);
  });

  it('are limited per client address', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => fetch(`${api.url}/docs/page`)));
    expect(answers.some((answer) => answer.status === 429)).to.equal(true);
  });
});
