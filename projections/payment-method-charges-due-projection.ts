import type { PaymentMethodChargeEvent } from '../packages/domain/charge/payment-method-charge.ts';
import type { Mode } from '../packages/domain/mode.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { Projection } from '../packages/projection-runtime/projection.ts';
import { ownedCollections, readModelCollection } from '../packages/projection-runtime/read-model-collection.ts';
import type { Document } from '../packages/readstore/document-store.ts';
import { dueListKeys } from './due-list.ts';
import { eventProjection } from './event-projection.ts';

/**
 * A pending payment-method charge and when the worker must look at it again: at its expiry while
 * the payer has not decided, at its confirmation while the provider is processing. What the
 * worker's scheduler scans (docs/architecture.md, "Jobs are derived from state"). Its id is the
 * charge id.
 *
 * A due list (`due-list.ts`).
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

/** `payment-method-charges-due`: pending payment-method charges until they are completed. */
export const paymentMethodChargesDueProjection: Projection = eventProjection<PaymentMethodChargeEvent>({
  name: 'payment-method-charges-due',
  collections: ownedCollections(paymentMethodChargesDueCollection),
  on: {
    ChargePending: (event, tx) =>
      tx.put(paymentMethodChargesDueCollection, dueDoc(event, event.data.chargeId, event.data.expiresAt)),
    PaymentMethodChargeProcessing: (event, tx) =>
      tx.put(paymentMethodChargesDueCollection, dueDoc(event, event.data.chargeId, event.data.settlesAt)),
    PaymentMethodChargeAuthorized: (event, tx) => tx.delete(paymentMethodChargesDueCollection, event.data.chargeId),
    PaymentMethodChargeFailed: (event, tx) => tx.delete(paymentMethodChargesDueCollection, event.data.chargeId),
  },
});

/** Business time drives the due time only as a delay: a test clock's frozen time does not stop expiry. */
function dueDoc(event: RecordedEvent, chargeId: string, dueAt: string): PaymentMethodChargeDueDoc {
  const delayMs = Math.max(0, Date.parse(dueAt) - Date.parse(event.metadata.occurredAt));
  const dueAtMs = event.recordedAt.getTime() + delayMs;
  return {
    id: chargeId,
    ...dueListKeys(dueAtMs, event.position),
    chargeId,
    dueAtMs,
    _accountId: event.metadata.accountId,
    _mode: event.metadata.mode,
  };
}
