import type { FraudWarningReceived } from '../../packages/domain/charge/fraud-warning-events.ts';
import { fraudWarningEventTypes } from '../../packages/domain/charge/fraud-warning-events.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import type { ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

/** GET /fraud-warnings/{id}: the network's warning that a charge is probably fraudulent. */
export interface FraudWarningDoc extends Document {
  objectType: 'fraud_warning';
  /** The charge's id. */
  charge: string;
  /** Whether the charge could still be refunded (captured, not fully refunded, not disputed) when the warning arrived. */
  actionable: boolean;
  _accountId: string;
  _mode: Mode;
}

/** A fraud warning: lives in its charge's stream, addressed by its own id; never changes. */
export const fraudWarningView: ObjectView<FraudWarningDoc> = {
  eventTypes: new Set(fraudWarningEventTypes),
  objectId: (event) => (event.data as { fraudWarningId?: string }).fraudWarningId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & FraudWarningReceived;
    if (event.type !== 'FraudWarningReceived') return current;
    return {
      id: event.data.fraudWarningId,
      created: occurredAtSeconds(recorded),
      objectType: 'fraud_warning',
      charge: event.data.chargeId,
      actionable: event.data.actionable,
      ...tenantFields(recorded),
    };
  },
};
