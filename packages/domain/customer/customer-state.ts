import type { Metadata } from '../metadata.ts';
import type { CustomerEvent } from './customer-events.ts';

export type CustomerState =
  | { status: 'none' }
  | {
      status: 'active' | 'deleted';
      customerId: string;
      email: string;
      description: string | null;
      metadata: Metadata;
    };

export const initialCustomerState = (): CustomerState => ({ status: 'none' });

export function evolveCustomer(state: CustomerState, event: CustomerEvent): CustomerState {
  switch (event.type) {
    case 'CustomerCreated':
      return { status: 'active', ...event.data };
    case 'CustomerUpdated': {
      if (state.status === 'none') return state;
      const { customerId: _id, ...changes } = event.data;
      return { ...state, ...changes };
    }
    case 'CustomerDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
  }
}
