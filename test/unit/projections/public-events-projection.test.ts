import { expect } from 'chai';
import type { ChargeEvent } from '../../../packages/domain/charge/charge-events.ts';
import type { CustomerEvent } from '../../../packages/domain/customer/customer-events.ts';
import { publicEventsCollection, publicEventsProjection } from '../../../projections/public-events-projection.ts';
import { publicObjects } from '../../../services/resources/registries.ts';
import { cardAdded, chargeSucceeded, customerCreated, seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const customer = inStream('customer-cust_1');
const charge = inStream('charge-char_1');
const at = '2026-04-01T10:00:00Z';
/** Public events are dated when recorded: the specs run now. */
const startedAt = Math.floor(Date.now() / 1000);

describe('public events projection', () => {
  const spec = projectionSpec(publicEventsProjection(publicObjects));

  /** Public events oldest first, as (type, data) pairs. */
  const events = async () =>
    (await spec().all(publicEventsCollection)).reverse().map((event) => ({ type: event.type, data: event.data }));

  it('gives each change an event whose data is the object as it stood right after it', async () => {
    await spec().given(customer(customerCreated(), at), customer(cardAdded('card_1')));
    await spec().given(
      customer<CustomerEvent>({ type: 'CustomerUpdated', data: { customerId: 'cust_1', email: 'new@example.com' } }),
    );
    const list = await events();
    expect(list.map((event) => event.type)).to.deep.equal([
      'CUSTOMER_CREATED',
      'CUSTOMER_CARD_CREATED',
      'CUSTOMER_UPDATED',
    ]);
    expect(list[0]!.data).to.include({ id: 'cust_1', email: 'ann@example.com', objectType: 'customer' });
    expect(list[0]!.data).to.not.have.property('_accountId');
    expect(list[1]!.data).to.include({ id: 'card_1', objectType: 'card', customerId: 'cust_1' });
    expect(list[2]!.data).to.include({ email: 'new@example.com' });
    expect(list[2]!.data.cards).to.have.length(1);

    const [created] = (await spec().all(publicEventsCollection)).slice(-1);
    expect(withoutInternals(created!)).to.include({ objectType: 'event', type: 'CUSTOMER_CREATED' });
    // When the event was recorded (real time), whatever its business clock said.
    expect(created!.created)
      .to.be.within(startedAt, Math.ceil(Date.now() / 1000))
      .and.not.equal(seconds(at));
    expect(created!).to.not.have.property('testClockTime');
    expect(created!.id).to.match(/^event_/);
    expect(created!.log).to.match(/^log_/);
    await spec().expectRebuildIdentical();
  });

  it('reports a refund on its charge once settled, and several events of one dispute change in order', async () => {
    await spec().given(charge(chargeSucceeded()));
    await spec().given(
      charge<ChargeEvent>({
        type: 'RefundRequested',
        data: { chargeId: 'char_1', refundId: 're_1', amount: 1000, currency: 'EUR', reason: null, metadata: {} },
      }),
      charge<ChargeEvent>({
        type: 'RefundSettled',
        data: { chargeId: 'char_1', refundId: 're_1', status: 'successful' },
      }),
      charge<ChargeEvent>({
        type: 'DisputeOpened',
        data: {
          chargeId: 'char_1',
          disputeId: 'dp_1',
          amount: 1000,
          currency: 'EUR',
          reason: 'GENERAL',
          status: 'CHARGEBACK_NEW',
        },
      }),
    );
    const list = await events();
    expect(list.map((event) => event.type)).to.deep.equal([
      'CHARGE_SUCCEEDED',
      'CHARGE_REFUNDED',
      'CHARGE_DISPUTE_CREATED',
      'CHARGE_DISPUTE_FUNDS_WITHDRAWN',
    ]);
    expect(list[1]!.data).to.include({ refunded: true, disputed: false });
    expect(list[3]!.data).to.include({ disputed: true });
    await spec().expectRebuildIdentical();
  });
});
