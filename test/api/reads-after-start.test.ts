import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import { launchBrowser } from '../support/browser.ts';
import type { Customer } from '../support/payments.ts';
import { removeDataDir, startService, type ServiceProcess } from '../support/service-process.ts';

/**
 * An API process whose read models are behind the event log (just restarted, or a replica whose
 * projector is away) must never answer an object as it was before a write it acknowledged or
 * that was acknowledged before it started: it answers 503 until the read models hold the write.
 */
describe('reads while the read models are behind the log', function () {
  this.timeout(90_000);
  const started: ServiceProcess[] = [];
  after(async () => {
    for (const service of started.reverse()) await service.stop().catch(() => undefined);
    if (started[0]) removeDataDir(started[0].dataDir);
  });

  it('answers 503 with Retry-After, never the object without the write, until a projector catches up; a payer’s challenge page waits and shows itself then', async () => {
    const first = await startService();
    started.push(first);
    const key = first.keys!.testSecretKey;
    const customer = await new ApiClient(first.baseUrl, key).post<Customer>('/customers', {
      json: { email: 'behind@example.com' },
    });
    expect(customer.status).to.equal(200);
    // A payer's card whose 3-D Secure challenge is open, as Shift4.js leaves it before framing the challenge.
    const payer = new ApiClient(first.baseUrl, first.keys!.testPublicKey);
    const token = await payer.post<{ id: string }>('/tokens', {
      json: { number: '4000000000003220', expMonth: 12, expYear: 2040, cvc: '123' },
    });
    expect(token.status).to.equal(200);
    expect(
      (await payer.post(`/tokens/${token.body.id}/three-d-secure`, { json: { amount: 2500, currency: 'EUR' } })).status,
    ).to.equal(200);
    await first.stop();

    // An API process with no projector: writes reach the log, the read models stay where they are.
    const apiOnly = await startService({
      dataDir: first.dataDir,
      env: { SERVICE_ROLE: 'api', READ_YOUR_WRITES_TIMEOUT_MS: '300' },
    });
    started.push(apiOnly);
    const api = new ApiClient(apiOnly.baseUrl, key);
    const path = `/customers/${customer.body.id}`;
    // Its own answer may time out waiting for the projector (the read-your-writes bound): not the
    // subject here; what matters is that the write is in the log and the read models lack it.
    await api.post(path, { json: { metadata: { plan: 'gold' } } });
    await apiOnly.stop();

    // Started again, it finds the log ahead of its read models: no read until they catch up.
    const restarted = await startService({
      dataDir: first.dataDir,
      env: { SERVICE_ROLE: 'api', READ_YOUR_WRITES_TIMEOUT_MS: '300' },
    });
    started.push(restarted);
    const reader = new ApiClient(restarted.baseUrl, key);
    const behind = await reader.get(path);
    expect(behind.status).to.equal(503);
    expect((await fetch(`${restarted.baseUrl}/ready`)).status).to.equal(503);
    // A payer's 3-D Secure page (its key is known, the tokens may not be shown yet): its own page
    // to retry, not "nothing to authenticate".
    const challengeUrl = (tokenId: string) =>
      `${restarted.baseUrl}/three-d-secure/challenge?${new URLSearchParams({
        token: tokenId,
        key: first.keys!.testPublicKey,
        origin: 'https://shop.example',
      })}`;
    const challengePage = () => fetch(challengeUrl('tok_notShownYet'));
    const challengeBehind = await challengePage();
    expect(challengeBehind.status).to.equal(503);
    expect(challengeBehind.headers.get('retry-after')).to.equal('1');
    expect(challengeBehind.headers.get('content-type')).to.match(/^text\/html/);
    // In a browser: the payer is asked to wait, and the page tries again by itself.
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const shown = await page.goto(challengeUrl(token.body.id));
      expect(shown?.status()).to.equal(503);
      expect(await page.locator('h1').textContent()).to.equal('Just a moment');
      expect(await page.locator('main p').textContent()).to.equal(
        'This authentication is being prepared. This page tries again by itself in a moment.',
      );

      started.push(await startService({ dataDir: first.dataDir, env: { SERVICE_ROLE: 'projector' } }));
      // Once a projector has caught up, the same page shows the challenge, with nothing clicked.
      await page.getByRole('heading', { name: 'Confirm your payment' }).waitFor({ timeout: 20_000 });
      expect(await page.locator('main').textContent()).to.include('25.00');
    } finally {
      await browser.close();
    }
    let read = await reader.get<Customer>(path);
    for (let i = 0; i < 50 && read.status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      read = await reader.get<Customer>(path);
    }
    expect(read.status).to.equal(200);
    expect(read.body.metadata).to.deep.equal({ plan: 'gold' });
    expect((await fetch(`${restarted.baseUrl}/ready`)).status).to.equal(200);
    expect((await challengePage()).status, 'no such token, once the read models have caught up').to.equal(409);
  });

  it('answers a write whose object is not projected yet 503, and its retry with the same key the object once projected', async () => {
    const first = await startService();
    started.push(first);
    const key = first.keys!.testSecretKey;
    await first.stop();
    // An API process whose projector is away (killed, restarting): its writes reach the log only.
    const apiOnly = await startService({
      dataDir: first.dataDir,
      env: { SERVICE_ROLE: 'api', READ_YOUR_WRITES_TIMEOUT_MS: '300' },
    });
    started.push(apiOnly);
    const api = new ApiClient(apiOnly.baseUrl, key);
    // Its read models hold the log as it was at its start: reads are answered.
    expect((await api.get('/customers')).status).to.equal(200);
    const create = () =>
      api.post<Customer>('/customers', {
        json: { email: 'not-yet-projected@example.com' },
        headers: { 'Idempotency-Key': 'create-while-the-projector-is-away' },
      });

    // Recorded, not readable: a retryable answer, not "does not exist", and not kept for the key.
    for (let attempt = 0; attempt < 2; attempt++) {
      const unprojected = await create();
      expect(unprojected.status, JSON.stringify(unprojected.body)).to.equal(503);
      expect(unprojected.body).to.have.nested.property('error.type', 'gateway_error');
      expect(unprojected.headers.get('retry-after')).to.equal('1');
      expect(unprojected.body).to.have.nested.property('error.message').that.includes('was recorded');
    }

    started.push(await startService({ dataDir: first.dataDir, env: { SERVICE_ROLE: 'projector' } }));
    let retry = await create();
    for (let i = 0; i < 50 && retry.status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      retry = await create();
    }
    expect(retry.status, JSON.stringify(retry.body)).to.equal(200);
    expect(retry.body.email).to.equal('not-yet-projected@example.com');
    const listed = await api.get<{ list: Customer[] }>('/customers', {
      query: { email: 'not-yet-projected@example.com' },
    });
    expect(listed.body.list.map((customer) => customer.id)).to.deep.equal([retry.body.id]);
    const again = await create();
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(retry.body);
  });
});
