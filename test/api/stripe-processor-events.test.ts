import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { addProcessor } from '../support/account-processors.ts';
import { findSecrets } from '../support/card-data-scan.ts';
import { eventually } from '../support/eventually.ts';
import { findLocalstripe, startLocalstripe, type Localstripe } from '../support/localstripe.ts';
import {
  cardDetails,
  createOtherAccount,
  type ApiError,
  type Charge,
  type Page,
  type PublicEvent,
} from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

const WEBHOOK_SECRET = 'whsec_processor_events_suite_0123456789';

interface Dispute {
  id: string;
  status: string;
  reason: string;
  amount: number;
}

/**
 * Refunds and disputes made at a live charge's Stripe processor reach this service through Stripe's
 * signed notifications. localstripe is the processor (its payment intents and refunds are real
 * there); it sends no refund or dispute events itself, so the test posts them as Stripe would,
 * signed with the endpoint's secret, next to forged, unsigned and replayed ones. A notification
 * localstripe sends on its own (signed by it) is accepted too.
 */
describe('processor events from a Stripe processor (localstripe)', function () {
  this.timeout(60_000);
  const { api, service } = useService();
  let localstripe: Localstripe;
  let cliOutput = '';

  before(async function () {
    const found = findLocalstripe();
    if ('missing' in found) {
      console.warn(
        `\n*** localstripe cannot run here (${found.missing}): the Stripe processor events tests are SKIPPED. ***\n`,
      );
      this.skip();
    }
    localstripe = await startLocalstripe(found);
  });
  after(async () => {
    await localstripe?.stop();
  });

  async function liveAccount(name: string) {
    const { keys } = await createOtherAccount(api, service.dataDir, name);
    const added = await addProcessor(service.dataDir, keys.id, {
      kind: 'stripe',
      url: localstripe.url,
      secretKey: localstripe.secretKey,
      webhookSecret: WEBHOOK_SECRET,
      json: true,
    });
    cliOutput += added.output;
    const listed = added.processors[0]!;
    expect(listed.webhookSecret).to.equal(`…${WEBHOOK_SECRET.slice(-4)}`);
    const live = api.withKey(keys.liveSecretKey);
    const paid = await live.post<Charge & ApiError>('/charges', {
      json: { amount: 2000, currency: 'EUR', card: cardDetails('4242424242424242') },
    });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
    const intents = await stripe<{ data: { id: string; metadata: Record<string, string> }[] }>(
      'GET',
      '/v1/payment_intents',
      { limit: '100' },
    );
    const intentId = intents.data.find((candidate) => candidate.metadata.reference === paid.body.id)!.id;
    return {
      live,
      chargeId: paid.body.id,
      intentId,
      address: `${service.baseUrl}/processor-events/${keys.id}/${listed.processorId}`,
    };
  }

  /** A request to localstripe as the merchant's own Stripe account would make it. */
  async function stripe<T>(method: 'GET' | 'POST', path: string, params: Record<string, string>): Promise<T> {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${localstripe.url}${path}${method === 'GET' ? `?${query}` : ''}`, {
      method,
      headers: {
        authorization: `Bearer ${localstripe.secretKey}`,
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(method === 'POST' ? { body: query } : {}),
    });
    expect(response.status, path).to.equal(200);
    const text = await response.text();
    return (text ? JSON.parse(text) : null) as T;
  }

  let eventNumber = 0;
  /** A Stripe event as Stripe sends it: the body, and its Stripe-Signature made with `secret` at `time`. */
  function notification(type: string, object: Record<string, unknown>, secret = WEBHOOK_SECRET, time = new Date()) {
    const body = JSON.stringify({
      id: `evt_suite${++eventNumber}`,
      object: 'event',
      type,
      created: Math.floor(time.getTime() / 1000),
      data: { object },
    });
    const t = Math.floor(time.getTime() / 1000);
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    return { body, signature: `t=${t},v1=${v1}` };
  }

  const send = (address: string, message: { body: string; signature?: string }) =>
    fetch(address, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(message.signature ? { 'stripe-signature': message.signature } : {}),
      },
      body: message.body,
    });

  const liveEvents = async (live: typeof api) =>
    (await live.get<Page<PublicEvent>>('/events', { query: { limit: '100' } })).body.list;

  it('records a refund made at Stripe once, and none for a refund made here', async () => {
    const { live, chargeId, intentId, address } = await liveAccount('Refunded at Stripe');
    const there = await stripe<Record<string, unknown>>('POST', '/v1/refunds', {
      payment_intent: intentId,
      amount: '300',
    });
    const refunded = notification('charge.refunded', {
      id: there.charge,
      object: 'charge',
      payment_intent: intentId,
    });
    for (let delivery = 0; delivery < 2; delivery++) expect((await send(address, refunded)).status).to.equal(200);
    // The notification is answered once what it recorded is readable.
    const charge = (await live.get<Charge>(`/charges/${chargeId}`)).body;
    expect(charge.refunds.map((refund) => [refund.amount, refund.status])).to.deep.equal([[300, 'successful']]);

    const here = await live.post<{ id: string }>('/refunds', { json: { chargeId, amount: 500 } });
    expect(here.status).to.equal(200);
    const refunds = await stripe<{ data: Record<string, unknown>[] }>('GET', '/v1/refunds', {
      payment_intent: intentId,
    });
    const ours = refunds.data.find((refund) => (refund.metadata as Record<string, string>).reference === here.body.id)!;
    expect((await send(address, notification('refund.created', ours))).status).to.equal(200);
    const after = (await live.get<Charge>(`/charges/${chargeId}`)).body;
    expect(after.refunds.map((refund) => refund.amount).sort()).to.deep.equal([300, 500]);
    expect((await liveEvents(live)).filter((event) => event.type === 'CHARGE_REFUNDED')).to.have.length(2);
  });

  it('records a dispute opened and lost at Stripe once each', async () => {
    const { live, chargeId, intentId, address } = await liveAccount('Disputed at Stripe');
    const dispute = {
      id: 'dp_suite_1',
      object: 'dispute',
      amount: 2000,
      currency: 'eur',
      reason: 'fraudulent',
      status: 'needs_response',
      payment_intent: intentId,
    };
    const opened = notification('charge.dispute.created', dispute);
    for (let delivery = 0; delivery < 2; delivery++) expect((await send(address, opened)).status).to.equal(200);
    const disputed = (await live.get<Charge & { dispute: Dispute }>(`/charges/${chargeId}`)).body;
    expect(disputed.dispute).to.include({ status: 'CHARGEBACK_NEW', reason: 'FRAUDULENT', amount: 2000 });

    const lost = notification('charge.dispute.closed', { ...dispute, status: 'lost' });
    for (let delivery = 0; delivery < 2; delivery++) expect((await send(address, lost)).status).to.equal(200);
    const closed = (await live.get<Charge & { dispute: Dispute }>(`/charges/${chargeId}`)).body;
    expect(closed.dispute).to.include({ id: disputed.dispute.id, status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY' });
    const types = (await liveEvents(live)).map((event) => event.type);
    expect(types.filter((type) => type === 'CHARGE_DISPUTE_CREATED')).to.have.length(1);
    expect(types.filter((type) => type === 'CHARGE_DISPUTE_LOST')).to.have.length(1);
    expect((await live.get<Page<Dispute>>('/disputes')).body.list).to.have.length(1);
  });

  it('answers evidence for a dispute opened at Stripe with a gateway_error, recording nothing, where Stripe cannot show the dispute (localstripe has no disputes)', async () => {
    const { live, chargeId, intentId, address } = await liveAccount('Evidence for Stripe');
    const dispute = {
      id: 'dp_suite_evidence',
      object: 'dispute',
      amount: 2000,
      currency: 'eur',
      reason: 'fraudulent',
      status: 'needs_response',
      payment_intent: intentId,
    };
    expect((await send(address, notification('charge.dispute.created', dispute))).status).to.equal(200);
    const disputed = (await live.get<Charge & { dispute: Dispute & { evidence: unknown } }>(`/charges/${chargeId}`))
      .body.dispute;
    const before = (await liveEvents(live)).length;
    const answered = await live.post<ApiError>(`/disputes/${disputed.id}`, {
      json: { evidence: { customerName: 'Jane Payer' } },
    });
    expect(answered.status, JSON.stringify(answered.body)).to.equal(502);
    expect(answered.body.error.type).to.equal('gateway_error');
    expect(answered.body.error.message).to.match(/did not take the evidence; nothing was recorded/);
    const after = (await live.get<Charge & { dispute: Dispute & { evidence: unknown } }>(`/charges/${chargeId}`)).body
      .dispute;
    expect(after).to.include({ status: 'CHARGEBACK_NEW', evidence: null });
    expect((await liveEvents(live)).length).to.equal(before);
  });

  it('refuses unsigned, wrongly signed, altered and replayed notifications, recording nothing', async () => {
    const { live, chargeId, intentId, address } = await liveAccount('Forged at Stripe');
    const before = await liveEvents(live);
    const dispute = {
      id: 'dp_forged',
      object: 'dispute',
      amount: 2000,
      currency: 'eur',
      reason: 'fraudulent',
      status: 'needs_response',
      payment_intent: intentId,
    };
    const genuine = notification('charge.dispute.created', dispute);
    const attempts = {
      unsigned: { body: genuine.body },
      'signed with another secret': notification('charge.dispute.created', dispute, 'whsec_someone_else_1234567890'),
      'altered after signing': {
        body: genuine.body.replace('"amount":2000', '"amount":1'),
        signature: genuine.signature,
      },
      'replayed ten minutes later': notification(
        'charge.dispute.created',
        dispute,
        WEBHOOK_SECRET,
        new Date(Date.now() - 600_000),
      ),
      'a signature header without v1': { body: genuine.body, signature: genuine.signature.split(',')[0]! },
    };
    for (const [what, message] of Object.entries(attempts)) {
      const refused = await send(address, message);
      expect(refused.status, what).to.equal(400);
      expect(((await refused.json()) as ApiError).error.type, what).to.equal('invalid_request');
    }
    expect(await liveEvents(live)).to.deep.equal(before);
    expect((await live.get<Charge>(`/charges/${chargeId}`)).body).to.include({ disputed: false });
  });

  it('accepts a notification localstripe signs and sends itself, which records nothing it does not follow', async () => {
    const { address } = await liveAccount('Notified by localstripe');
    await stripe('POST', '/_config/webhooks/processor-events', { url: address, secret: WEBHOOK_SECRET });
    const path = new URL(address).pathname;
    // Any Stripe object created now is notified by localstripe (a customer: customer.created).
    await stripe('POST', '/v1/customers', { email: 'notified@example.com' });
    await eventually(
      async () => service.output(),
      (output) => output.split('\n').some((line) => line.includes(path) && /"status":\s*200/.test(line)),
      15_000,
      () => `no accepted notification at ${path} in the service's log`,
    );
  });

  it('keeps the signing secret out of data files, logs and CLI output', () => {
    expect(findSecrets(service.dataDir, service.output() + cliOutput, [WEBHOOK_SECRET])).to.deep.equal([]);
  });
});
