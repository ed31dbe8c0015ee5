import type { ChargeEvent } from '../../packages/domain/charge/charge-events.ts';
import type { Metadata } from '../../packages/domain/metadata.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

export interface RefundDoc extends Document {
  objectType: 'refund';
  amount: number;
  currency: string;
  charge: string;
  reason: 'fraudulent' | null;
  /** `pending` only between the reservation and the network's answer, inside one request. */
  status: 'pending' | 'successful' | 'failed';
  metadata: Metadata;
  _accountId: string;
  _mode: Mode;
}

/** A refund: lives in its charge's stream, addressed by its own id. */
export const refundView: ObjectView<RefundDoc> = {
  eventTypes: new Set(['RefundRequested', 'RefundSettled', 'RefundUpdated']),
  objectId: (event) => (event.data as { refundId?: string }).refundId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & ChargeEvent;
    switch (event.type) {
      case 'RefundRequested':
        return {
          id: event.data.refundId,
          created: occurredAtSeconds(recorded),
          objectType: 'refund',
          amount: event.data.amount,
          currency: event.data.currency,
          charge: event.data.chargeId,
          reason: event.data.reason,
          status: 'pending',
          metadata: event.data.metadata,
          ...tenantFields(recorded),
        };
      case 'RefundSettled':
        return current ? { ...current, status: event.data.status } : current;
      case 'RefundUpdated':
        return current ? { ...current, metadata: event.data.metadata } : current;
      default:
        return current;
    }
  },
};
