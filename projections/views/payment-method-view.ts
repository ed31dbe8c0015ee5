import type {
  PaymentMethodDetails,
  PaymentMethodEvent,
  PaymentMethodType,
} from '../../packages/domain/payment-method/payment-method-events.ts';
import type { Billing } from '../../packages/domain/charge/charge-events.ts';
import type { Metadata } from '../../packages/domain/metadata.ts';
import { tenantFields, type TenantScope } from '../event-time.ts';
import { objectView, fromEventAlone } from './object-view.ts';

/**
 * A payment method as the API renders it, also inside the charges made with it. A live one
 * carries no `deleted` field at all (as customers), only a deleted one `deleted: true`.
 */
export interface PaymentMethodObject {
  id: string;
  created: number;
  objectType: 'paymentMethod';
  clientObjectId: string;
  type: PaymentMethodType;
  billing: Billing | null;
  customerId: string | null;
  /** `chargeable` while usable; `canceled` once deleted (docs/payments.md). */
  status: 'chargeable' | 'canceled';
  metadata: Metadata;
  deleted?: true;
}

export interface PaymentMethodDoc extends PaymentMethodObject, TenantScope {
  _deleted: boolean;
}

export function paymentMethodObject(details: PaymentMethodDetails): PaymentMethodObject {
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
export const paymentMethodView = objectView<PaymentMethodDoc, PaymentMethodEvent>({
  objectId: (event) => event.data.paymentMethodId,
  on: {
    PaymentMethodCreated: fromEventAlone((event) => ({
      ...paymentMethodObject(event.data),
      ...tenantFields(event),
      _deleted: false,
    })),
    // Soft delete: still readable, no longer chargeable.
    PaymentMethodDeleted: (current) => current && { ...current, status: 'canceled', deleted: true, _deleted: true },
  },
});
