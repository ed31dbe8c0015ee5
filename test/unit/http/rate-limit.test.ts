import { expect } from 'chai';
import { Redis } from 'ioredis';
import { createRateLimiter } from '../../../packages/http/rate-limit.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { call, startToyApi, type ToyApi } from './support/toy-api.ts';

describe('http kit: rate limit', () => {
  let api: ToyApi;
  beforeEach(async () => {
    api = await startToyApi({ rateLimit: { pointsPerSecond: 3, burst: 3 } });
  });
  afterEach(() => api.close());

  it('answers 429 rate_limit_error with Retry-After once a key exceeds its rate', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(api, 'GET', '/widgets')).status);
    expect(statuses).to.deep.equal([200, 200, 200]);
    const limited = await call(api, 'GET', '/widgets');
    expect(limited.status).to.equal(429);
    expect(limited.body.error.type).to.equal('rate_limit_error');
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 1);
    expect(limited.body.error.message).to.match(/retry after 1 second/);
  });

  it('counts each key on its own', async () => {
    for (let i = 0; i < 4; i++) await call(api, 'GET', '/widgets');
    expect((await call(api, 'GET', '/widgets', { key: 'sk_test_b' })).status).to.equal(200);
  });

  it('counts requests without a recognised key by client IP', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(api, 'GET', '/widgets', { key: 'sk_test_guess' })).status);
    expect(statuses).to.deep.equal([401, 401, 401, 429]);
  });

  it('limits /health, /ready, /openapi.json and unauthenticated routes per client IP, on a budget of their own', async () => {
    const statuses = [];
    for (const path of ['/health', '/openapi.json', '/pictures/ok.txt', '/ready'])
      statuses.push((await fetch(`${api.url}${path}`)).status);
    expect(statuses).to.deep.equal([200, 200, 200, 429]);
    // Key guesses from the same address have their own budget.
    expect((await call(api, 'GET', '/widgets', { key: 'sk_test_guess' })).status).to.equal(401);
    expect((await call(api, 'GET', '/widgets')).status).to.equal(200);
  });
});

describe('http kit: createRateLimiter', () => {
  it('allows a burst above the sustained rate, then refuses', async () => {
    const limiter = createRateLimiter({ pointsPerSecond: 2, burst: 5 });
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push((await limiter.consume('key:k')).allowed);
    expect(decisions).to.deep.equal([true, true, true, true, true, false]);
  });

  describe('shared through Redis', () => {
    let server: RedisServer | null;
    let clients: Redis[] = [];
    before(async function () {
      server = await startRedisServer();
      if (!server) this.skip();
    });
    after(async () => {
      clients.forEach((client) => client.disconnect());
      clients = [];
      await server?.stop();
    });

    it('counts one key across limiter instances (API processes)', async () => {
      clients = [new Redis(server!.url), new Redis(server!.url)];
      const [first, second] = clients.map((redis) => createRateLimiter({ pointsPerSecond: 2, burst: 2, redis }));
      expect((await first!.consume('key:shared')).allowed).to.equal(true);
      expect((await second!.consume('key:shared')).allowed).to.equal(true);
      const refused = await first!.consume('key:shared');
      expect(refused.allowed).to.equal(false);
      expect(refused.retryAfterSeconds).to.equal(1);
    });
  });
});
