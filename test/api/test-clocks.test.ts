import { expect } from 'chai';
import { cardDetails, type ApiError, type Charge, type Page } from '../support/payments.ts';
import { useService } from '../support/use-service.ts';
import {
  advance,
  at,
  chargesOf,
  createClock,
  createPlan,
  customerOnClock,
  DAY,
  monthsAfter,
  subscribe,
  type TestClock,
} from '../support/subscriptions.ts';

describe('test clocks over HTTP', function () {
  this.timeout(60_000);
  const { api, service } = useService();
  const T0 = at('2026-06-01T12:00:00Z');

  it('creates, reads, lists, advances and deletes a test clock', async () => {
    const created = await api.post<TestClock>('/test-clocks', { form: { frozenTime: String(T0), name: 'Renewals' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const clock = created.body;
    expect(clock.id).to.match(/^clock_[A-Za-z0-9]{24}$/);
    expect(clock).to.include({ objectType: 'testClock', frozenTime: T0, status: 'ready', name: 'Renewals' });
    expect((await api.get<TestClock>(`/test-clocks/${clock.id}`)).body).to.deep.equal(clock);
    expect((await api.get<Page<TestClock>>('/test-clocks')).body.list.map((item) => item.id)).to.include(clock.id);

    const moved = await advance(api, clock.id, T0 + DAY);
    expect(moved).to.include({ frozenTime: T0 + DAY, status: 'ready' });
    const backwards = await api.post<ApiError>(`/test-clocks/${clock.id}/advance`, { json: { frozenTime: T0 } });
    expect(backwards.status).to.equal(400);
    expect(backwards.body.error.message).to.include('frozenTime');
    expect((await api.post<ApiError>('/test-clocks', { json: {} })).body.error.message).to.equal(
      'frozenTime: Must not be empty.',
    );

    expect((await api.delete(`/test-clocks/${clock.id}`)).body).to.deep.equal({ id: clock.id });
    expect((await api.get<TestClock>(`/test-clocks/${clock.id}`)).body).to.include({ deleted: true });
    expect((await api.get<Page<TestClock>>('/test-clocks')).body.list.map((item) => item.id)).to.not.include(clock.id);
    expect(
      (await api.get<Page<TestClock>>('/test-clocks', { query: { deleted: 'true' } })).body.list.map((item) => item.id),
    ).to.include(clock.id);
    expect(
      (await api.post(`/test-clocks/${clock.id}/advance`, { json: { frozenTime: T0 + 2 * DAY } })).status,
    ).to.equal(400);
    expect(
      (await api.post('/customers', { json: { email: 'late@example.com', testClockId: clock.id } })).status,
    ).to.equal(400);
    expect((await api.get('/test-clocks/clock_unknown')).status).to.equal(404);
  });

  it('does not exist in live mode: every test clock endpoint and testClockId answer 400', async () => {
    const live = api.withKey(service.keys!.liveSecretKey);
    const clock = await createClock(api, T0);
    const answers = [
      await live.post<ApiError>('/test-clocks', { json: { frozenTime: T0 } }),
      await live.get<ApiError>('/test-clocks'),
      await live.get<ApiError>(`/test-clocks/${clock.id}`),
      await live.post<ApiError>(`/test-clocks/${clock.id}/advance`, { json: { frozenTime: T0 + DAY } }),
      await live.delete<ApiError>(`/test-clocks/${clock.id}`),
      await live.post<ApiError>('/customers', { json: { email: 'live@example.com', testClockId: clock.id } }),
    ];
    for (const answer of answers) {
      expect(answer.status).to.equal(400);
      expect(answer.body.error.message).to.include('test mode');
    }
  });

  it('customers on a clock live on its time: their objects’ timestamps follow it', async () => {
    const clock = await createClock(api, T0);
    const customer = await api.post<{ id: string; created: number; testClockId: string; cards: { created: number }[] }>(
      '/customers',
      {
        json: { email: 'clocked@example.com', testClockId: clock.id, card: cardDetails('4242424242424242') },
      },
    );
    expect(customer.body).to.include({ created: T0, testClockId: clock.id });
    expect(customer.body.cards[0]!.created).to.equal(T0);
    await advance(api, clock.id, T0 + 3 * DAY);
    const charge = await api.post<Charge>('/charges', {
      json: { amount: 100, currency: 'EUR', customerId: customer.body.id },
    });
    expect(charge.body.created).to.equal(T0 + 3 * DAY);
    const card = await api.post<{ created: number }>(`/customers/${customer.body.id}/cards`, {
      json: cardDetails('5555555555554444'),
    });
    expect(card.body.created).to.equal(T0 + 3 * DAY);
    const unknown = await api.post<ApiError>('/customers', {
      json: { email: 'x@example.com', testClockId: 'clock_unknown' },
    });
    expect(unknown.status).to.equal(400);
  });

  it('an advance runs the due work of its own customers only, each step at its own time', async () => {
    const clock = await createClock(api, T0);
    const elsewhere = await createClock(api, T0);
    const monthly = await createPlan(api, { amount: 1000 });
    const weekly = await createPlan(api, { amount: 100, interval: 'week' });
    const first = await customerOnClock(api, clock.id);
    const second = await customerOnClock(api, clock.id);
    const bystander = await customerOnClock(api, elsewhere.id);
    const monthlySub = await subscribe(api, first.id, { planId: monthly.id });
    await advance(api, clock.id, T0 + 2 * DAY);
    const weeklySub = await subscribe(api, second.id, { planId: weekly.id });
    const untouched = await subscribe(api, bystander.id, { planId: weekly.id });

    await advance(api, clock.id, monthsAfter(T0, 1) + DAY);

    expect((await chargesOf(api, first.id, monthlySub.id)).map((charge) => charge.created)).to.deep.equal([
      T0,
      monthsAfter(T0, 1),
    ]);
    expect((await chargesOf(api, second.id, weeklySub.id)).map((charge) => charge.created)).to.deep.equal(
      [0, 1, 2, 3, 4].map((week) => T0 + 2 * DAY + week * 7 * DAY),
    );
    expect(await chargesOf(api, bystander.id, untouched.id)).to.have.length(1);
    expect((await api.get<TestClock>(`/test-clocks/${elsewhere.id}`)).body.frozenTime).to.equal(T0);
  });
});
