import type { ChargeAuthorizationEvent } from '../packages/domain/charge/charge-authorization.ts';
import type { CardChargePending, ChargeFailed, ChargeSucceeded } from '../packages/domain/charge/charge-events.ts';
import type { CreditFailed, CreditPending, CreditSucceeded } from '../packages/domain/credit/credit-events.ts';
import type { CreditTransferEvent } from '../packages/domain/credit/credit-transfer.ts';
import type { Mode } from '../packages/domain/mode.ts';
import type { ProjectedEvent, ProjectionTransaction } from '../packages/projection-runtime/projection.ts';
import { ownedCollections, readModelCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { dueListKeys } from './due-list.ts';
import { eventProjection } from './event-projection.ts';

/** A charge's authorization or a credit's transfer. */
export type UnansweredIntentKind = 'charge' | 'credit';

/**
 * A live payment's intent that no outcome has followed yet (its request may have been cut short
 * by a crash): what the worker's scheduler scans, a due list (`due-list.ts`). It is due at the
 * intent's lookup time, then again at the time a lookup that found it nowhere named; the
 * payment's outcome, or the intent closed, takes it off. Its id is the job id.
 */
export interface UnansweredIntentDueDoc {
  id: string;
  created: number;
  _seq: number;
  kind: UnansweredIntentKind;
  /** The charge or credit id: the payment's reference at the processors. */
  paymentId: string;
  /** When it is due in real time, ms since epoch. */
  dueAtMs: number;
  _accountId: string;
  _mode: Mode;
}

export const unansweredIntentsDueCollection = readModelCollection<UnansweredIntentDueDoc>('unanswered_intents_due');

/** The due list's id (and job id) of a payment's intent. */
export const unansweredIntentJobId = (kind: UnansweredIntentKind, paymentId: string): string =>
  `unanswered-intent:${kind}:${paymentId}`;

type IntentEvent = ChargeAuthorizationEvent | CreditTransferEvent;

/** Due at `dueAt` (business time, ISO), measured in real time from when the event was recorded. */
function dueAt(kind: UnansweredIntentKind, paymentId: string, due: string, event: ProjectedEvent<IntentEvent>) {
  const delayMs = Math.max(0, Date.parse(due) - Date.parse(event.metadata.occurredAt));
  const dueAtMs = event.recordedAt.getTime() + delayMs;
  return {
    id: unansweredIntentJobId(kind, paymentId),
    ...dueListKeys(dueAtMs, event.position),
    kind,
    paymentId,
    dueAtMs,
    _accountId: event.metadata.accountId,
    _mode: event.metadata.mode,
  };
}

/** The payment's outcome is recorded (live mode only: test-mode intents are never listed). */
function answered(
  event: { metadata: { mode: Mode } },
  tx: ProjectionTransaction,
  kind: UnansweredIntentKind,
  paymentId: string,
): void {
  if (event.metadata.mode === 'live') tx.delete(unansweredIntentsDueCollection, unansweredIntentJobId(kind, paymentId));
}

/** Listed only when the intent names its lookup time (live mode). */
function started(
  event: ProjectedEvent<IntentEvent>,
  tx: ProjectionTransaction,
  kind: UnansweredIntentKind,
  paymentId: string,
  lookupDueAt: string | undefined,
): void {
  if (lookupDueAt !== undefined) tx.put(unansweredIntentsDueCollection, dueAt(kind, paymentId, lookupDueAt, event));
}

/** `unanswered-intents-due`: live intents of charges and credits until their outcome is recorded or they are closed. */
export const unansweredIntentsDueProjection = eventProjection<
  IntentEvent | ChargeSucceeded | ChargeFailed | CardChargePending | CreditSucceeded | CreditFailed | CreditPending
>({
  name: 'unanswered-intents-due',
  collections: ownedCollections(unansweredIntentsDueCollection),
  on: {
    ChargeAuthorizationStarted: (event, tx) =>
      started(event, tx, 'charge', event.data.chargeId, event.data.lookupDueAt),
    ChargeAuthorizationNotFound: (event, tx) =>
      tx.put(unansweredIntentsDueCollection, dueAt('charge', event.data.chargeId, event.data.nextLookupAt, event)),
    ChargeAuthorizationClosed: (event, tx) =>
      tx.delete(unansweredIntentsDueCollection, unansweredIntentJobId('charge', event.data.chargeId)),
    ChargeSucceeded: (event, tx) => answered(event, tx, 'charge', event.data.chargeId),
    ChargeFailed: (event, tx) => answered(event, tx, 'charge', event.data.chargeId),
    CardChargePending: (event, tx) => answered(event, tx, 'charge', event.data.chargeId),
    CreditTransferStarted: (event, tx) => started(event, tx, 'credit', event.data.creditId, event.data.lookupDueAt),
    CreditTransferNotFound: (event, tx) =>
      tx.put(unansweredIntentsDueCollection, dueAt('credit', event.data.creditId, event.data.nextLookupAt, event)),
    CreditTransferClosed: (event, tx) =>
      tx.delete(unansweredIntentsDueCollection, unansweredIntentJobId('credit', event.data.creditId)),
    CreditSucceeded: (event, tx) => answered(event, tx, 'credit', event.data.creditId),
    CreditFailed: (event, tx) => answered(event, tx, 'credit', event.data.creditId),
    CreditPending: (event, tx) => answered(event, tx, 'credit', event.data.creditId),
  },
});
