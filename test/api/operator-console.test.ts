import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { eventually } from '../support/eventually.ts';
import { redisServerAvailable, startRedisServer, type RedisServer } from '../support/redis-server.ts';
import type { Customer, Page as ListPage } from '../support/payments.ts';
import { launchBrowser, screenshotDir, type HeadlessBrowser } from '../support/browser.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { createEndpoint, type WebhookDelivery } from '../support/webhooks.ts';

const OPERATOR_TOKEN = 'console-test-operator-token-0123456789abcdef';

describe('operator console in a browser (headless Chromium)', function () {
  this.timeout(120_000);
  const { api, service } = useService({
    env: {
      OPERATOR_TOKEN,
      WEBHOOK_RETRY_DELAYS: '100',
      WEBHOOK_TIMEOUT_MS: '1000',
      SCHEDULER_INTERVAL_MS: '100',
    },
  });
  let receiver: WebhookReceiver;
  let browser: HeadlessBrowser;
  let page: Page;

  before(async () => {
    receiver = await startWebhookReceiver();
    browser = await launchBrowser({ viewport: { width: 1280, height: 1000 } });
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
    await receiver?.close();
  });

  it('signs in with the operator token only, into an HttpOnly SameSite=Strict session cookie', async () => {
    await page.goto(`${service.baseUrl}/console`);
    expect(new URL(page.url()).pathname).to.equal('/console/login');

    await page.getByLabel('Operator token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).to.equal('That is not the operator token.');

    await page.getByLabel('Operator token').fill(OPERATOR_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projections' }).waitFor();
    const [cookie] = await browser.context.cookies();
    expect(cookie).to.include({ name: 'operator_session', httpOnly: true, sameSite: 'Strict', path: '/console' });
    expect(cookie!.value).to.not.include(OPERATOR_TOKEN);
  });

  it('shows every projection with its lag, and rebuilds one with live progress', async () => {
    const customersRow = page.locator('tr[data-projection="customers"]');
    await customersRow.waitFor();
    expect(await page.locator('tr[data-projection]').count()).to.be.greaterThan(10);
    expect(await customersRow.locator('[data-field="lag"]').textContent()).to.match(/^\d+$/);

    await customersRow.getByRole('button', { name: 'Rebuild customers' }).click();
    await page.waitForURL(/\/console#projections$/);
    // The page itself follows the rebuild (no reload) until the projector reports it done.
    await page
      .locator('tr[data-projection="customers"] [data-field="rebuild"] span')
      .filter({ hasText: 'rebuilt' })
      .waitFor({ timeout: 30_000 });
    expect(
      await page.locator('tr[data-projection="customers"] [data-field="rebuild"] progress').getAttribute('value'),
    ).to.not.equal('0');
  });

  it('searches a stream by object id and shows its history and its state as of a time', async () => {
    const created = await api.post<Customer & { created: number }>('/customers', {
      json: { email: 'console@example.com' },
    });
    // The change comes a second later, so that the creation time shows the object before it.
    while (Math.floor(Date.now() / 1000) <= created.body.created) await sleep(50);
    await api.post(`/customers/${created.body.id}`, { json: { description: 'Changed later' } });

    await page.goto(`${service.baseUrl}/console`);
    await page.getByLabel('Object id').fill(created.body.id);
    await page.getByLabel('As of (Unix time, optional)').fill(String(created.body.created));
    await page.getByRole('button', { name: 'Show stream' }).click();

    await page.getByRole('heading', { name: 'History (2 events)' }).waitFor();
    const types = await page.locator('table tbody tr td:nth-child(3)').allTextContents();
    expect(types).to.deep.equal(['CustomerCreated', 'CustomerUpdated']);
    const asOf = JSON.parse((await page.locator('#as-of-object').textContent()) ?? '{}') as Record<string, unknown>;
    expect(asOf).to.include({ id: created.body.id, email: 'console@example.com', description: null });
  });

  it('lists a failed webhook delivery and resends it: the endpoint gets it and it shows delivered', async () => {
    receiver.respondWith(() => 500);
    const endpoint = await createEndpoint(api, receiver, { events: ['CUSTOMER_CREATED'] });
    await api.post('/customers', { json: { email: 'undelivered@example.com' } });
    const deliveries = async () =>
      (await api.get<ListPage<WebhookDelivery>>(`/webhook-endpoints/${endpoint.id}/deliveries`)).body.list;
    const [failed] = await eventually(deliveries, (list) => list[0]?.status === 'failed', 20_000);

    await page.goto(`${service.baseUrl}/console`);
    const row = page.locator(`tr[data-delivery="${failed!.id}"]`);
    await row.waitFor();
    expect(await row.textContent())
      .to.include('CUSTOMER_CREATED')
      .and.to.include('HTTP 500');
    // docs/images/operator-console.png with UPDATE_SCREENSHOTS=1; a temporary file otherwise.
    await page.screenshot({ path: join(screenshotDir(), 'operator-console.png'), fullPage: true });

    receiver.respondWith(() => 200);
    const received = receiver.received.length;
    await row.getByRole('button', { name: `Resend ${failed!.id}` }).click();
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').textContent()).to.include(`Resending ${failed!.id}`);

    await receiver.waitFor((all) => all.length > received, 20_000, 'the resent webhook');
    const [delivered] = await eventually(deliveries, (list) => list[0]?.status === 'delivered', 20_000);
    expect(delivered!.attempts.map((attempt) => attempt.statusCode)).to.deep.equal([500, 500, 200]);
    await page.reload();
    expect(await page.locator(`tr[data-delivery="${failed!.id}"]`).count()).to.equal(0);
  });

  it("fits a phone's width: the page never scrolls sideways, a table scrolls in its own box and keeps its row's name in view", async () => {
    const phone = await browser.newPage();
    try {
      await phone.setViewportSize({ width: 390, height: 800 });
      await phone.goto(`${service.baseUrl}/console`);
      const rebuild = phone.getByRole('button', { name: 'Rebuild customers' });
      await rebuild.waitFor();
      const pageWidths = () =>
        phone.evaluate<{ scrollWidth: number; clientWidth: number }>(
          '({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth })',
        );
      const overview = await pageWidths();
      expect(overview.scrollWidth, 'the overview’s width').to.equal(overview.clientWidth);

      // The projections' table is wider than the phone: the operator scrolls it to the button.
      await rebuild.scrollIntoViewIfNeeded();
      const button = (await rebuild.boundingBox())!;
      expect(button.x + button.width).to.be.at.most(390);
      const name = (await phone.locator('tr[data-projection="customers"] th').boundingBox())!;
      expect(name.x, 'the projection’s name, still in view').to.be.within(0, 390 - name.width);
      expect(await phone.locator('tr[data-projection="customers"] th').textContent()).to.equal('customers');
      await phone.screenshot({ path: join(screenshotDir(), 'operator-console-phone.png') });

      // A stream's history: a long object id in the heading, hashes in a table wider than the phone.
      const customer = await api.post<{ id: string }>('/customers', { json: { email: 'on-a-phone@example.com' } });
      await phone.goto(`${service.baseUrl}/console/streams?objectId=${customer.body.id}`);
      await phone.getByRole('heading', { name: 'History (1 event)' }).waitFor();
      const stream = await pageWidths();
      expect(stream.scrollWidth, 'the stream page’s width').to.equal(stream.clientWidth);
      // Each hash wraps in a column wide enough to read it: a few lines, not a character a line.
      const hash = (await phone.locator('code.hash').boundingBox())!;
      expect(hash.height, 'the hash’s height').to.be.below(hash.width * 2);
    } finally {
      await phone.close();
    }
  });

  it("shows the log's tamper evidence: none yet, then the last checkpoint with the digest to keep elsewhere", async () => {
    await page.goto(`${service.baseUrl}/console`);
    const section = page.getByRole('region', { name: 'Tamper evidence' });
    expect(await section.textContent()).to.include('No checkpoint recorded yet');
    expect(await section.textContent()).to.include('records one every 1 hour');

    const recorded = await runCli(['audit', 'checkpoint'], service.dataDir);
    expect(recorded.code, recorded.stderr).to.equal(0);
    const [, id, events, digest] = /^Checkpoint (ckpt_\d+): (\d+) events, digest ([0-9a-f]{64})$/m.exec(
      recorded.stdout,
    )!;
    await api.post('/customers', { json: { email: 'after-the-checkpoint@example.com' } });
    await page.reload();
    expect(await section.locator('#checkpoint-digest').textContent()).to.equal(digest);
    const text = (await section.textContent())!;
    expect(text).to.include(`${id}, recorded`);
    // The customer, and the webhook deliveries of an endpoint an earlier test made, if already attempted.
    const since = Number(new RegExp(`\\(${events} events\\); (\\d+) appended since`).exec(text)?.[1]);
    expect(since, text).to.be.at.least(1);
  });

  it('shows the last backup: none yet, then the one `backup` took and how much of the log is in none since', async () => {
    await page.goto(`${service.baseUrl}/console`);
    const section = page.getByRole('region', { name: 'Backups' });
    expect(await section.textContent()).to.include('No backup taken with npm run cli -- backup <directory> yet');

    const target = join(mkdtempSync(join(tmpdir(), 'console-backups-')), 'backup');
    try {
      const backup = await runCli(['backup', target, '--json'], service.dataDir);
      expect(backup.code, backup.stderr).to.equal(0);
      const { createdAt, log } = JSON.parse(backup.stdout) as {
        createdAt: string;
        log: { headPosition: number; events: number };
      };
      await api.post('/customers', { json: { email: 'after-the-backup@example.com' } });
      await page.reload();
      const text = (await section.textContent())!;
      expect(text).to.include(`taken ${createdAt} into ${target}`);
      expect(text).to.include(`the log up to position ${log.headPosition} (${log.events} events)`);
      expect(await section.locator('#backup-log').textContent()).to.equal(
        'intact: its hash chains and checkpoints verified when it was taken',
      );
      expect(Number(await section.locator('#not-backed-up').textContent()), text).to.be.at.least(1);
    } finally {
      rmSync(dirname(target), { recursive: true, force: true });
    }
  });

  it('is closed to anyone without the token, and signing out ends the session', async () => {
    const anonymous = await fetch(`${service.baseUrl}/console/projections.json`);
    expect(anonymous.status).to.equal(401);
    const forged = await fetch(`${service.baseUrl}/console/projections.json`, {
      headers: { cookie: 'operator_session=forged' },
    });
    expect(forged.status).to.equal(401);
    const bearer = await fetch(`${service.baseUrl}/console/projections.json`, {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(bearer.status).to.equal(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/login$/);
    await page.goto(`${service.baseUrl}/console`);
    expect(new URL(page.url()).pathname).to.equal('/console/login');
  });
});

const describeWithRedis = redisServerAvailable() ? describe : describe.skip;

describeWithRedis('operator console, BullMQ profile', function () {
  this.timeout(60_000);
  const { start, service } = useService({ startedBy: 'test' });
  let redis: RedisServer | null = null;

  afterEach(async () => {
    await redis?.stop();
  });

  it('mounts bull-board over the service queues behind the same sign-in, fetching nothing from elsewhere', async () => {
    redis = await startRedisServer();
    await start({ env: { OPERATOR_TOKEN, REDIS_URL: redis!.url } });
    const bearer = { authorization: `Bearer ${OPERATOR_TOKEN}` };

    expect((await fetch(`${service.baseUrl}/console/queues/`)).status).to.equal(401);
    const board = await fetch(`${service.baseUrl}/console/queues/`, { headers: bearer });
    expect(board.status).to.equal(200);
    expect(await board.text()).to.include('static/js/main');
    const policy = board.headers.get('content-security-policy') ?? '';
    expect(policy).to.include("default-src 'self'").and.to.include("font-src 'self' data:");
    expect(policy).to.not.include('googleapis');

    const queues = await fetch(`${service.baseUrl}/console/queues/api/queues?activeQueue=webhook-deliveries`, {
      headers: bearer,
    });
    expect(queues.status).to.equal(200);
    const names = ((await queues.json()) as { queues: { name: string }[] }).queues.map((queue) => queue.name);
    expect(names).to.include.members([
      'webhook-deliveries',
      'subscriptions',
      'subscription-captures',
      'test-clocks',
      'network-outcomes',
      'unanswered-intents',
    ]);
    const overview = await fetch(`${service.baseUrl}/console`, { headers: bearer });
    expect(await overview.text()).to.include('Open the BullMQ board');
  });
});
