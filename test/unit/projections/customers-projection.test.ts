import { expect } from 'chai';
import type { CustomerEvent } from '../../../packages/domain/customer/customer-events.ts';
import { customersCollection, customersProjection } from '../../../projections/customers-projection.ts';
import { cardAdded, customerCreated, seconds } from './fixtures.ts';
import { inStream, projectionSpec, withoutInternals } from './projection-spec.ts';

const customer = inStream('customer-cust_1');
const at = '2026-01-10T08:00:00Z';

describe('customers projection', () => {
  const spec = projectionSpec(customersProjection);

  it('renders a created customer as GET /customers/{id} shows it', async () => {
    await spec().given(customer(customerCreated(), at));
    expect(withoutInternals((await spec().get(customersCollection, 'cust_1'))!)).to.deep.equal({
      id: 'cust_1',
      created: seconds(at),
      objectType: 'customer',
      email: 'ann@example.com',
      description: null,
      defaultCardId: null,
      cards: [],
      metadata: {},
    });
  });

  it('embeds its ten most recent cards, newest first, and follows card changes and the default card', async () => {
    const cards = Array.from({ length: 12 }, (_, index) => `card_${String(index + 1).padStart(2, '0')}`);
    await spec().given(customer(customerCreated()), ...cards.map((cardId) => customer(cardAdded(cardId))));
    await spec().given(
      customer<CustomerEvent>({ type: 'CardDeleted', data: { customerId: 'cust_1', cardId: 'card_12' } }),
      customer<CustomerEvent>({
        type: 'CardUpdated',
        data: { customerId: 'cust_1', cardId: 'card_11', cardholderName: 'Ann Smith', expMonth: '7' },
      }),
      customer<CustomerEvent>({ type: 'DefaultCardChanged', data: { customerId: 'cust_1', defaultCardId: 'card_11' } }),
      customer<CustomerEvent>({ type: 'CustomerUpdated', data: { customerId: 'cust_1', email: 'ann@example.org' } }),
    );
    const doc = (await spec().get(customersCollection, 'cust_1'))!;
    expect(doc).to.include({ defaultCardId: 'card_11', email: 'ann@example.org' });
    expect(doc.cards.map((card) => card.id)).to.deep.equal(cards.slice(1, 11).reverse());
    expect(doc.cards[0]).to.include({ id: 'card_11', cardholderName: 'Ann Smith', customerId: 'cust_1' });
    expect(doc.cards[0]).to.not.have.property('_deleted');
    await spec().expectRebuildIdentical();
  });

  it('keeps a deleted customer readable with deleted: true', async () => {
    await spec().given(customer(customerCreated()));
    await spec().given(customer<CustomerEvent>({ type: 'CustomerDeleted', data: { customerId: 'cust_1' } }));
    expect(await spec().get(customersCollection, 'cust_1')).to.include({ deleted: true, _deleted: true });
  });
});
