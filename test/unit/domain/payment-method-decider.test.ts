import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { paymentMethodDecider } from '../../../packages/domain/payment-method/payment-method-decider.ts';
import type {
  PaymentMethodDetails,
  PaymentMethodEvent,
} from '../../../packages/domain/payment-method/payment-method-events.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(paymentMethodDecider);
const details: PaymentMethodDetails = {
  paymentMethodId: 'pm_1',
  clientObjectId: 'client_pm_1',
  type: 'ideal',
  billing: { name: 'Ada' },
  customerId: null,
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
};
const created: PaymentMethodEvent = { type: 'PaymentMethodCreated', data: details };
const deleted: PaymentMethodEvent = { type: 'PaymentMethodDeleted', data: { paymentMethodId: 'pm_1' } };

describe('payment method decider', () => {
  it('records a payment method once', () => {
    spec([]).when({ type: 'CreatePaymentMethod', details }).then([created]);
    spec([created])
      .when({ type: 'CreatePaymentMethod', details })
      .thenThrows(InvalidRequestError, /already exists/);
  });

  it('deletes a payment method once; deleting it again records nothing; an unknown one is not found', () => {
    spec([created]).when({ type: 'DeletePaymentMethod', paymentMethodId: 'pm_1' }).then([deleted]);
    spec([created, deleted]).when({ type: 'DeletePaymentMethod', paymentMethodId: 'pm_1' }).then([]);
    spec([]).when({ type: 'DeletePaymentMethod', paymentMethodId: 'pm_1' }).thenThrows(NotFoundError);
  });
});
