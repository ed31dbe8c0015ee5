import { customerView } from './views/customer-view.ts';
import { scopedIndexes, viewProjection } from './view-projection.ts';

/** `customers`: GET /customers/{id} and the customer list (filters: email, deleted). */
export const customersProjection = viewProjection(
  'customers',
  'customers',
  scopedIndexes('_deleted', 'email'),
  customerView,
);
