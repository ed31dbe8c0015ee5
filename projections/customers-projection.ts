import { objectCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { customerView, type CustomerDoc } from './views/customer-view.ts';
import { deletableScopedIndexes, viewProjection } from './view-projection.ts';

/** GET /customers/{id} and the customer list (filters: email, deleted; `deleted` defaults to false). */
export const customersCollection = objectCollection<CustomerDoc>(
  'customers',
  'Customer',
  deletableScopedIndexes('email'),
);

/** `customers`: one document per customer, with its most recent cards. */
export const customersProjection = viewProjection('customers', customersCollection, customerView);
