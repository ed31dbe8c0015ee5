import { expect } from 'chai';
import { cardDetails, eventsOf, type Charge, type Page, type Refund, type Token } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';

/**
 * Invariants that rest on optimistic concurrency (`docs/architecture.md`, "Optimistic
 * concurrency"), hammered over real HTTP.
 */
describe('payment invariants under concurrent requests', function () {
  this.timeout(120_000);
  const { api, service } = useService({ env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' } });

  const statusCounts = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>(
      (counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
      {},
    );

  it('50 concurrent 1-unit refunds of a charge of 20: exactly 20 succeed, the charge is refunded exactly once over', async () => {
    const charge = (
      await api.post<Charge>('/charges', {
        json: { amount: 20, currency: 'EUR', card: cardDetails('4242424242424242') },
      })
    ).body;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? api.post<Refund>('/refunds', { json: { chargeId: charge.id, amount: 1 } })
          : api.post<Charge>(`/charges/${charge.id}/refund`, { form: { amount: '1' } }),
      ),
    );
    expect(statusCounts(responses.map((response) => response.status))).to.deep.equal({ 200: 20, 400: 30 });
    for (const response of responses.filter((r) => r.status === 400))
      expect(response.body).to.have.nested.property('error.type', 'invalid_request');

    const after = (await api.get<Charge>(`/charges/${charge.id}`)).body;
    expect(after.refunded).to.equal(true);
    expect(after.refunds).to.have.length(20);
    expect(after.refunds.every((refund) => refund.status === 'successful' && refund.amount === 1)).to.equal(true);
    expect(after.refunds.reduce((sum, refund) => sum + refund.amount, 0)).to.equal(20);
    const listed = await api.get<Page<Refund>>('/refunds', { query: { chargeId: charge.id, limit: '100' } });
    expect(listed.body.list).to.have.length(20);
    expect(new Set(listed.body.list.map((refund) => refund.id)).size).to.equal(20);
    expect((await eventsOf(api, charge.id)).filter((event) => event.type === 'CHARGE_REFUNDED')).to.have.length(20);
  });

  it('10 concurrent charges with one token: exactly one charge is made', async () => {
    const token = (
      await api.post<Token>('/tokens', { json: cardDetails('5555555555554444'), key: service.keys!.testPublicKey })
    ).body;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.post<Charge>('/charges', {
          json: { amount: 100, currency: 'EUR', card: token.id, description: 'token race' },
        }),
      ),
    );
    expect(statusCounts(responses.map((response) => response.status))).to.deep.equal({ 200: 1, 400: 9 });
    for (const response of responses.filter((r) => r.status === 400))
      expect(response.body)
        .to.have.nested.property('error.message')
        .that.matches(/already been used/);

    const winner = responses.find((response) => response.status === 200)!.body;
    const charges = (await api.get<Page<Charge>>('/charges', { query: { limit: '100' } })).body.list;
    const fromToken = charges.filter((charge) => charge.description === 'token race');
    expect(fromToken.map((charge) => charge.id)).to.deep.equal([winner.id]);
    expect(winner.card.fingerprint).to.equal(token.fingerprint);
    expect((await api.get<Token>(`/tokens/${token.id}`)).body.used).to.equal(true);
  });

  it('10 concurrent captures of one authorization: exactly one captures, one CHARGE_CAPTURED event', async () => {
    const charge = (
      await api.post<Charge>('/charges', {
        json: { amount: 500, currency: 'EUR', captured: false, card: cardDetails('4242424242424242') },
      })
    ).body;
    expect(charge.captured).to.equal(false);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => api.post<Charge>(`/charges/${charge.id}/capture`)),
    );
    expect(statusCounts(responses.map((response) => response.status))).to.deep.equal({ 200: 1, 400: 9 });
    expect(responses.find((response) => response.status === 200)!.body.captured).to.equal(true);
    expect((await api.get<Charge>(`/charges/${charge.id}`)).body.captured).to.equal(true);
    const events = await eventsOf(api, charge.id);
    expect(events.map((event) => event.type)).to.deep.equal(['CHARGE_CAPTURED', 'CHARGE_SUCCEEDED']);
  });

  it('concurrent full refunds (no amount) of one charge: exactly one succeeds', async () => {
    const charge = (
      await api.post<Charge>('/charges', {
        json: { amount: 900, currency: 'EUR', card: cardDetails('4242424242424242') },
      })
    ).body;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => api.post<Refund>('/refunds', { json: { chargeId: charge.id } })),
    );
    expect(statusCounts(responses.map((response) => response.status))).to.deep.equal({ 200: 1, 400: 9 });
    const after = (await api.get<Charge>(`/charges/${charge.id}`)).body;
    expect(after.refunds.map((refund) => refund.amount)).to.deep.equal([900]);
    expect(after.refunded).to.equal(true);
  });
});
