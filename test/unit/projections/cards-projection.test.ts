import { expect } from 'chai';
import type { CustomerEvent } from '../../../packages/domain/customer/customer-events.ts';
import { cardsCollection, cardsProjection } from '../../../projections/cards-projection.ts';
import { cardAdded, customerCreated, seconds } from './fixtures.ts';
import { inStream, projectionSpec, tenant, withoutInternals } from './projection-spec.ts';
import { noCardAddress } from '../domain/card-snapshot-fixture.ts';
import { tenantFingerprint } from '../../../packages/vault/tenant-fingerprint.ts';

const customer = inStream('customer-cust_1');
const at = '2026-01-10T08:00:00Z';

describe('cards projection', () => {
  const spec = projectionSpec(cardsProjection);

  it('renders a saved card as GET /customers/{id}/cards/{cardId} shows it: never the number or the vault reference', async () => {
    await spec().given(customer(customerCreated(), at), customer(cardAdded('card_1')));
    const doc = (await spec().get(cardsCollection, 'card_1'))!;
    expect(withoutInternals(doc)).to.deep.equal({
      id: 'card_1',
      created: seconds(at),
      objectType: 'card',
      first6: '424242',
      last4: '4242',
      // The account and mode's own fingerprint of the card, never the stored one.
      fingerprint: tenantFingerprint('fp_1', tenant),
      expMonth: '05',
      expYear: '2040',
      cardholderName: null,
      customerId: 'cust_1',
      brand: 'Visa',
      type: 'Credit Card',
      country: 'US',
      issuer: 'Test Bank',
      ...noCardAddress,
      fraudCheckData: null,
      merchantAccountId: null,
    });
    expect(JSON.stringify(doc)).to.not.include('vault_1');
  });

  it('applies updates and soft-deletes; customer events do not make cards', async () => {
    await spec().given(customer(customerCreated()), customer(cardAdded('card_1')));
    await spec().given(
      customer<CustomerEvent>({
        type: 'CardUpdated',
        data: {
          customerId: 'cust_1',
          cardId: 'card_1',
          addressCity: 'Oslo',
          fastCredit: { supported: true, updated: 5 },
        },
      }),
      customer<CustomerEvent>({ type: 'CardDeleted', data: { customerId: 'cust_1', cardId: 'card_1' } }),
    );
    const doc = (await spec().get(cardsCollection, 'card_1'))!;
    expect(doc).to.include({ addressCity: 'Oslo', deleted: true, _deleted: true });
    expect(doc.fastCredit).to.deep.equal({ supported: true, updated: 5 });
    expect((await spec().all(cardsCollection)).map((card) => card.id)).to.deep.equal(['card_1']);
    await spec().expectRebuildIdentical();
  });
});
