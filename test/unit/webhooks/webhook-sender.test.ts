import { expect } from 'chai';
import { sendWebhook, type WebhookRequest } from '../../../packages/webhooks/webhook-sender.ts';
import type { HostResolver } from '../../../packages/webhooks/webhook-destination.ts';
import { freePort, startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

describe('webhook sender (real HTTP on loopback)', function () {
  let receiver: WebhookReceiver;
  const request = (overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
    url: receiver.url,
    mode: 'test',
    body: '{"id":"event_1"}',
    headers: { 'content-type': 'application/json', 'shift4-signature': 't=1,v1=00' },
    timeoutMs: 2_000,
    ...overrides,
  });

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });

  afterEach(async () => {
    await receiver.close();
  });

  it('POSTs the body and headers and reports a 2xx', async () => {
    const answer = await sendWebhook(request());
    expect(answer).to.include({ statusCode: 200, error: null });
    expect(answer.durationMs).to.be.a('number').at.least(0);
    const [received] = receiver.received;
    expect(received).to.include({ method: 'POST', path: '/hooks', body: '{"id":"event_1"}' });
    expect(received!.headers).to.include({
      'content-type': 'application/json',
      'shift4-signature': 't=1,v1=00',
      'user-agent': 'card-payments-webhooks/1.0',
    });
  });

  it('reports other statuses as they are, and never follows a redirect', async () => {
    receiver.respondWith((_request, index) => (index === 0 ? 500 : 302));
    expect(await sendWebhook(request())).to.include({ statusCode: 500, error: null });
    expect(await sendWebhook(request())).to.include({ statusCode: 302, error: null });
    expect(receiver.received).to.have.length(2);
  });

  it('gives up after the timeout when no answer comes', async () => {
    receiver.respondWith(() => 'hang');
    const answer = await sendWebhook(request({ timeoutMs: 300 }));
    expect(answer).to.include({ statusCode: null, error: 'no answer within 300 ms' });
    expect(answer.durationMs).to.be.within(250, 1_500);
  });

  it('reports a refused connection', async () => {
    const closedPort = await freePort();
    expect(await sendWebhook(request({ url: `http://127.0.0.1:${closedPort}/hooks` }))).to.include({
      statusCode: null,
      error: 'connection refused',
    });
  });

  it('connects to the address it resolved and checked, keeping the URL host name', async () => {
    const resolver: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const answer = await sendWebhook(request({ url: `http://hooks.merchant.test:${receiver.port}/hooks` }), resolver);
    expect(answer).to.include({ statusCode: 200 });
    expect(receiver.received[0]!.headers.host).to.equal(`hooks.merchant.test:${receiver.port}`);
  });

  it('refuses at delivery time, in live mode, a name that now resolves to a loopback address', async () => {
    const rebound: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const answer = await sendWebhook(
      request({ mode: 'live', url: `https://hooks.merchant.test:${receiver.port}/hooks` }),
      rebound,
    );
    expect(answer.statusCode).to.equal(null);
    expect(answer.error).to.match(/loopback/);
    expect(receiver.received).to.have.length(0);
  });
});
