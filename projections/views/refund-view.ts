import type { RefundRequested, RefundSettled, RefundUpdated } from '../../packages/domain/charge/charge-events.ts';
import type { Metadata } from '../../packages/domain/metadata.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { objectView, fromEventAlone } from './object-view.ts';

export type RefundEvent = RefundRequested | RefundSettled | RefundUpdated;

/** A refund as GET /refunds/{id} renders it (spec: Refund). */
export interface RefundObject {
  id: string;
  created: number;
  objectType: 'refund';
  amount: number;
  currency: string;
  charge: string;
  reason: 'fraudulent' | null;
  /**
   * `pending` between the reservation and the network's answer: inside one request, or in live mode
   * until the lookup at the processor settles a refund whose answer was lost.
   */
  status: 'pending' | 'successful' | 'failed';
  metadata: Metadata;
}

export interface RefundDoc extends RefundObject, TenantScope {}

/** A refund: lives in its charge's stream, addressed by its own id. */
export const refundView = objectView<RefundDoc, RefundEvent>({
  objectId: (event) => event.data.refundId,
  on: {
    RefundRequested: fromEventAlone((event) => ({
      id: event.data.refundId,
      created: occurredAtSeconds(event),
      objectType: 'refund',
      amount: event.data.amount,
      currency: event.data.currency,
      charge: event.data.chargeId,
      reason: event.data.reason,
      status: 'pending',
      metadata: event.data.metadata,
      ...tenantFields(event),
    })),
    RefundSettled: (current, event) => current && { ...current, status: event.data.status },
    RefundUpdated: (current, event) => current && { ...current, metadata: event.data.metadata },
  },
});
