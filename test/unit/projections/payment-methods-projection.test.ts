import { expect } from 'chai';
import type { PaymentMethodEvent } from '../../../packages/domain/payment-method/payment-method-events.ts';
import { paymentMethodsCollection, paymentMethodsProjection } from '../../../projections/payment-methods-projection.ts';
import { seconds } from './fixtures.ts';
import { createdAt, method } from './payment-method-fixtures.ts';
import { inStream, projectionSpec } from './projection-spec.ts';

describe('payment methods projection', () => {
  const spec = projectionSpec(paymentMethodsProjection);

  it('renders a payment method without a deleted field, then soft-deleted and canceled', async () => {
    await spec().given(
      inStream('paymentMethod-pm_1')<PaymentMethodEvent>({ type: 'PaymentMethodCreated', data: method }, createdAt),
    );
    const live = (await spec().get(paymentMethodsCollection, 'pm_1'))!;
    expect(live).not.to.have.property('deleted');
    expect(live).to.include({ status: 'chargeable', created: seconds(createdAt), _deleted: false });
    await spec().given(
      inStream('paymentMethod-pm_1')<PaymentMethodEvent>({
        type: 'PaymentMethodDeleted',
        data: { paymentMethodId: 'pm_1' },
      }),
    );
    expect(await spec().get(paymentMethodsCollection, 'pm_1')).to.include({
      status: 'canceled',
      deleted: true,
      _deleted: true,
    });
  });
});
