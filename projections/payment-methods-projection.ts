import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { paymentMethodView, type PaymentMethodDoc } from './views/payment-method-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** GET /payment-methods[/{id}] (filters: customerId, deleted). */
export const paymentMethodsCollection = objectCollection<PaymentMethodDoc>(
  'payment_methods',
  'Payment method',
  scopedIndexes('_deleted', 'customerId'),
);

/** `payment-methods`: one document per payment method. */
export const paymentMethodsProjection = viewProjection('payment-methods', paymentMethodsCollection, paymentMethodView);
