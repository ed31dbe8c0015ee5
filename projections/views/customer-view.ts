import type { CustomerEvent } from '../../packages/domain/customer/customer-events.ts';
import { customerEventTypes } from '../../packages/domain/customer/customer-events.ts';
import type { Metadata } from '../../packages/domain/metadata.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';

export interface CustomerDoc extends Document {
  objectType: 'customer';
  email: string;
  description: string | null;
  defaultCardId: string | null;
  cards: Record<string, unknown>[];
  metadata: Metadata;
  deleted?: true;
  _accountId: string;
  _mode: 'test' | 'live';
  _deleted: boolean;
}

export const customerView: ObjectView<CustomerDoc> = {
  streamPrefix: 'customer-',
  eventTypes: new Set(customerEventTypes),
  apply(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & CustomerEvent;
    switch (event.type) {
      case 'CustomerCreated':
        return {
          id: event.data.customerId,
          created: occurredAtSeconds(recorded),
          objectType: 'customer',
          email: event.data.email,
          description: event.data.description,
          defaultCardId: null,
          cards: [],
          metadata: event.data.metadata,
          ...tenantFields(recorded),
          _deleted: false,
        };
      case 'CustomerUpdated': {
        if (!current) return current;
        const { customerId: _id, ...changes } = event.data;
        return { ...current, ...changes };
      }
      case 'CustomerDeleted':
        return current ? { ...current, deleted: true, _deleted: true } : current;
      default:
        return current;
    }
  },
};
