import { expect } from 'chai';
import type { ChargeStreamEvent } from '../../../packages/domain/charge/charge-state.ts';
import { providerFailures } from '../../../packages/domain/charge/payment-method-charge.ts';
import { chargesCollection, chargesProjection } from '../../../projections/charges-projection.ts';
import { seconds } from './fixtures.ts';
import { authorized, charge, createdAt, pending, processing } from './payment-method-fixtures.ts';
import { projectionSpec, withoutInternals } from './projection-spec.ts';

describe('charges projection: payment-method charges', () => {
  const spec = projectionSpec(chargesProjection);

  it('renders a pending charge with its payment method, client object id and redirect, without a card', async () => {
    await spec().given(charge(pending, '2026-02-01T10:00:00.000Z'));
    const doc = (await spec().get(chargesCollection, 'char_1'))!;
    expect(withoutInternals(doc)).to.deep.equal({
      id: 'char_1',
      created: seconds('2026-02-01T10:00:00.000Z'),
      objectType: 'charge',
      amount: 1000,
      currency: 'EUR',
      description: 'Order 7',
      status: 'pending',
      clientObjectId: 'client_char_1',
      paymentMethod: {
        id: 'pm_1',
        created: seconds(createdAt),
        objectType: 'paymentMethod',
        clientObjectId: 'client_pm_1',
        type: 'sofort',
        billing: { name: 'Ada' },
        customerId: 'cust_1',
        status: 'chargeable',
        metadata: {},
      },
      flow: {
        nextAction: 'redirect',
        returnUrl: 'https://shop.example/return',
        redirect: { redirectUrl: 'http://pay.example/payment-redirects/client_char_1' },
      },
      customerId: 'cust_1',
      subscriptionId: null,
      captured: false,
      refunded: false,
      amountRefunded: 0,
      refunds: [],
      disputed: false,
      fraudDetails: { status: 'unknown', score: 0 },
      shipping: null,
      billing: null,
      threeDSecureInfo: null,
      avsCheck: null,
      merchantAccountId: null,
      metadata: {},
    });
  });

  it('waits while processing, then succeeds with the capture asked for at creation', async () => {
    await spec().given(charge(pending), charge(processing));
    expect((await spec().get(chargesCollection, 'char_1'))!.flow).to.deep.equal({
      nextAction: 'wait',
      returnUrl: 'https://shop.example/return',
    });
    await spec().given(charge(authorized));
    const doc = (await spec().get(chargesCollection, 'char_1'))!;
    expect(doc).to.include({ status: 'successful', captured: false });
    expect(doc.flow).to.deep.equal({ nextAction: 'none', returnUrl: 'https://shop.example/return' });
    expect(doc).not.to.have.property('_captureWhenAuthorized');
    await spec().expectRebuildIdentical();
  });

  it('fails with the failure fields of a decline', async () => {
    await spec().given(
      charge(pending),
      charge<ChargeStreamEvent>({
        type: 'PaymentMethodChargeFailed',
        data: { chargeId: 'char_1', reason: 'declined', ...providerFailures.declined },
      }),
    );
    expect(await spec().get(chargesCollection, 'char_1')).to.include({
      status: 'failed',
      failureCode: 'card_declined',
      failureMessage: 'The payment was declined at the payment method provider.',
      failureIssuerDeclineCode: null,
    });
  });
});
