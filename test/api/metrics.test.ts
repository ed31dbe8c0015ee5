import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createEndpoint } from '../support/webhooks.ts';
import { eventually } from '../support/eventually.ts';
import { runCli } from '../support/service-process.ts';
import { useService } from '../support/use-service.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const OPERATOR_TOKEN = 'metrics-test-operator-token-0123456789';

/** The value of one series of a Prometheus text exposition (0 when absent). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics (Prometheus, behind OPERATOR_TOKEN)', function () {
  this.timeout(60_000);
  const { api, service, keys } = useService({
    env: {
      OPERATOR_TOKEN,
      RATE_LIMIT_PER_SECOND: '5',
      RATE_LIMIT_BURST: '5',
      SCHEDULER_INTERVAL_MS: '100',
    },
  });

  /** Scrapes refused by the rate limit: they count among its rejections too. */
  let scrapesRefused = 0;
  const scrape = async (): Promise<string> => {
    let response = await fetch(`${service.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    // Scrapes share the per-address limit (5 per second here): one that polls faster waits its turn.
    for (let waits = 0; response.status === 429 && waits < 10; waits++) {
      scrapesRefused++;
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? '1') * 1000));
      response = await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    }
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it('refuses a missing or wrong token and API keys with 401 and the bearer challenge', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Basic ${Buffer.from(`${keys.testSecretKey}:`).toString('base64')}`,
    ]) {
      const response = await fetch(`${service.baseUrl}/metrics`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status, authorization).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal('Bearer realm="operator"');
      const body = (await response.json()) as { error: { type: string } };
      expect(body.error.type).to.equal('invalid_request');
    }
  });

  it('names every documented series, and they move with traffic', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const before = await scrape();
      scrapesRefused = 0; // counted in `before` already
      for (const name of [
        'payments_http_requests_total',
        'payments_http_request_duration_seconds',
        'payments_rate_limit_rejections_total',
        'payments_events_appended_total',
        'payments_event_append_duration_seconds',
        'payments_event_log_head_position',
        'payments_event_store_group_commit_appends',
        'payments_projection_lag',
        'payments_job_queue_depth',
        'payments_job_queue_failed',
        'payments_webhook_deliveries',
      ])
        expect(before, name).to.include(`# TYPE ${name} `);
      expect(before).to.match(/^payments_projection_lag\{projection="customers"\} \d+$/m);
      expect(before).to.match(/^payments_job_queue_depth\{queue="webhook-deliveries"\} \d+$/m);

      await createEndpoint(api, receiver);
      const customer = await api.post<{ id: string }>('/customers', { json: { email: 'metrics@example.com' } });
      expect(customer.status).to.equal(200);
      expect((await api.get('/customers/cust_missing')).status).to.equal(404);
      // A burst beyond the live key's allowance of 5: some are refused with 429.
      const live = api.withKey(keys.liveSecretKey);
      const burst = await Promise.all(Array.from({ length: 12 }, () => live.get('/customers')));
      expect(burst.some((response) => response.status === 429)).to.equal(true);
      await receiver.waitFor((received) => received.length > 0, 20_000, 'a webhook');

      const after = await eventually(
        scrape,
        (text) => sample(text, 'payments_webhook_deliveries{status="delivered"}') > 0,
        20_000,
      );
      const moved = (series: string) => sample(after, series) - sample(before, series);
      expect(moved('payments_http_requests_total{method="POST",route="/customers",status="200"}')).to.equal(1);
      expect(moved('payments_http_requests_total{method="GET",route="/customers/:customerId",status="404"}')).to.equal(
        1,
      );
      expect(
        moved('payments_http_request_duration_seconds_count{method="POST",route="/customers",status="200"}'),
      ).to.equal(1);
      expect(moved('payments_rate_limit_rejections_total')).to.equal(
        burst.filter((response) => response.status === 429).length + scrapesRefused,
      );
      expect(moved('payments_events_appended_total{stream="customer"}')).to.equal(1);
      expect(moved('payments_event_append_duration_seconds_count{outcome="appended"}')).to.be.greaterThan(1);
      expect(moved('payments_event_log_head_position')).to.be.greaterThan(1);
      // Each commit carried at least one append, and together they carried every append.
      expect(moved('payments_event_store_group_commit_appends_count')).to.be.greaterThan(0);
      expect(moved('payments_event_store_group_commit_appends_sum')).to.be.at.least(
        moved('payments_event_append_duration_seconds_count{outcome="appended"}'),
      );
      expect(moved('payments_webhook_deliveries{status="delivered"}')).to.be.greaterThan(0);
    } finally {
      await receiver.close();
    }
  });
});

describe('GET /metrics of backups', function () {
  this.timeout(60_000);
  const { api, service } = useService({ env: { OPERATOR_TOKEN } });
  const scrape = async (): Promise<string> =>
    (await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).text();

  it('tells when the last backup was taken and how many events are in none, for alerts', async () => {
    const before = await scrape();
    expect(before).to.match(/^payments_last_backup_timestamp_seconds 0$/m);
    expect(sample(before, 'payments_events_not_backed_up')).to.equal(
      sample(before, 'payments_event_log_head_position'),
    );

    const target = join(mkdtempSync(join(tmpdir(), 'metrics-backups-')), 'backup');
    try {
      const backup = await runCli(['backup', target, '--json'], service.dataDir);
      expect(backup.code, backup.stderr).to.equal(0);
      const { createdAt, log } = JSON.parse(backup.stdout) as { createdAt: string; log: { headPosition: number } };
      await api.post('/customers', { json: { email: 'after-the-backup@example.com' } });
      const after = await scrape();
      expect(sample(after, 'payments_last_backup_timestamp_seconds')).to.equal(Date.parse(createdAt) / 1000);
      expect(sample(after, 'payments_events_not_backed_up')).to.equal(
        sample(after, 'payments_event_log_head_position') - log.headPosition,
      );
      expect(sample(after, 'payments_events_not_backed_up')).to.be.at.least(1);
    } finally {
      rmSync(dirname(target), { recursive: true, force: true });
    }
  });
});

describe('GET /metrics without OPERATOR_TOKEN', function () {
  this.timeout(60_000);
  const { service, keys } = useService();

  it('is off: 404 like any unknown URL, with or without credentials', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer anything-at-all' },
      { authorization: `Bearer ${keys.testSecretKey}` },
    ] as Record<string, string>[]) {
      const response = await fetch(`${service.baseUrl}/metrics`, { headers });
      expect(response.status).to.equal(404);
      expect(await response.json()).to.deep.equal({
        error: { type: 'invalid_request', message: 'Unrecognized request URL: check the method and the path' },
      });
    }
  });
});
