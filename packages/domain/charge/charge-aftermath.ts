import type { DisputeEvent, DisputeEvidence, DisputeReason, DisputeStatus } from './dispute-events.ts';
import type { FraudWarningReceived } from './fraud-warning-events.ts';
import type { NetworkOutcomeDue, NetworkOutcomesExpected } from './network-outcome-events.ts';

/**
 * What happens to a charge after it was made, reported by the card network: announced outcomes,
 * the dispute, the fraud warning. Part of the charge's state (same stream); the fields are absent
 * until something happened.
 */
export interface DisputeState {
  disputeId: string;
  amount: number;
  currency: string;
  status: DisputeStatus;
  reason: DisputeReason;
  acceptedAsLost: boolean;
  evidence: DisputeEvidence | null;
}

export interface ChargeAftermath {
  /** Outcomes the network announced, one per kind (a later announcement of a kind replaces it), one per refund for refund lookups. */
  networkOutcomes?: NetworkOutcomeDue[];
  dispute?: DisputeState;
  fraudWarningId?: string;
}

export type ChargeAftermathEvent = NetworkOutcomesExpected | DisputeEvent | FraudWarningReceived;

/** Folds an aftermath event into a charge's state (a fraud warning also sets its `fraudDetails`). */
export function evolveAftermath<State extends ChargeAftermath & { fraudDetails: { status: string; score: number } }>(
  state: State,
  event: ChargeAftermathEvent,
): State {
  switch (event.type) {
    case 'NetworkOutcomesExpected': {
      // One announcement per kind, and per refund for refund lookups.
      const key = (outcome: NetworkOutcomeDue) =>
        outcome.kind === 'refund' ? `refund:${outcome.refundId}` : outcome.kind;
      const announced = new Set(event.data.outcomes.map(key));
      return {
        ...state,
        networkOutcomes: [
          ...(state.networkOutcomes ?? []).filter((outcome) => !announced.has(key(outcome))),
          ...event.data.outcomes,
        ],
      };
    }
    case 'DisputeOpened': {
      const { disputeId, amount, currency, reason, status } = event.data;
      return {
        ...state,
        dispute: { disputeId, amount, currency, reason, status, acceptedAsLost: false, evidence: null },
      };
    }
    case 'DisputeEvidenceSubmitted':
      return state.dispute
        ? {
            ...state,
            dispute: {
              ...state.dispute,
              evidence: event.data.evidence,
              status: event.data.status ?? state.dispute.status,
            },
          }
        : state;
    case 'DisputeWon':
      return state.dispute ? { ...state, dispute: { ...state.dispute, status: event.data.status } } : state;
    case 'DisputeLost':
      return state.dispute
        ? {
            ...state,
            dispute: { ...state.dispute, status: event.data.status, acceptedAsLost: event.data.acceptedAsLost },
          }
        : state;
    case 'FraudWarningReceived':
      return { ...state, fraudWarningId: event.data.fraudWarningId, fraudDetails: event.data.fraudDetails };
  }
}
