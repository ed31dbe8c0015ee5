import type { CardChargeSettled, RefundSettled } from '../packages/domain/charge/charge-events.ts';
import type { CreditPending, CreditSettled } from '../packages/domain/credit/credit-events.ts';
import type { DisputeEvent } from '../packages/domain/charge/dispute-events.ts';
import type { FraudWarningReceived } from '../packages/domain/charge/fraud-warning-events.ts';
import {
  jobIdOfOutcome,
  networkOutcomeJobId,
  type NetworkOutcomeKind,
  type NetworkOutcomesExpected,
} from '../packages/domain/charge/network-outcome-events.ts';
import type { Mode } from '../packages/domain/mode.ts';
import type { ProjectedEvent, ProjectionTransaction } from '../packages/projection-runtime/projection.ts';
import { ownedCollections, readModelCollection } from '../packages/projection-runtime/read-model-collection.ts';
import { dueListKeys } from './due-list.ts';
import { eventProjection } from './event-projection.ts';

/**
 * One announced network outcome not delivered yet (a dispute to open, a fraud warning, a dispute
 * decision, a lookup of a pending live charge or refund): what the worker's scheduler scans (`docs/disputes.md`), a due list (`due-list.ts`).
 * Its id is the job id.
 */
export interface NetworkOutcomeDueDoc {
  id: string;
  created: number;
  _seq: number;
  /** The charge; for a `credit` lookup, the credit. */
  chargeId: string;
  kind: NetworkOutcomeKind;
  /** The refund a `refund` lookup settles (absent for every other kind). */
  refundId?: string;
  /**
   * When it is due in real time, ms since epoch: when the announcement was recorded plus the
   * network's delay (`dueAt` - `occurredAt` of the event). The same as the recorded business `dueAt`
   * except for charges on a test clock, whose frozen time does not drive network outcomes.
   */
  dueAtMs: number;
  _accountId: string;
  _mode: Mode;
}

export const networkOutcomesDueCollection = readModelCollection<NetworkOutcomeDueDoc>('network_outcomes_due');

/** A delivered outcome is no longer due. */
const settles =
  (kind: NetworkOutcomeKind) =>
  (event: ProjectedEvent<DisputeEvent | FraudWarningReceived>, tx: ProjectionTransaction): void =>
    tx.delete(networkOutcomesDueCollection, networkOutcomeJobId(event.data.chargeId, kind));

/** `network-outcomes-due`: announced network outcomes until they are delivered (or moot). */
export const networkOutcomesDueProjection = eventProjection<
  | NetworkOutcomesExpected
  | DisputeEvent
  | FraudWarningReceived
  | CardChargeSettled
  | RefundSettled
  | CreditPending
  | CreditSettled
>({
  name: 'network-outcomes-due',
  collections: ownedCollections(networkOutcomesDueCollection),
  on: {
    NetworkOutcomesExpected(event, tx) {
      const { chargeId } = event.data;
      for (const outcome of event.data.outcomes) {
        const delayMs = Math.max(0, Date.parse(outcome.dueAt) - Date.parse(event.metadata.occurredAt));
        const dueAtMs = event.recordedAt.getTime() + delayMs;
        tx.put(networkOutcomesDueCollection, {
          id: jobIdOfOutcome(chargeId, outcome),
          ...dueListKeys(dueAtMs, event.position),
          chargeId,
          kind: outcome.kind,
          ...(outcome.kind === 'refund' ? { refundId: outcome.refundId } : {}),
          dueAtMs,
          _accountId: event.metadata.accountId,
          _mode: event.metadata.mode,
        });
      }
    },
    DisputeOpened: settles('dispute'),
    FraudWarningReceived: settles('fraud_warning'),
    DisputeWon: settles('dispute_decision'),
    DisputeLost: settles('dispute_decision'),
    CardChargeSettled: (event, tx) =>
      tx.delete(networkOutcomesDueCollection, networkOutcomeJobId(event.data.chargeId, 'authorization')),
    // A pending live credit's lookup: `chargeId` holds the credit's id, the one object it settles.
    CreditPending(event, tx) {
      const { creditId, lookupDueAt } = event.data;
      const delayMs = Math.max(0, Date.parse(lookupDueAt) - Date.parse(event.metadata.occurredAt));
      const dueAtMs = event.recordedAt.getTime() + delayMs;
      tx.put(networkOutcomesDueCollection, {
        id: networkOutcomeJobId(creditId, 'credit'),
        ...dueListKeys(dueAtMs, event.position),
        chargeId: creditId,
        kind: 'credit',
        dueAtMs,
        _accountId: event.metadata.accountId,
        _mode: event.metadata.mode,
      });
    },
    CreditSettled: (event, tx) =>
      tx.delete(networkOutcomesDueCollection, networkOutcomeJobId(event.data.creditId, 'credit')),
    RefundSettled: (event, tx) =>
      tx.delete(networkOutcomesDueCollection, networkOutcomeJobId(event.data.chargeId, 'refund', event.data.refundId)),
    // Evidence asks the network for a decision: the `dispute_decision` announcement follows it.
    DisputeEvidenceSubmitted: () => undefined,
  },
});
