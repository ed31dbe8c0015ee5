import type {
  DisputeEvent,
  DisputeEvidence,
  DisputeReason,
  DisputeStatus,
} from '../../packages/domain/charge/dispute-events.ts';
import { occurredAtSeconds, tenantFields, type TenantScope } from '../event-time.ts';
import { objectView, publicObject, fromEventAlone } from './object-view.ts';

/** A dispute as its charge embeds it (spec: Dispute, without `charge`). */
export interface ChargeDisputeObject {
  id: string;
  created: number;
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
}

/**
 * A dispute as stored: `charge` holds the charge's id here; GET /disputes renders the charge object
 * in its place (`services/api/routes/dispute-routes.ts`), and the charge embeds the dispute without
 * it (`embeddedDispute`).
 */
export interface DisputeDoc extends ChargeDisputeObject, TenantScope {
  charge: string;
}

/** A dispute: lives in its charge's stream, addressed by its own id. */
export const disputeView = objectView<DisputeDoc, DisputeEvent>({
  objectId: (event) => event.data.disputeId,
  on: {
    DisputeOpened: fromEventAlone((event) => {
      const created = occurredAtSeconds(event);
      return {
        id: event.data.disputeId,
        created,
        objectType: 'dispute',
        updated: created,
        amount: event.data.amount,
        currency: event.data.currency,
        status: event.data.status,
        reason: event.data.reason,
        acceptedAsLost: false,
        evidence: null,
        evidenceDetails: { hasEvidence: false, submissionCount: 0 },
        charge: event.data.chargeId,
        ...tenantFields(event),
      };
    }),
    DisputeEvidenceSubmitted: (current, event) =>
      current && {
        ...current,
        updated: occurredAtSeconds(event),
        evidence: event.data.evidence,
        status: event.data.status ?? current.status,
        evidenceDetails: { hasEvidence: true, submissionCount: current.evidenceDetails.submissionCount + 1 },
      },
    DisputeWon: (current, event) =>
      current && { ...current, updated: occurredAtSeconds(event), status: event.data.status },
    DisputeLost: (current, event) =>
      current && {
        ...current,
        updated: occurredAtSeconds(event),
        status: event.data.status,
        acceptedAsLost: event.data.acceptedAsLost,
      },
  },
});

/** The dispute as its charge embeds it: everything but the charge itself. */
export function embeddedDispute(dispute: DisputeDoc): ChargeDisputeObject {
  const { charge: _charge, ...rest } = publicObject(dispute);
  return rest;
}
