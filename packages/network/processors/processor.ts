import type { CardBrand, CardType } from '../../domain/card/card-snapshot.ts';
import type { DisputeEvidence } from '../../domain/charge/dispute-events.ts';
import type { CardErrorCode } from '../../domain/errors.ts';
import type { CardPayment } from '../card-network.ts';

/**
 * An upstream payment processor that live mode sends payments to (`docs/architecture.md`, "Card
 * network"): one adapter per public processor API (Shift4, Stripe), configured per account with the
 * account's own credentials. The live card network routes each request to one of the account's
 * processors through this port.
 *
 * Every request carries `reference`: the id this service gave the payment (charge, refund or credit
 * id, derived from the recorded intent). An adapter sends it as the processor's idempotency key where
 * the processor honours one *and* in the processor object's metadata, so `find…` can look up an
 * earlier attempt after a crash, a timeout or a lost answer even where the processor has no
 * idempotency.
 *
 * Failures are thrown, never answered:
 * - `ProcessorUnreachable`: the request provably never reached the processor (connection refused,
 *   DNS, TLS handshake): nothing can have been taken, the next processor may be tried.
 * - `ProcessorOutcomeUnknown`: the request may have reached it (timeout after sending, connection
 *   reset, 5xx): the payment stays pending until `find…` settles it; never fail over then.
 * A decline is an answer (`approved: false`), not a failure.
 */

export type ProcessorKind = 'shift4' | 'stripe';

/** What an operator configures for one processor of an account (the secret key lives in the vault). */
export interface ProcessorSettings {
  kind: ProcessorKind;
  /** Base URL of the processor's API, e.g. `https://api.shift4.com`. */
  url: string;
  secretKey: string;
  /** Request timeout; past it the outcome is unknown. */
  timeoutMs: number;
}

export interface ProcessorDecline {
  /** The spec's card error code the processor's answer maps to. */
  code: CardErrorCode;
  message: string;
  /** The processor's own decline code, kept in the charge's failure fields. */
  processorCode: string | null;
}

/** A card payment (an authorization or a credit) as a processor is sent it. */
export interface ProcessorCardPayment extends CardPayment {
  /**
   * The processor's own reference of this card, kept there by `keepCard` when the card came in with
   * its CVC: a payment of a stored card addresses it instead of sending the number without a CVC.
   */
  storedCard?: string;
  description?: string;
}

export interface ProcessorAuthorizationRequest extends ProcessorCardPayment {
  /** false: authorize only (captured later with `capture`). */
  capture: boolean;
}

/** What the processor says about a card (its BIN data), where it says it; absent fields: not said. */
export interface ProcessorCardInfo {
  brand?: CardBrand;
  type?: CardType;
  /** Two-letter ISO country of the issuer. */
  country?: string;
  issuer?: string;
}

export interface ProcessorAuthorization {
  approved: boolean;
  /** The processor's id of the payment (charge id, payment intent id); null when it made none. */
  processorId: string | null;
  decline: ProcessorDecline | null;
  /** Whether the processor holds the amount captured. */
  captured: boolean;
  /** The card as the processor's answer describes it, when it does. */
  card?: ProcessorCardInfo | null;
}

/** A card to keep at the processor for later payments without its CVC (stored credentials). */
export interface ProcessorKeepCardRequest {
  /** This service's reference of the card (idempotency key and metadata). */
  reference: string;
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  cardholderName?: string;
}

export interface ProcessorStoredCard {
  /** The processor's reference of the kept card, which `storedCard` of a later payment names. */
  storedCard: string;
  card: ProcessorCardInfo | null;
}

export interface ProcessorRefundRequest {
  reference: string;
  processorId: string;
  amount: number;
  currency: string;
}

export interface ProcessorRefund {
  processorRefundId: string;
  status: 'successful' | 'failed';
}

export type ProcessorCreditRequest = ProcessorCardPayment;

export interface ProcessorCredit {
  approved: boolean;
  processorId: string | null;
  decline: ProcessorDecline | null;
}

/** One payment as the processor records it, for reconciliation. */
export interface ProcessorRecord {
  kind: 'charge' | 'refund' | 'credit';
  processorId: string;
  /** This service's reference from the processor's metadata, when it carries one. */
  reference: string | null;
  /** For a refund: the processor id of the refunded charge. */
  chargeProcessorId: string | null;
  amount: number;
  currency: string;
  status: 'successful' | 'pending' | 'failed';
  /** Amount refunded so far (charges). */
  amountRefunded: number;
  created: Date;
}

export interface Processor {
  readonly kind: ProcessorKind;
  /**
   * Keeps a card at the processor (a customer of the processor holding it) while its CVC is at
   * hand, so that later payments of it (a saved card, a token, a renewal) are card-on-file payments
   * of the kept card; this service never keeps a CVC.
   */
  keepCard(request: ProcessorKeepCardRequest): Promise<ProcessorStoredCard>;
  /**
   * Sets the expiry of a card kept with `keepCard` (`storedCard`), so that its later payments
   * there carry it. Setting the same expiry again changes nothing. Throws `ProcessorRefused` when
   * the processor will not (it no longer keeps the card).
   */
  updateStoredCardExpiry(request: {
    reference: string;
    storedCard: string;
    expMonth: number;
    expYear: number;
  }): Promise<void>;
  authorize(request: ProcessorAuthorizationRequest): Promise<ProcessorAuthorization>;
  /**
   * The earlier attempt with this reference, or null when the processor never made one. `since`:
   * when the intent was recorded (no attempt can be older), for processors that must search a list.
   */
  findAuthorization(reference: string, since?: Date): Promise<ProcessorAuthorization | null>;
  capture(request: { reference: string; processorId: string; amount: number; currency: string }): Promise<void>;
  refund(request: ProcessorRefundRequest): Promise<ProcessorRefund>;
  findRefund(reference: string, processorId: string): Promise<ProcessorRefund | null>;
  credit(request: ProcessorCreditRequest): Promise<ProcessorCredit>;
  findCredit(reference: string, since?: Date): Promise<ProcessorCredit | null>;
  /**
   * Sends the merchant's evidence for the dispute of a charge the processor holds (`processorId`),
   * which the processor then decides and reports through its notifications. `reference`: this
   * service's dispute id. Throws `ProcessorRefused` when the processor answered that it will not
   * take it (no such dispute there, already answered).
   */
  submitDisputeEvidence(request: { reference: string; processorId: string; evidence: DisputeEvidence }): Promise<void>;
  /** The processor's charges, refunds and credits created in the window, for reconciliation. */
  records(window: { from: Date; to: Date }): AsyncIterable<ProcessorRecord>;
  /**
   * What a notification the processor sent to this service's processor-events endpoint reports,
   * verified the way the processor documents it (`webhookSecret`: the endpoint's signing secret,
   * where the processor signs); null for a notification about something this service does not
   * follow. Throws `NotificationRefused` for one that cannot be trusted.
   */
  notice(notification: ProcessorNotification, webhookSecret: string | null): Promise<ProcessorNotice | null>;
}

/** A notification (webhook request) from a processor, as it arrived: the raw body and the headers. */
export interface ProcessorNotification {
  body: Buffer;
  /** By lower-case name. */
  headers: Record<string, string | undefined>;
}

/** The processor's charge a notice is about: its id there, and this service's reference from its metadata. */
export interface ProcessorChargeOfNotice {
  processorId: string;
  reference: string | null;
}

/** A refund of the charge as the processor records it; `reference` is set for refunds this service made. */
export interface ProcessorRefundOfNotice {
  processorRefundId: string;
  reference: string | null;
  amount: number;
  currency: string;
  status: 'successful' | 'pending' | 'failed';
}

/**
 * What the processor reports about a dispute: opened (as a chargeback, or as a retrieval request
 * that withdraws nothing yet), won or lost. `reason` is the spec's reason (GENERAL when the
 * processor's has no counterpart).
 */
export interface ProcessorDisputeOfNotice {
  processorDisputeId: string;
  amount: number;
  currency: string;
  reason: string;
  stage: 'chargeback' | 'retrieval_request' | 'won' | 'lost';
}

/** A verified notification: the refunds of a charge, or its dispute. */
export type ProcessorNotice =
  | { kind: 'refunds'; charge: ProcessorChargeOfNotice; refunds: ProcessorRefundOfNotice[] }
  | { kind: 'dispute'; charge: ProcessorChargeOfNotice; dispute: ProcessorDisputeOfNotice };

/** A notification that cannot be trusted (forged, unsigned, stale, unknown to the processor): nothing is recorded. */
export class NotificationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationRefused';
  }
}

/** The processor answered that it will not carry out the request: nothing was done there. */
export class ProcessorRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProcessorRefused';
  }
}

/** The request never reached the processor: nothing was taken, the next processor may be tried. */
export class ProcessorUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProcessorUnreachable';
  }
}

/** The request may have reached the processor: the outcome must be looked up, never retried elsewhere. */
export class ProcessorOutcomeUnknown extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProcessorOutcomeUnknown';
  }
}
