import { customerDecider } from '../../../packages/domain/customer/customer-decider.ts';
import type { CustomerEvent } from '../../../packages/domain/customer/customer-events.ts';
import { InvalidRequestError, NotFoundError } from '../../../packages/domain/errors.ts';
import { deciderSpec } from './decider-spec.ts';

const spec = deciderSpec(customerDecider);
const created: CustomerEvent = {
  type: 'CustomerCreated',
  data: { customerId: 'cust_1', email: 'a@example.com', description: null, metadata: { tier: 'gold' } },
};

describe('customer decider', () => {
  it('creates a customer with defaults for omitted fields', () => {
    spec([])
      .when({ type: 'CreateCustomer', customerId: 'cust_1', email: 'a@example.com' })
      .then([
        {
          type: 'CustomerCreated',
          data: { customerId: 'cust_1', email: 'a@example.com', description: null, metadata: {} },
        },
      ]);
  });

  it('refuses to create the same customer twice', () => {
    spec([created])
      .when({ type: 'CreateCustomer', customerId: 'cust_1', email: 'b@example.com' })
      .thenThrows(InvalidRequestError);
  });

  it('records only the fields that change', () => {
    spec([created])
      .when({
        type: 'UpdateCustomer',
        customerId: 'cust_1',
        email: 'a@example.com',
        description: 'VIP',
        metadata: { tier: 'gold' },
      })
      .then([{ type: 'CustomerUpdated', data: { customerId: 'cust_1', description: 'VIP' } }]);
  });

  it('records nothing for an update that changes nothing', () => {
    spec([created])
      .when({ type: 'UpdateCustomer', customerId: 'cust_1', metadata: { tier: 'gold' } })
      .then([]);
  });

  it('replaces metadata as a whole', () => {
    spec([created])
      .when({ type: 'UpdateCustomer', customerId: 'cust_1', metadata: {} })
      .then([{ type: 'CustomerUpdated', data: { customerId: 'cust_1', metadata: {} } }]);
  });

  it('does not update or delete a customer that does not exist', () => {
    spec([]).when({ type: 'UpdateCustomer', customerId: 'cust_1', email: 'x@example.com' }).thenThrows(NotFoundError);
    spec([]).when({ type: 'DeleteCustomer', customerId: 'cust_1' }).thenThrows(NotFoundError);
  });

  it('deletes once; a deleted customer cannot be changed or deleted again', () => {
    const deleted: CustomerEvent = { type: 'CustomerDeleted', data: { customerId: 'cust_1' } };
    spec([created]).when({ type: 'DeleteCustomer', customerId: 'cust_1' }).then([deleted]);
    spec([created, deleted])
      .when({ type: 'DeleteCustomer', customerId: 'cust_1' })
      .thenThrows(InvalidRequestError, /deleted/);
    spec([created, deleted])
      .when({ type: 'UpdateCustomer', customerId: 'cust_1', email: 'x@example.com' })
      .thenThrows(InvalidRequestError);
  });
});
