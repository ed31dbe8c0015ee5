import { expect } from 'chai';
import {
  DISPUTE_CARD,
  createCharge,
  disputedCharge,
  eventualEventTypes,
  eventually,
  readCharge,
  type Dispute,
  type DisputedCharge,
} from '../support/disputes.ts';
import { createOtherAccount, eventsOf, type ApiError, type Page, type PublicEvent } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

/** Short network delays: the outcomes arrive within a second; the scheduler scans every 100 ms. */
const FAST_NETWORK = {
  SCHEDULER_INTERVAL_MS: '100',
  NETWORK_DISPUTE_DELAY_MS: '300',
  NETWORK_FRAUD_WARNING_DELAY_MS: '300',
  NETWORK_DISPUTE_DECISION_DELAY_MS: '300',
};

describe('disputes over HTTP', function () {
  this.timeout(60_000);
  const { api, service } = useService({ env: FAST_NETWORK });

  const getDispute = async (id: string): Promise<Dispute> => {
    const response = await api.get<Dispute>(`/disputes/${id}`);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  const submitEvidence = async (id: string, evidence: Record<string, string>): Promise<Dispute> => {
    const response = await api.post<Dispute>(`/disputes/${id}`, { json: { evidence } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  /** Public event types of one charge, oldest first, once there are `count` (the events read model may lag a moment). */
  const eventTypes = (chargeId: string, count: number): Promise<string[]> => eventualEventTypes(api, chargeId, count);
  /** Decided, as the dispute and its embedded charge both show. */
  const decided = (id: string) =>
    eventually(
      () => getDispute(id),
      (dispute) => dispute.status !== 'CHARGEBACK_NEW' && dispute.charge.dispute?.status === dispute.status,
    );
  const expectBadRequest = (response: { status: number; body: unknown }, message: RegExp) => {
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect((response.body as ApiError).error.type).to.equal('invalid_request');
    expect((response.body as ApiError).error.message).to.match(message);
  };

  it('opens a dispute a moment after a charge on 4242000000000018: disputed, with its dispute, and two public events', async () => {
    const created = await createCharge(api, DISPUTE_CARD);
    expect(created).to.include({ disputed: false });
    expect(created).not.to.have.property('dispute');
    const ordinary = await createCharge(api, '4242424242424242');

    const charge = await eventually(
      () => readCharge(api, created.id),
      (read) => read.disputed,
    );
    await eventualEventTypes(api, charge.id, 3);
    expect(charge.dispute).to.deep.include({
      objectType: 'dispute',
      amount: 2500,
      currency: 'EUR',
      status: 'CHARGEBACK_NEW',
      reason: 'FRAUDULENT',
      acceptedAsLost: false,
      evidence: null,
      evidenceDetails: { hasEvidence: false, submissionCount: 0 },
    });
    expect(charge.dispute!.id).to.match(/^dp_[A-Za-z0-9]{24}$/);
    expect(charge.dispute!.created).to.be.at.least(created.created);
    expect(charge.dispute!.updated).to.equal(charge.dispute!.created);
    expect(charge.dispute, 'the charge embeds its dispute without the charge').not.to.have.property('charge');
    expect({ ...charge, disputed: false, dispute: undefined }).to.deep.equal(
      { ...created, dispute: undefined },
      'nothing else changed',
    );
    expect((await readCharge(api, ordinary.id)).disputed, 'an ordinary card is not disputed').to.equal(false);

    const dispute = (
      await eventually(
        () => api.get<Dispute>(`/disputes/${charge.dispute!.id}`),
        (response) => response.status === 200,
      )
    ).body;
    expect(dispute).to.deep.equal({ ...charge.dispute, charge }, 'GET /disputes/{id} renders the charge object');

    const events = await eventsOf<DisputedCharge>(api, charge.id);
    expect(events.map((event) => event.type)).to.deep.equal([
      'CHARGE_DISPUTE_FUNDS_WITHDRAWN',
      'CHARGE_DISPUTE_CREATED',
      'CHARGE_SUCCEEDED',
    ]);
    for (const event of events.slice(0, 2)) expect(event.data, event.type).to.deep.equal(charge);
    const single = await api.get<PublicEvent>(`/events/${events[0]!.id}`);
    expect(single.body).to.deep.equal(events[0]);
    const byType = await api.get<Page<PublicEvent>>('/events', { query: { type: 'CHARGE_DISPUTE_CREATED' } });
    expect(byType.body.list.map((event) => event.id)).to.include(events[1]!.id);
  });

  it('lists disputes newest first, with their charges, under the list conventions', async () => {
    const first = await disputedCharge(api);
    const second = await disputedCharge(api);
    const page = await api.get<Page<Dispute>>('/disputes', { query: { limit: '2' } });
    expect(page.status).to.equal(200);
    expect(page.body.list.map((dispute) => dispute.id)).to.deep.equal([second.dispute.id, first.dispute.id]);
    expect(page.body.list[0]!.charge.id).to.equal(second.id);
    expect(page.body.hasMore).to.equal(true);
    const next = await api.get<Page<Dispute>>('/disputes', {
      query: { limit: '100', startingAfterId: second.dispute.id },
    });
    expect(next.body.list[0]!.id).to.equal(first.dispute.id);
    const before = await api.get<Page<Dispute>>('/disputes', { query: { endingBeforeId: first.dispute.id } });
    expect(before.body.list.map((dispute) => dispute.id)).to.deep.equal([second.dispute.id]);
    const later = await api.get<Page<Dispute>>('/disputes', {
      query: { 'created[gt]': String(second.dispute.created) },
    });
    expect(later.body.list).to.deep.equal([]);
    expectBadRequest(await api.get('/disputes', { query: { limit: '0' } }), /limit/);
    expectBadRequest(await api.get('/disputes', { query: { chargeId: first.id } }), /Unknown parameter: chargeId/);
  });

  it('winning evidence: under review, then won, with CHARGE_DISPUTE_WON and CHARGE_DISPUTE_FUNDS_RESTORED', async () => {
    const charge = await disputedCharge(api);
    const evidence = {
      customerName: 'Jane Doe',
      customerEmail: 'jane@example.com',
      shippingTrackingNumber: 'TRK-1',
      uncategorizedText: 'Delivered: winning_evidence',
    };
    const submitted = await submitEvidence(charge.dispute.id, evidence);
    expect(submitted).to.deep.include({
      status: 'CHARGEBACK_NEW',
      evidence,
      evidenceDetails: { hasEvidence: true, submissionCount: 1 },
      acceptedAsLost: false,
    });
    expect(submitted.charge.dispute).to.deep.include({ evidence });

    // Under review: a second submission is refused.
    expectBadRequest(
      await api.post(`/disputes/${charge.dispute.id}`, { json: { evidence: { customerName: 'Again' } } }),
      /already been submitted/,
    );

    const won = await decided(charge.dispute.id);
    expect(won).to.deep.include({ status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY', acceptedAsLost: false, evidence });
    expect(won.updated).to.be.at.least(submitted.updated);
    expect(won.charge).to.deep.include({ disputed: true });
    expect(won.charge.dispute).to.deep.include({ status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY' });

    expect(await eventTypes(charge.id, 7)).to.deep.equal([
      'CHARGE_SUCCEEDED',
      'CHARGE_DISPUTE_CREATED',
      'CHARGE_DISPUTE_FUNDS_WITHDRAWN',
      'CHARGE_DISPUTE_UPDATED',
      'CHARGE_DISPUTE_UPDATED',
      'CHARGE_DISPUTE_WON',
      'CHARGE_DISPUTE_FUNDS_RESTORED',
    ]);
    const [restored] = await eventsOf<DisputedCharge>(api, charge.id);
    expect(restored!.data).to.deep.equal(won.charge);

    expectBadRequest(await api.post(`/disputes/${charge.dispute.id}/close`), /already been closed/);
  });

  it('losing evidence: lost on review, not accepted as lost, with CHARGE_DISPUTE_LOST', async () => {
    const charge = await disputedCharge(api);
    // Form-encoded, as the client libraries send it.
    const response = await api.post<Dispute>(`/disputes/${charge.dispute.id}`, {
      form: { 'evidence[productDescription]': 'Blue mug', 'evidence[refundPolicy]': 'No refunds after 30 days' },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.evidence).to.deep.equal({
      productDescription: 'Blue mug',
      refundPolicy: 'No refunds after 30 days',
    });

    const lost = await decided(charge.dispute.id);
    expect(lost).to.deep.include({ status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY', acceptedAsLost: false });
    expect((await eventTypes(charge.id, 6)).slice(3)).to.deep.equal([
      'CHARGE_DISPUTE_UPDATED',
      'CHARGE_DISPUTE_UPDATED',
      'CHARGE_DISPUTE_LOST',
    ]);
    expectBadRequest(
      await api.post(`/disputes/${charge.dispute.id}`, { json: { evidence: { customerName: 'Late' } } }),
      /already been closed/,
    );
  });

  it('close accepts a dispute as lost at once; a decision due later changes nothing', async () => {
    const charge = await disputedCharge(api);
    const closed = await api.post<Dispute>(`/disputes/${charge.dispute.id}/close`);
    expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
    expect(closed.body).to.deep.include({ status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY', acceptedAsLost: true });
    expect(closed.body.charge.dispute).to.deep.include({ acceptedAsLost: true });
    expect((await eventTypes(charge.id, 5)).slice(1)).to.deep.equal([
      'CHARGE_DISPUTE_CREATED',
      'CHARGE_DISPUTE_FUNDS_WITHDRAWN',
      'CHARGE_DISPUTE_UPDATED',
      'CHARGE_DISPUTE_LOST',
    ]);
    expectBadRequest(await api.post(`/disputes/${charge.dispute.id}/close`), /already been closed/);

    // Contested with winning evidence, then accepted as lost before the network decided.
    const contested = await disputedCharge(api);
    await submitEvidence(contested.dispute.id, { uncategorizedText: 'winning_evidence' });
    const accepted = await api.post<Dispute>(`/disputes/${contested.dispute.id}/close`);
    expect(accepted.body).to.deep.include({ status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY', acceptedAsLost: true });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await getDispute(contested.dispute.id)).to.deep.include({
      status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY',
      acceptedAsLost: true,
    });
    expect(await eventTypes(contested.id, 6)).not.to.include('CHARGE_DISPUTE_WON');
  });

  it('validates evidence: known fields only, at least one; no evidence changes nothing', async () => {
    const charge = await disputedCharge(api);
    expectBadRequest(
      await api.post(`/disputes/${charge.dispute.id}`, { json: { evidence: { favouriteColour: 'blue' } } }),
      /Unknown parameter: evidence\[favouriteColour\]/,
    );
    expectBadRequest(
      await api.post(`/disputes/${charge.dispute.id}`, { json: { evidence: {} } }),
      /evidence must have at least one field/,
    );
    expectBadRequest(
      await api.post(`/disputes/${charge.dispute.id}`, { json: { evidence: { customerName: 'x'.repeat(20_001) } } }),
      /evidence\[customerName\]/,
    );
    const unchanged = await api.post<Dispute>(`/disputes/${charge.dispute.id}`, { json: {} });
    expect(unchanged.status).to.equal(200);
    expect(unchanged.body).to.deep.equal(await getDispute(charge.dispute.id));
    expect(unchanged.body.evidence).to.equal(null);
  });

  it('the reason cards open chargebacks with each spec reason, funds withdrawn', async () => {
    const reasons = {
      '4242000000001008': 'UNRECOGNIZED',
      '4242000000001016': 'DUPLICATE',
      '4242000000001024': 'SUBSCRIPTION_CANCELED',
      '4242000000001032': 'PRODUCT_NOT_RECEIVED',
      '4242000000001040': 'PRODUCT_UNACCEPTABLE',
      '4242000000001057': 'CREDIT_NOT_PROCESSED',
      '4242000000001065': 'GENERAL',
    };
    const charges = await Promise.all(Object.keys(reasons).map((number) => createCharge(api, number)));
    for (const [index, reason] of Object.values(reasons).entries()) {
      const charge = await eventually(
        () => readCharge(api, charges[index]!.id),
        (read) => read.disputed,
      );
      expect(charge.dispute, reason).to.include({ status: 'CHARGEBACK_NEW', reason });
      expect(await eventTypes(charge.id, 3), reason).to.deep.equal([
        'CHARGE_SUCCEEDED',
        'CHARGE_DISPUTE_CREATED',
        'CHARGE_DISPUTE_FUNDS_WITHDRAWN',
      ]);
    }
  });

  it('a retrieval request on 4242000000001073: no funds withdrawn, answered with documents, refundable throughout', async () => {
    const created = await createCharge(api, '4242000000001073');
    const charge = await eventually(
      () => readCharge(api, created.id),
      (read) => read.disputed,
    );
    expect(charge.dispute).to.include({
      status: 'RETRIEVAL_REQUEST_NEW',
      reason: 'UNRECOGNIZED',
      acceptedAsLost: false,
    });
    expect(await eventTypes(charge.id, 2), 'a retrieval request moves no funds').to.deep.equal([
      'CHARGE_SUCCEEDED',
      'CHARGE_DISPUTE_CREATED',
    ]);

    const partial = await api.post('/refunds', { json: { chargeId: charge.id, amount: 500 } });
    expect(partial.status, 'refundable while the request is open').to.equal(200);

    const answered = await submitEvidence(charge.dispute!.id, { receipt: 'Order 1042, delivered 2 May' });
    expect(answered).to.include({ status: 'RETRIEVAL_REQUEST_REPRESENTED', acceptedAsLost: false });
    expect(answered.evidenceDetails).to.deep.equal({ hasEvidence: true, submissionCount: 1 });
    // No decision follows an answered retrieval request: it stays represented past the decision delay.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await getDispute(charge.dispute!.id)).status).to.equal('RETRIEVAL_REQUEST_REPRESENTED');
    await eventually(
      () => eventTypes(charge.id, 4),
      (types) => types.includes('CHARGE_DISPUTE_UPDATED'),
    );
    expect(await eventTypes(charge.id, 4)).not.to.include.members(['CHARGE_DISPUTE_WON', 'CHARGE_DISPUTE_LOST']);

    expectBadRequest(
      await api.post(`/disputes/${charge.dispute!.id}`, { json: { evidence: { receipt: 'again' } } }),
      /already been answered/,
    );
    expectBadRequest(await api.post(`/disputes/${charge.dispute!.id}/close`), /already been answered/);
    const rest = await api.post('/refunds', { json: { chargeId: charge.id } });
    expect(rest.status, 'refundable once answered').to.equal(200);
  });

  it('a retrieval request accepted as lost: lost, and its funds are withdrawn only then', async () => {
    const created = await createCharge(api, '4242000000001073');
    const charge = await eventually(
      () => readCharge(api, created.id),
      (read) => read.disputed,
    );
    const closed = await api.post<Dispute>(`/disputes/${charge.dispute!.id}/close`);
    expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
    expect(closed.body).to.include({ status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY', acceptedAsLost: true });
    expect(await eventTypes(charge.id, 5)).to.deep.equal([
      'CHARGE_SUCCEEDED',
      'CHARGE_DISPUTE_CREATED',
      'CHARGE_DISPUTE_UPDATED',
      'CHARGE_DISPUTE_LOST',
      'CHARGE_DISPUTE_FUNDS_WITHDRAWN',
    ]);
    const refund = await api.post('/refunds', { json: { chargeId: charge.id, amount: 100 } });
    expect(refund.status, 'the withdrawn amount cannot be refunded too').to.equal(400);
  });

  it("another account's dispute is a 404, and never listed", async () => {
    const charge = await disputedCharge(api);
    const other = await createOtherAccount(api, service.dataDir, 'Dispute Intruder');
    for (const response of [
      await other.api.get(`/disputes/${charge.dispute.id}`),
      await other.api.post(`/disputes/${charge.dispute.id}`, { json: { evidence: { customerName: 'Mallory' } } }),
      await other.api.post(`/disputes/${charge.dispute.id}/close`),
      await api.withKey(service.keys!.liveSecretKey).get(`/disputes/${charge.dispute.id}`),
    ]) {
      expect(response.status, JSON.stringify(response.body)).to.equal(404);
      expect((response.body as ApiError).error.type).to.equal('invalid_request');
    }
    expect((await other.api.get<Page<Dispute>>('/disputes')).body.list).to.deep.equal([]);
    expect((await api.get('/disputes/dp_doesnotexist')).status).to.equal(404);
    expect(await getDispute(charge.dispute.id)).to.deep.include({ status: 'CHARGEBACK_NEW', evidence: null });
  });
});

describe('delayed network outcomes across a restart', function () {
  this.timeout(60_000);
  const { api, service, start } = useService({
    env: {
      SCHEDULER_INTERVAL_MS: '100',
      NETWORK_DISPUTE_DELAY_MS: '2500',
      NETWORK_FRAUD_WARNING_DELAY_MS: '2500',
    },
  });

  it('delivers a dispute and a fraud warning that fell due while the service was down (derived from state, not the queue)', async () => {
    const disputed = await createCharge(api, DISPUTE_CARD);
    const warned = await createCharge(api, '4242000000000208');
    expect((await readCharge(api, disputed.id)).disputed, 'not due yet').to.equal(false);
    expect(await service.stop()).to.equal(0);
    const stoppedAt = Math.floor(Date.now() / 1000);

    await start();
    const charge = await eventually(
      () => readCharge(api, disputed.id),
      (read) => read.disputed,
    );
    expect(charge.dispute).to.deep.include({ status: 'CHARGEBACK_NEW' });
    await eventualEventTypes(api, disputed.id, 3);
    expect(charge.dispute!.created, 'opened by the restarted service').to.be.at.least(stoppedAt);
    const fraud = await eventually(
      () => readCharge(api, warned.id),
      (read) => read.fraudDetails.status !== 'in_progress',
    );
    expect(fraud.fraudDetails.status).to.equal('fraudulent');
    await eventualEventTypes(api, warned.id, 2);
    // Delivered exactly once, however many scans found them.
    expect(
      (await eventsOf(api, disputed.id)).filter((event) => event.type === 'CHARGE_DISPUTE_CREATED'),
    ).to.have.length(1);
    expect((await eventsOf(api, warned.id)).filter((event) => event.type === 'CHARGE_UPDATED')).to.have.length(1);
  });
});
