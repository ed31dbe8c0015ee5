import {
  paymentMethodEventTypes,
  type PaymentMethodDetails,
  type PaymentMethodEvent,
} from '../../packages/domain/payment-method/payment-method-events.ts';
import type { Mode } from '../../packages/domain/mode.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';

export interface PaymentMethodDoc extends Document {
  objectType: 'paymentMethod';
  customerId: string | null;
  status: 'chargeable' | 'canceled';
  deleted?: true;
  _accountId: string;
  _mode: Mode;
  _deleted: boolean;
}

/**
 * A payment method as the API renders it, also inside the charges made with it. A live one
 * carries no `deleted` field at all (as customers), only a deleted one `deleted: true`.
 */
export function paymentMethodObject(details: PaymentMethodDetails): Record<string, unknown> {
  return {
    id: details.paymentMethodId,
    created: Math.floor(Date.parse(details.createdAt) / 1000),
    objectType: 'paymentMethod',
    clientObjectId: details.clientObjectId,
    type: details.type,
    billing: details.billing,
    customerId: details.customerId,
    status: 'chargeable',
    metadata: details.metadata,
  };
}

/** A payment method as GET /payment-methods/{id} renders it. */
export const paymentMethodView: ObjectView<PaymentMethodDoc> = {
  eventTypes: new Set(paymentMethodEventTypes),
  objectId: (event) => (event.data as { paymentMethodId?: string }).paymentMethodId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & PaymentMethodEvent;
    switch (event.type) {
      case 'PaymentMethodCreated':
        return {
          ...(paymentMethodObject(event.data) as PaymentMethodDoc),
          ...tenantFields(recorded),
          _deleted: false,
        };
      case 'PaymentMethodDeleted':
        // Soft delete: still readable, no longer chargeable.
        return current ? { ...current, status: 'canceled', deleted: true, _deleted: true } : current;
      default:
        return current;
    }
  },
};
