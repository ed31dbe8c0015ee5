import type { DomainEvent } from '../decider.ts';
import type { DisputeReason } from './dispute-events.ts';
import type { FraudVerdict } from './fraud-warning-events.ts';
import { everyType } from '../event-types.ts';

/**
 * Outcomes the card network announces for later: a dispute or a fraud warning after a charge, the
 * decision on a contested dispute; and the lookup that settles a pending live charge. Recording them with their due time (business time of the
 * announcement plus the network's delay) is what lets the worker find them again from state, after
 * any restart or lost queue (`docs/architecture.md`, "Jobs are derived from state"); delivering one is a charge command that records nothing
 * the second time.
 */
/** `credit`: the lookup that settles a pending live credit (recorded by `CreditPending`, in the credit's stream). */
export type NetworkOutcomeKind =
  'dispute' | 'fraud_warning' | 'dispute_decision' | 'authorization' | 'refund' | 'credit';

/**
 * How a dispute opens: as a chargeback (the funds are withdrawn at once), or as a retrieval request
 * (the issuer first asks the merchant for the sale's documents; no funds move).
 */
export type DisputeStage = 'chargeback' | 'retrieval_request';

/**
 * What the network will report, and when (`dueAt`, ISO 8601). A dispute announced without `stage`
 * (recorded before retrieval requests existed) is a chargeback.
 */
export type NetworkOutcomeDue =
  | { kind: 'dispute'; dueAt: string; reason: DisputeReason; stage?: DisputeStage }
  | { kind: 'fraud_warning'; dueAt: string; fraudDetails: FraudVerdict }
  | { kind: 'dispute_decision'; dueAt: string; outcome: 'won' | 'lost' }
  /** A pending live charge's lookup at its processor: due once its request can no longer be running. */
  | { kind: 'authorization'; dueAt: string }
  /**
   * A live refund's lookup at the charge's processor, announced with the refund: due once its request
   * can no longer be running; moot once the refund is settled (the usual case, within its request).
   */
  | { kind: 'refund'; dueAt: string; refundId: string };

export type NetworkOutcomesExpected = DomainEvent<
  'NetworkOutcomesExpected',
  { chargeId: string; outcomes: NetworkOutcomeDue[] }
>;

export const networkOutcomeEventTypes = everyType<NetworkOutcomesExpected>()(['NetworkOutcomesExpected']);

/**
 * The job (and due-work) id of one outcome: one charge has at most one outcome of each kind, but
 * one refund lookup per refund.
 */
export const networkOutcomeJobId = (chargeId: string, kind: NetworkOutcomeKind, refundId?: string): string =>
  refundId === undefined ? `network-outcome:${chargeId}:${kind}` : `network-outcome:${chargeId}:${kind}:${refundId}`;

/** The job id of an announced outcome. */
export const jobIdOfOutcome = (chargeId: string, outcome: NetworkOutcomeDue): string =>
  networkOutcomeJobId(chargeId, outcome.kind, outcome.kind === 'refund' ? outcome.refundId : undefined);
