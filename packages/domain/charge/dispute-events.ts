import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';

/**
 * Events of a charge's dispute. A dispute lives in its charge's stream (`charge-<chargeId>`), like
 * refunds: a charge has at most one, it opens exactly once (decided on the charge's state under
 * optimistic concurrency), and the charge's `disputed` / `dispute` fields change with it.
 */

/**
 * Spec: Dispute `status`. A dispute opens as a chargeback (`CHARGEBACK_NEW`) or as a retrieval
 * request (`RETRIEVAL_REQUEST_NEW`: the issuer asks for the sale's documents, no funds move yet);
 * evidence answers a retrieval request (`RETRIEVAL_REQUEST_REPRESENTED`, final) or contests a
 * chargeback (the network then decides it won or lost).
 */
export type DisputeStatus =
  | 'RETRIEVAL_REQUEST_NEW'
  | 'RETRIEVAL_REQUEST_REPRESENTED'
  | 'CHARGEBACK_NEW'
  | 'CHARGEBACK_REPRESENTED_SUCCESSFULLY'
  | 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY';

/** Spec: Dispute `reason`. */
export type DisputeReason =
  | 'FRAUDULENT'
  | 'UNRECOGNIZED'
  | 'DUPLICATE'
  | 'SUBSCRIPTION_CANCELED'
  | 'PRODUCT_NOT_RECEIVED'
  | 'PRODUCT_UNACCEPTABLE'
  | 'CREDIT_NOT_PROCESSED'
  | 'GENERAL';

/** The evidence fields of the Shift4 client libraries; every one is free text. */
export const disputeEvidenceFields = [
  'productDescription',
  'customerName',
  'customerEmail',
  'customerPurchaseIp',
  'customerSignature',
  'billingAddress',
  'receipt',
  'customerCommunication',
  'serviceDate',
  'serviceDocumentation',
  'duplicateChargeId',
  'duplicateChargeDocumentation',
  'duplicateChargeExplanation',
  'refundPolicy',
  'refundPolicyDisclosure',
  'refundRefusalExplanation',
  'cancellationPolicy',
  'cancellationPolicyDisclosure',
  'cancellationRefusalExplanation',
  'accessActivityLogs',
  'shippingAddress',
  'shippingDate',
  'shippingCarrier',
  'shippingTrackingNumber',
  'shippingDocumentation',
  'uncategorizedText',
  'uncategorizedFile',
] as const;

export type DisputeEvidenceField = (typeof disputeEvidenceFields)[number];
export type DisputeEvidence = Partial<Record<DisputeEvidenceField, string>>;

export type DisputeOpened = DomainEvent<
  'DisputeOpened',
  {
    chargeId: string;
    disputeId: string;
    amount: number;
    currency: string;
    reason: DisputeReason;
    status: 'CHARGEBACK_NEW' | 'RETRIEVAL_REQUEST_NEW';
  }
>;
/**
 * The merchant contested a chargeback, and the network reviews it (a `dispute_decision` outcome
 * follows); or answered a retrieval request (`status: 'RETRIEVAL_REQUEST_REPRESENTED'`, nothing follows).
 */
export type DisputeEvidenceSubmitted = DomainEvent<
  'DisputeEvidenceSubmitted',
  { chargeId: string; disputeId: string; evidence: DisputeEvidence; status?: 'RETRIEVAL_REQUEST_REPRESENTED' }
>;
export type DisputeWon = DomainEvent<
  'DisputeWon',
  { chargeId: string; disputeId: string; status: 'CHARGEBACK_REPRESENTED_SUCCESSFULLY' }
>;
/**
 * Lost on review, or accepted as lost by the merchant (`acceptedAsLost`). `fundsWithdrawn`: a
 * retrieval request accepted as lost, whose funds are withdrawn only now.
 */
export type DisputeLost = DomainEvent<
  'DisputeLost',
  {
    chargeId: string;
    disputeId: string;
    status: 'CHARGEBACK_REPRESENTED_UNSUCCESSFULLY';
    acceptedAsLost: boolean;
    fundsWithdrawn?: true;
  }
>;

export type DisputeEvent = DisputeOpened | DisputeEvidenceSubmitted | DisputeWon | DisputeLost;

export const disputeEventTypes = everyType<DisputeEvent>()([
  'DisputeOpened',
  'DisputeEvidenceSubmitted',
  'DisputeWon',
  'DisputeLost',
]);
