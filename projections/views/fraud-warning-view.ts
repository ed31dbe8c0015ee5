import type { FraudWarningReceived } from '../../packages/domain/charge/fraud-warning-events.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { objectView, fromEventAlone } from './object-view.ts';

/** GET /fraud-warnings/{id}: the network's warning that a charge is probably fraudulent. */
export interface FraudWarningObject {
  id: string;
  created: number;
  objectType: 'fraud_warning';
  /** The charge's id. */
  charge: string;
  /** Whether the charge could still be refunded (captured, not fully refunded, not disputed) when the warning arrived. */
  actionable: boolean;
}

export interface FraudWarningDoc extends FraudWarningObject, TenantScope {}

/** A fraud warning: lives in its charge's stream, addressed by its own id; never changes. */
export const fraudWarningView = objectView<FraudWarningDoc, FraudWarningReceived>({
  objectId: (event) => event.data.fraudWarningId,
  on: {
    FraudWarningReceived: fromEventAlone((event) => ({
      id: event.data.fraudWarningId,
      created: occurredAtSeconds(event),
      objectType: 'fraud_warning',
      charge: event.data.chargeId,
      actionable: event.data.actionable,
      ...tenantFields(event),
    })),
  },
});
