import {
  paymentMethodChargeEventTypes,
  type PaymentMethodChargeEvent,
} from '../packages/domain/charge/payment-method-charge.ts';
import type { Mode } from '../packages/domain/mode.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import { ownedCollections, readModelCollection } from '../packages/projection/read-model-collection.ts';
import type { CreatedRange, Document } from '../packages/readstore/document-store.ts';

/**
 * A pending payment-method charge and when the worker must look at it again: at its expiry while
 * the payer has not decided, at its confirmation while the provider is processing. What the
 * worker's scheduler scans (docs/architecture.md, "Jobs are derived from state"). Its id is the
 * charge id.
 *
 * Stored with `created` = -due second and `_seq` = -position, so that a plain (newest-first) list
 * gives the earliest due first and `created >= -now` selects what is due by now.
 */
export interface PaymentMethodChargeDueDoc extends Document {
  chargeId: string;
  /** Real time, ms since epoch: recorded time plus the business-time delay to the due time. */
  dueAtMs: number;
  _accountId: string;
  _mode: Mode;
}

export const paymentMethodChargesDueCollection =
  readModelCollection<PaymentMethodChargeDueDoc>('payment_method_charges_due');

/** The `created` range of charges due by `nowMs` (whole seconds: callers check `dueAtMs`). */
export const chargesDueBy = (nowMs: number): CreatedRange => ({ gte: -Math.floor(nowMs / 1000) });

const handled = new Set<string>(paymentMethodChargeEventTypes);

/** `payment-method-charges-due`: pending payment-method charges until they are completed. */
export const paymentMethodChargesDueProjection: Projection = {
  name: 'payment-method-charges-due',
  collections: ownedCollections(paymentMethodChargesDueCollection),
  handles: (type) => handled.has(type),
  apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = recorded as unknown as RecordedEvent & PaymentMethodChargeEvent;
    switch (event.type) {
      case 'ChargePending':
        tx.put(paymentMethodChargesDueCollection, dueDoc(recorded, event.data.chargeId, event.data.expiresAt));
        break;
      case 'PaymentMethodChargeProcessing':
        tx.put(paymentMethodChargesDueCollection, dueDoc(recorded, event.data.chargeId, event.data.settlesAt));
        break;
      case 'PaymentMethodChargeAuthorized':
      case 'PaymentMethodChargeFailed':
        tx.delete(paymentMethodChargesDueCollection, event.data.chargeId);
        break;
    }
    return Promise.resolve();
  },
};

/** Business time drives the due time only as a delay: a test clock's frozen time does not stop expiry. */
function dueDoc(event: RecordedEvent, chargeId: string, dueAt: string): PaymentMethodChargeDueDoc {
  const delayMs = Math.max(0, Date.parse(dueAt) - Date.parse(event.metadata.occurredAt));
  const dueAtMs = event.recordedAt.getTime() + delayMs;
  return {
    id: chargeId,
    created: -Math.floor(dueAtMs / 1000),
    _seq: -event.position,
    chargeId,
    dueAtMs,
    _accountId: event.metadata.accountId,
    _mode: event.metadata.mode,
  };
}
