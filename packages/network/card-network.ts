import type { AccountProcessor } from '../domain/account/account-events.ts';
import type { CardBrand, CardType, ProcessorCardRef } from '../domain/card/card-snapshot.ts';
import type { ChargeType, ThreeDSecureResult } from '../domain/charge/charge-events.ts';
import type { DisputeEvidence, DisputeReason } from '../domain/charge/dispute-events.ts';
import type { FraudVerdict } from '../domain/charge/fraud-warning-events.ts';
import type { DisputeStage } from '../domain/charge/network-outcome-events.ts';
import { GatewayError, type CardErrorCode } from '../domain/errors.ts';
import type { Mode } from '../domain/mode.ts';
import type { Tenant } from '../domain/tenant.ts';

/**
 * Card network port: everything the service asks of an acquirer / card network
 * (`docs/architecture.md`, "Card network"). The simulator answers until a real acquirer
 * implements the same port for live mode. Card numbers reach this port only in memory, revealed from the vault for the call.
 */

/** What the BIN (first digits) says about a card. */
export interface BinInfo {
  brand: CardBrand;
  type: CardType;
  /** Two-letter ISO country of the issuer, or null when unknown. */
  country: string | null;
  issuer: string | null;
}

/** Card data as entered, before validation. Strings as sent by clients. */
export interface CardEntry {
  number: string;
  expMonth: number;
  /** Four-digit year; callers turn two-digit years into 20YY first. */
  expYear: number;
  cvc?: string;
}

export interface CardValidationFailure {
  code: Extract<
    CardErrorCode,
    'invalid_number' | 'invalid_expiry_month' | 'invalid_expiry_year' | 'invalid_cvc' | 'expired_card'
  >;
  message: string;
}

export interface ThreeDSecureRequest {
  requireAttempt: boolean;
  requireEnrolledCard: boolean;
  requireSuccessfulLiabilityShiftForEnrolledCard: boolean;
  /**
   * Result of this service's own 3-D Secure verification of the token the charge uses, when it was
   * run for the charge's amount and currency (`three-d-secure.ts`).
   */
  verified?: ThreeDSecureInfo;
  /** Result of an external 3-D Secure service, when the merchant ran one. */
  external?: {
    version: string;
    eci: string;
    authenticationValue?: string;
    dsTransactionId?: string;
    acsTransactionId?: string;
    status: 'Y' | 'N' | 'A' | 'U' | 'R' | 'E';
  };
}

/** What the merchant demands of a card's 3-D Secure result (each flag explained in `three-d-secure.ts`). */
export type ThreeDSecureRequirements = Pick<
  ThreeDSecureRequest,
  'requireAttempt' | 'requireEnrolledCard' | 'requireSuccessfulLiabilityShiftForEnrolledCard'
>;

/** The 3-D Secure result as the charge records it. */
export type ThreeDSecureInfo = ThreeDSecureResult;

/** A payment to or from a card: what an authorization and a credit both carry, to the network and to a processor. */
export interface CardPayment {
  /**
   * The merchant's reference of this payment (the charge or credit id), unique per payment. The
   * network answers a repeated request with the same reference with its first answer instead of
   * paying again, and `findAuthorization` / `findCredit` look it up.
   */
  reference: string;
  number: string;
  expMonth: number;
  expYear: number;
  /** The CVC, when the request carries one (in memory only; processors may require it). */
  cvc?: string;
  /** Who initiates the payment (the spec's charge `type`), sent with a stored card's payment. */
  type?: ChargeType;
  amount: number;
  currency: string;
}

/**
 * Live mode: the account's processors as one request loaded them (`processorsOf`), so that every
 * call it makes about one payment (the intent's lookup times, the lookup of an earlier answer, the
 * routing) reads the same list, loaded once. A call not given them loads them itself.
 */
export interface LoadedProcessors {
  processors?: readonly AccountProcessor[];
}

/** A card payment as the network is asked for it: for a tenant, whose live mode routes it to its processors. */
interface NetworkCardPayment extends Tenant, CardPayment, LoadedProcessors {
  /** Live mode: where the account's processors keep this card (`keepCard`), when they do. */
  processorCards?: ProcessorCardRef[];
}

export interface AuthorizationRequest extends NetworkCardPayment {
  /** false: authorize only, captured later (default true). */
  capture?: boolean;
  /** ZIP of the card or billing address, for AVS. */
  zip: string | null;
  /** Whether any address was given (AVS `not_provided` otherwise). */
  addressProvided: boolean;
  threeDSecure: ThreeDSecureRequest | null;
  now: Date;
}

export type AvsResult = 'full_match' | 'partial_match' | 'no_match' | 'not_provided' | 'unavailable';
export type FraudStatus = 'safe' | 'suspicious' | 'fraudulent' | 'in_progress' | 'unknown';

/**
 * Something the network will report about the charge later (worker jobs deliver it), announced
 * with what it will say: the dispute's reason, the fraud warning's verdict.
 */
export type LaterNetworkEvent =
  | { kind: 'dispute'; afterMs: number; stage: DisputeStage; reason: DisputeReason }
  | { kind: 'fraud_warning'; afterMs: number; fraudDetails: FraudVerdict };

/** Evidence for a dispute, and what the dispute is at the time: a chargeback or a retrieval request. */
export interface DisputeEvidenceRequest {
  reference: string;
  stage: DisputeStage;
  evidence: DisputeEvidence;
}

/** The network's answer to a contested dispute: its decision, reported `afterMs` later. */
export interface RepresentmentOutcome {
  outcome: 'won' | 'lost';
  afterMs: number;
}

export interface AuthorizationOutcome {
  approved: boolean;
  /** The network's reference of this authorization; captures and refunds address it (not the card). */
  transactionId: string | null;
  /** Set when not approved. */
  failure: { code: CardErrorCode; message: string; issuerDeclineCode: string | null } | null;
  avsResult: AvsResult | null;
  fraud: { status: FraudStatus; score: number };
  threeDSecureInfo: ThreeDSecureInfo | null;
  later: LaterNetworkEvent[];
  /** Live mode: the account's processor that answered (`proc_…`); absent in test mode. */
  processorId?: string;
  /** Live mode: the card's BIN data as the processor's answer gives it (what it gives). */
  card?: Partial<BinInfo> | null;
}

/** A card as it enters the service with its CVC, to be kept at the processors (`keepCard`). */
export interface KeepCardRequest extends Tenant {
  /** This service's reference of the card, sent as the processors' idempotency key and metadata. */
  reference: string;
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  cardholderName: string | null;
}

export interface KeptCard {
  /** Where each processor that kept it keeps it; empty in test mode or when none could. */
  processorCards: ProcessorCardRef[];
  /** The card's BIN data as the first processor that kept it describes it. */
  card: Partial<BinInfo> | null;
}

/** A kept card's new expiry, for the processors that keep it. */
export interface KeptCardExpiry extends Tenant {
  /** This service's reference of the card (its vault reference), as `keepCard` was given it. */
  reference: string;
  processorCards: ProcessorCardRef[];
  expMonth: number;
  /** Four digits. */
  expYear: number;
}

/** What the directory server says about a card for a 3-D Secure authentication. */
export interface ThreeDSecureLookup {
  enrolled: boolean;
  /** How the issuer authenticates: without the cardholder, or with a challenge; null when not enrolled. */
  authenticationFlow: 'frictionless' | 'challenge' | null;
  /** A frictionless flow's answer: the issuer authenticated the cardholder without a challenge. */
  frictionlessAuthenticated: boolean;
  /** Protocol version the issuer supports; null when not enrolled. */
  version: string | null;
}

export interface RefundOutcome {
  status: 'successful' | 'failed';
}

export interface CreditRequest extends NetworkCardPayment {
  now: Date;
}

export interface CreditOutcome {
  approved: boolean;
  failure: { code: CardErrorCode; message: string; issuerDeclineCode: string | null } | null;
}

/** Where an authorized payment is: the network's reference of it, and in live mode its processor. */
export interface PaymentAddress {
  transactionId: string;
  /** The account's processor that holds it (live mode); null in test mode. */
  processorId: string | null;
}

/**
 * The request may have reached the processor and its answer is unknown (a timeout, a lost
 * connection, a 5xx): the payment must be looked up (`findAuthorization`, `findCredit`) before it
 * is decided, and never sent elsewhere. Nothing of it may be answered as failed meanwhile.
 */
export class NetworkOutcomeUnknown extends GatewayError {
  constructor(
    message: string,
    readonly processorId: string,
  ) {
    super(message);
    this.name = 'NetworkOutcomeUnknown';
  }
}

/** When the worker looks up an unanswered intent, and from when one found nowhere is closed (ms after it). */
export interface UnansweredIntentTimes {
  lookupAfterMs: number;
  closableAfterMs: number;
}

export interface CardNetwork {
  /** Brand from the number's prefix; type, country and issuer from the BIN table. */
  binInfo(number: string): BinInfo;
  /** Validation before any network call (Luhn, expiry, CVC length); null when valid. */
  validate(entry: CardEntry, now: Date): CardValidationFailure | null;
  /**
   * Keeps a card that came in with its CVC at the account's live processors (stored credentials),
   * so that its later payments need no CVC, which this service never keeps. Test mode keeps
   * nothing; a processor that cannot keep it is left out (its payments of the card then go
   * without a CVC).
   */
  keepCard(request: KeepCardRequest): Promise<KeptCard>;
  /**
   * Sends a kept card's new expiry to every processor of the account that keeps a copy of it, so
   * that its next card-on-file payment there carries the new expiry. Test mode keeps no copies.
   * Throws a `gateway_error` when one of them did not take it: the caller then records nothing,
   * and a retry sends it again (setting an expiry twice changes nothing).
   */
  updateKeptCardExpiry(request: KeptCardExpiry): Promise<void>;
  /** Whether the card can be saved at all (every test card can). */
  authorize(request: AuthorizationRequest): Promise<AuthorizationOutcome>;
  /**
   * What happened to the authorization with this reference: its answer, or null when the network
   * never received it. Asked after a crash that may have cut off an authorization's answer.
   */
  findAuthorization(
    request: Tenant & LoadedProcessors & { reference: string; since?: Date },
  ): Promise<AuthorizationOutcome | null>;
  /** Capture of an authorized amount; test cards always capture. `reference`: the charge id. */
  capture(request: Tenant & PaymentAddress & { reference: string; amount: number; currency: string }): Promise<void>;
  /**
   * Refunds address the authorization, so they work after the card itself was deleted.
   * `reference`: the refund id, which a processor deduplicates and records.
   */
  refund(
    request: Tenant & PaymentAddress & { reference: string; amount: number; currency: string },
  ): Promise<RefundOutcome>;
  /**
   * What became of the refund with this reference (the refund id) of the payment: its answer, or
   * null when the network never received it. Asked when a refund's answer was lost.
   */
  findRefund(request: Tenant & PaymentAddress & { reference: string }): Promise<RefundOutcome | null>;
  /**
   * How long after a request about this payment is sent nothing of it can still be running (live
   * mode: twice its processor's timeout), so that a lookup that finds nothing means nothing was done.
   */
  lookupAfterMs(request: Tenant & { processorId: string | null }): Promise<number>;
  /**
   * When a payment's intent that no outcome followed is looked up by the worker, and from when one
   * found at no processor is closed as never made (live mode: twice the longest timeout of the
   * account's processors, and the end of their longest idempotency window), in ms after the intent.
   */
  unansweredIntentTimes(request: Tenant & LoadedProcessors): Promise<UnansweredIntentTimes>;
  /** The account's processors, most preferred first, for a request to pass along (`LoadedProcessors`); none in test mode. */
  processorsOf(request: Tenant): Promise<readonly AccountProcessor[]>;
  credit(request: CreditRequest): Promise<CreditOutcome>;
  /** What happened to the credit with this reference: its answer, or null when the network never received it. */
  findCredit(request: Tenant & LoadedProcessors & { reference: string; since?: Date }): Promise<CreditOutcome | null>;
  /**
   * Sends the merchant's evidence for a dispute of the payment: a chargeback contested
   * (representment), or a retrieval request answered. Answers the network's decision on a
   * chargeback and when it reports it; null when nothing is announced here (a retrieval request,
   * which nobody decides; live mode, where the processor that holds the charge decides and reports
   * it through its notifications). Throws, with nothing sent, when the evidence was not taken.
   * `reference`: the dispute id.
   */
  representDispute(request: Tenant & PaymentAddress & DisputeEvidenceRequest): Promise<RepresentmentOutcome | null>;
  /** 3-D Secure enrolment of a card: the directory server's answer before any authentication. */
  lookupThreeDSecure(request: { mode: Mode; number: string }): Promise<ThreeDSecureLookup>;
  /** Fast-credit support check of a card. */
  checkFastCredit(request: { mode: Mode; number: string }): Promise<{ supported: boolean }>;
}
