import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import { sameMetadata, type Metadata } from '../metadata.ts';
import type { CustomerEvent, CustomerUpdated } from './customer-events.ts';
import { evolveCustomer, initialCustomerState, type CustomerState } from './customer-state.ts';

export type CustomerCommand =
  | { type: 'CreateCustomer'; customerId: string; email: string; description?: string | null; metadata?: Metadata }
  | { type: 'UpdateCustomer'; customerId: string; email?: string; description?: string | null; metadata?: Metadata }
  | { type: 'DeleteCustomer'; customerId: string };

export const customerDecider: Decider<CustomerCommand, CustomerEvent, CustomerState> = {
  initialState: initialCustomerState,
  evolve: evolveCustomer,
  decide(command, state) {
    switch (command.type) {
      case 'CreateCustomer':
        if (state.status !== 'none') throw new InvalidRequestError(`Customer '${command.customerId}' already exists`);
        return [
          {
            type: 'CustomerCreated',
            data: {
              customerId: command.customerId,
              email: command.email,
              description: command.description ?? null,
              metadata: command.metadata ?? {},
            },
          },
        ];
      case 'UpdateCustomer': {
        const current = requireActiveCustomer(state, command.customerId);
        const changes: CustomerUpdated['data'] = { customerId: command.customerId };
        if (command.email !== undefined && command.email !== current.email) changes.email = command.email;
        if (command.description !== undefined && command.description !== current.description) changes.description = command.description;
        if (command.metadata !== undefined && !sameMetadata(command.metadata, current.metadata)) changes.metadata = command.metadata;
        // An update that changes nothing records nothing (and so emits no CUSTOMER_UPDATED).
        return Object.keys(changes).length > 1 ? [{ type: 'CustomerUpdated', data: changes }] : [];
      }
      case 'DeleteCustomer':
        requireActiveCustomer(state, command.customerId);
        return [{ type: 'CustomerDeleted', data: { customerId: command.customerId } }];
    }
  },
};

function requireActiveCustomer(state: CustomerState, customerId: string): Exclude<CustomerState, { status: 'none' }> {
  if (state.status === 'none') throw new NotFoundError('Customer', customerId);
  if (state.status === 'deleted') throw new InvalidRequestError(`Customer '${customerId}' has been deleted`);
  return state;
}
