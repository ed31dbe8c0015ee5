import type { DomainEvent } from '../decider.ts';
import type { Metadata } from '../metadata.ts';

/** Stream of one customer: `customer-<customerId>`. */
export const customerStream = (customerId: string): string => `customer-${customerId}`;

export type CustomerCreated = DomainEvent<
  'CustomerCreated',
  {
    customerId: string;
    email: string;
    description: string | null;
    metadata: Metadata;
  }
>;

/** Only the fields that changed are present. */
export type CustomerUpdated = DomainEvent<
  'CustomerUpdated',
  {
    customerId: string;
    email?: string;
    description?: string | null;
    metadata?: Metadata;
  }
>;

export type CustomerDeleted = DomainEvent<'CustomerDeleted', { customerId: string }>;

export type CustomerEvent = CustomerCreated | CustomerUpdated | CustomerDeleted;

export const customerEventTypes: ReadonlyArray<CustomerEvent['type']> = ['CustomerCreated', 'CustomerUpdated', 'CustomerDeleted'];
