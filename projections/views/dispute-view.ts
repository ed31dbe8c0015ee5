import {
  disputeEventTypes,
  type DisputeEvent,
  type DisputeEvidence,
  type DisputeReason,
  type DisputeStatus,
} from '../../packages/domain/charge/dispute-events.ts';
import type { RecordedEvent } from '../../packages/eventstore/event-store.ts';
import type { Document } from '../../packages/readstore/document-store.ts';
import { occurredAtSeconds, tenantFields } from '../event-time.ts';
import { publicObject, type ObjectView } from './object-view.ts';
import type { Mode } from '../../packages/domain/mode.ts';

/**
 * A dispute as stored: `charge` holds the charge's id here; GET /disputes renders the charge object
 * in its place (`services/api/routes/dispute-routes.ts`), and the charge embeds the dispute without
 * it (`embeddedDispute`).
 */
export interface DisputeDoc extends Document {
  objectType: 'dispute';
  updated: number;
  amount: number;
  currency: string;
  status: DisputeStatus;
  reason: DisputeReason;
  acceptedAsLost: boolean;
  /** The evidence submitted, or null before any. */
  evidence: DisputeEvidence | null;
  evidenceDetails: { hasEvidence: boolean; submissionCount: number };
  charge: string;
  _accountId: string;
  _mode: Mode;
}

/** A dispute: lives in its charge's stream, addressed by its own id. */
export const disputeView: ObjectView<DisputeDoc> = {
  eventTypes: new Set(disputeEventTypes),
  objectId: (event) => (event.data as { disputeId?: string }).disputeId ?? null,
  fold(current, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent & DisputeEvent;
    const updated = occurredAtSeconds(recorded);
    if (event.type === 'DisputeOpened') {
      return {
        id: event.data.disputeId,
        created: updated,
        objectType: 'dispute',
        updated,
        amount: event.data.amount,
        currency: event.data.currency,
        status: event.data.status,
        reason: event.data.reason,
        acceptedAsLost: false,
        evidence: null,
        evidenceDetails: { hasEvidence: false, submissionCount: 0 },
        charge: event.data.chargeId,
        ...tenantFields(recorded),
      };
    }
    if (!current) return current;
    switch (event.type) {
      case 'DisputeEvidenceSubmitted':
        return {
          ...current,
          updated,
          evidence: event.data.evidence,
          evidenceDetails: { hasEvidence: true, submissionCount: current.evidenceDetails.submissionCount + 1 },
        };
      case 'DisputeWon':
        return { ...current, updated, status: event.data.status };
      case 'DisputeLost':
        return { ...current, updated, status: event.data.status, acceptedAsLost: event.data.acceptedAsLost };
    }
  },
};

/** The dispute as its charge embeds it: everything but the charge itself. */
export function embeddedDispute(dispute: DisputeDoc): Record<string, unknown> {
  const { charge: _charge, ...rest } = publicObject(dispute);
  return rest;
}
