import { expect } from 'chai';
import {
  FRAUD_WARNING_CARD,
  createCharge,
  eventualEventTypes,
  eventually,
  readCharge,
  type DisputedCharge,
  type FraudWarning,
} from '../support/disputes.ts';
import { createOtherAccount, eventsOf, type ApiError, type Page } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

describe('fraud warnings over HTTP', function () {
  this.timeout(60_000);
  const { api, service } = useService({
    env: { SCHEDULER_INTERVAL_MS: '100', NETWORK_FRAUD_WARNING_DELAY_MS: '300', NETWORK_DISPUTE_DELAY_MS: '300' },
  });

  /** A charge on the fraud-warning card, once the warning arrived, and the warning. */
  const warnedCharge = async (
    extra: Record<string, unknown> = {},
  ): Promise<{ charge: DisputedCharge; warning: FraudWarning }> => {
    const created = await createCharge(api, FRAUD_WARNING_CARD, extra);
    expect(created.fraudDetails.status).to.equal('in_progress');
    const charge = await eventually(
      () => readCharge(api, created.id),
      (read) => read.fraudDetails.status !== 'in_progress',
    );
    // Each read model catches up on its own: the warnings and the events may follow the charge by a moment.
    const list = await eventually(
      () => api.get<Page<FraudWarning>>('/fraud-warnings', { query: { chargeId: charge.id } }),
      (response) => response.status === 200 && response.body.list.length > 0,
    );
    expect(list.body.list).to.have.length(1);
    await eventualEventTypes(api, charge.id, 2);
    return { charge, warning: list.body.list[0]! };
  };

  it('a charge on 4242000000000208 gets a fraud warning shortly after; its fraudDetails become final, with CHARGE_UPDATED', async () => {
    const ordinary = await createCharge(api, '4242424242424242');
    const { charge, warning } = await warnedCharge();
    expect(charge.fraudDetails.status).to.equal('fraudulent');
    expect(charge.fraudDetails.score).to.be.within(90, 100);
    expect(charge.disputed).to.equal(false);
    expect(warning).to.deep.equal({
      id: warning.id,
      created: warning.created,
      objectType: 'fraud_warning',
      charge: charge.id,
      actionable: true,
    });
    expect(warning.id).to.match(/^fw_[A-Za-z0-9]{24}$/);
    expect(warning.created).to.be.at.least(charge.created);

    const single = await api.get<FraudWarning>(`/fraud-warnings/${warning.id}`);
    expect(single.status).to.equal(200);
    expect(single.body).to.deep.equal(warning);

    const events = await eventsOf<DisputedCharge>(api, charge.id);
    expect(events.map((event) => event.type)).to.deep.equal(['CHARGE_UPDATED', 'CHARGE_SUCCEEDED']);
    expect(events[0]!.data).to.deep.equal(charge);
    expect(events[1]!.data.fraudDetails.status).to.equal('in_progress');

    expect((await readCharge(api, ordinary.id)).fraudDetails.status, 'an ordinary card gets no warning').to.equal(
      'safe',
    );
    expect(
      (await api.get<Page<FraudWarning>>('/fraud-warnings', { query: { chargeId: ordinary.id } })).body.list,
    ).to.deep.equal([]);
  });

  it('lists warnings newest first; filters by charge and by actionable (an uncaptured charge is not actionable)', async () => {
    const captured = await warnedCharge();
    const authorized = await warnedCharge({ captured: false });
    expect(authorized.warning.actionable).to.equal(false);

    const all = await api.get<Page<FraudWarning>>('/fraud-warnings', { query: { limit: '2' } });
    expect(all.body.list.map((warning) => warning.id)).to.deep.equal([authorized.warning.id, captured.warning.id]);
    expect(all.body.hasMore).to.equal(true);
    const next = await api.get<Page<FraudWarning>>('/fraud-warnings', {
      query: { startingAfterId: authorized.warning.id, limit: '1' },
    });
    expect(next.body.list.map((warning) => warning.id)).to.deep.equal([captured.warning.id]);

    const notActionable = await api.get<Page<FraudWarning>>('/fraud-warnings', { query: { actionable: 'false' } });
    expect(notActionable.body.list.map((warning) => warning.id)).to.deep.equal([authorized.warning.id]);
    const actionable = await api.get<Page<FraudWarning>>('/fraud-warnings', {
      query: { actionable: 'true', limit: '100' },
    });
    expect(actionable.body.list.map((warning) => warning.id))
      .to.include(captured.warning.id)
      .and.not.include(authorized.warning.id);

    const unknown = await api.get<ApiError>('/fraud-warnings', { query: { chargeId: 'char_doesnotexist' } });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.message).to.match(/chargeId 'char_doesnotexist' does not exist/);
  });

  it("another account's fraud warning is a 404, and never listed", async () => {
    const { warning } = await warnedCharge();
    const other = await createOtherAccount(api, service.dataDir, 'Fraud Intruder');
    const response = await other.api.get<ApiError>(`/fraud-warnings/${warning.id}`);
    expect(response.status).to.equal(404);
    expect(response.body.error.type).to.equal('invalid_request');
    expect((await other.api.get<Page<FraudWarning>>('/fraud-warnings')).body.list).to.deep.equal([]);
    expect((await api.withKey(service.keys!.liveSecretKey).get(`/fraud-warnings/${warning.id}`)).status).to.equal(404);
    expect((await api.get('/fraud-warnings/fw_doesnotexist')).status).to.equal(404);
  });
});
