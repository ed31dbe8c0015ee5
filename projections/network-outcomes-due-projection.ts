import { disputeEventTypes } from '../packages/domain/charge/dispute-events.ts';
import { fraudWarningEventTypes } from '../packages/domain/charge/fraud-warning-events.ts';
import {
  networkOutcomeEventTypes,
  networkOutcomeJobId,
  type NetworkOutcomeKind,
  type NetworkOutcomesExpected,
} from '../packages/domain/charge/network-outcome-events.ts';
import type { RecordedEvent } from '../packages/eventstore/event-store.ts';
import type { CreatedRange, Document } from '../packages/readstore/document-store.ts';
import type { Projection, ProjectionTransaction } from '../packages/projection/projection.ts';
import type { Mode } from '../packages/domain/mode.ts';

/**
 * One announced network outcome not delivered yet (a dispute to open, a fraud warning, a dispute
 * decision): what the worker's scheduler scans (`docs/architecture.md`, "Jobs are derived from state"). Its id is the job id.
 *
 * Lists are newest first by (`created`, `_seq`); this internal collection stores both negated
 * (`created` = -due second), so that a plain list gives the earliest due first and
 * `created >= -now` selects what is due by now.
 */
export interface NetworkOutcomeDueDoc extends Document {
  chargeId: string;
  kind: NetworkOutcomeKind;
  /**
   * When it is due in real time, ms since epoch: when the announcement was recorded plus the
   * network's delay (`dueAt` - `occurredAt` of the event). The same as the recorded business `dueAt`
   * except for charges on a test clock, whose frozen time does not drive network outcomes.
   */
  dueAtMs: number;
  _accountId: string;
  _mode: Mode;
}

export const NETWORK_OUTCOMES_DUE = 'network_outcomes_due';

/** The `created` range of outcomes due by `nowMs` (whole seconds: callers check `dueAtMs`). */
export const outcomesDueBy = (nowMs: number): CreatedRange => ({ gte: -Math.floor(nowMs / 1000) });

/** Which outcome each delivery event settles. */
const settles: Readonly<Record<string, NetworkOutcomeKind>> = {
  DisputeOpened: 'dispute',
  FraudWarningReceived: 'fraud_warning',
  DisputeWon: 'dispute_decision',
  DisputeLost: 'dispute_decision',
};

const handled = new Set<string>([...networkOutcomeEventTypes, ...disputeEventTypes, ...fraudWarningEventTypes]);

/** `network-outcomes-due`: announced network outcomes until they are delivered (or moot). */
export const networkOutcomesDueProjection: Projection = {
  name: 'network-outcomes-due',
  collections: { [NETWORK_OUTCOMES_DUE]: {} },
  handles: (type) => handled.has(type),
  async apply(event: RecordedEvent, tx: ProjectionTransaction) {
    const chargeId = (event.data as { chargeId: string }).chargeId;
    if (event.type === 'NetworkOutcomesExpected') {
      for (const outcome of (event.data as NetworkOutcomesExpected['data']).outcomes) {
        const delayMs = Math.max(0, Date.parse(outcome.dueAt) - Date.parse(event.metadata.occurredAt));
        const dueAtMs = event.recordedAt.getTime() + delayMs;
        const doc: NetworkOutcomeDueDoc = {
          id: networkOutcomeJobId(chargeId, outcome.kind),
          created: -Math.floor(dueAtMs / 1000),
          _seq: -event.position,
          chargeId,
          kind: outcome.kind,
          dueAtMs,
          _accountId: event.metadata.accountId,
          _mode: event.metadata.mode,
        };
        tx.put(NETWORK_OUTCOMES_DUE, doc);
      }
      return;
    }
    const settled = settles[event.type];
    if (settled) tx.delete(NETWORK_OUTCOMES_DUE, networkOutcomeJobId(chargeId, settled));
  },
};
