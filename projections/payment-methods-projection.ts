import { paymentMethodView } from './views/payment-method-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `payment_methods`: GET /payment-methods[/{id}] (filters: customerId, deleted). */
export const paymentMethodsProjection = viewProjection(
  'payment-methods',
  'payment_methods',
  scopedIndexes('_deleted', 'customerId'),
  paymentMethodView,
);
