import { createHash } from 'node:crypto';
import type {
  AuthorizationOutcome,
  AuthorizationRequest,
  BinInfo,
  CardEntry,
  CardNetwork,
  CardValidationFailure,
  CreditOutcome,
  CreditRequest,
  KeptCard,
  LaterNetworkEvent,
  RefundOutcome,
  RepresentmentOutcome,
  ThreeDSecureLookup,
  UnansweredIntentTimes,
} from './card-network.ts';
import type { AccountProcessor } from '../domain/account/account-events.ts';
import type { DisputeEvidence } from '../domain/charge/dispute-events.ts';
import type { DisputeStage } from '../domain/charge/network-outcome-events.ts';
import { verifyAddress } from './address-verification.ts';
import { binInfo } from './bin-table.ts';
import { isValidCardNumber, validateCardEntry } from './card-validation.ts';
import { reviewRepresentment } from './dispute-representment.ts';
import { fraudWarningVerdict, screenForFraud } from './fraud-screening.ts';
import { networkFailure } from './network-failures.ts';
import type { NetworkFailure } from './network-failures.ts';
import { testCardBehaviour } from './test-cards.ts';
import type { TestCardBehaviour } from './test-cards.ts';
import { evaluateThreeDSecure, lookupThreeDSecure } from './three-d-secure.ts';
import type { Mode } from '../domain/mode.ts';
import { InMemoryNetworkJournal, type NetworkJournal } from './network-journal.ts';

export interface SimulatedCardNetworkOptions {
  /** Delay before the dispute of 4242000000000018 opens (default 2000 ms). */
  disputeDelayMs?: number;
  /** Delay before the fraud warning of 4242000000000208 arrives (default 2000 ms). */
  fraudWarningDelayMs?: number;
  /** Delay between contesting a dispute and the issuer's decision (default 2000 ms). */
  disputeDecisionDelayMs?: number;
  /** Where the answered authorizations are remembered (default: in memory). */
  authorizations?: NetworkJournal<AuthorizationOutcome>;
  /** Where the answered credits are remembered (default: in memory). */
  credits?: NetworkJournal<CreditOutcome>;
}

const DEFAULT_LATER_DELAY_MS = 2000;

/**
 * The card network simulator behind the `CardNetwork` port (`docs/architecture.md`, "Card
 * network"): answers deterministically according to the test-card table (`test-cards.ts`). It
 * never schedules anything itself; events that happen after a charge (disputes, fraud warnings) are returned in `later` for the caller to
 * schedule.
 *
 * Live mode behaves exactly like test mode here: a deployment that takes real payments plugs a
 * real acquirer in behind the same port instead of this class.
 *
 * An authorization fails with the first of, in this order:
 * 1. `invalid_number` (issuer 14) for a number that is not 12–19 digits passing Luhn;
 * 2. `suspected_fraud` when fraud screening says `fraudulent`;
 * 3. `authentication_required` from 3-D Secure (`three-d-secure.ts`);
 * 4. the card's decline from the table (`processing_error` included);
 * 5. `incorrect_zip` when AVS answers `no_match`.
 * AVS (`address-verification.ts`), fraud screening (`fraud-screening.ts`) and 3-D Secure are
 * reported on declined charges too. `later` events are only returned for approved charges, and a
 * fraud status `in_progress` becomes `safe` when the charge is not approved (no warning follows).
 *
 * Like a real acquirer, it remembers each authorization by the merchant's reference (in its
 * journal, committed with the service's events): a repeated reference gets the first answer, and
 * `findAuthorization` tells what happened to one. Its answers depend only on the request (the
 * transaction id on the reference), so a request asked again after its journal entry was lost in a
 * crash gets the answer it got the first time.
 */
export class SimulatedCardNetwork implements CardNetwork {
  private readonly disputeDelayMs: number;
  private readonly fraudWarningDelayMs: number;
  private readonly disputeDecisionDelayMs: number;
  private readonly authorizations: NetworkJournal<AuthorizationOutcome>;
  private readonly credits: NetworkJournal<CreditOutcome>;

  constructor(options: SimulatedCardNetworkOptions = {}) {
    this.authorizations = options.authorizations ?? new InMemoryNetworkJournal();
    this.credits = options.credits ?? new InMemoryNetworkJournal();
    this.disputeDelayMs = options.disputeDelayMs ?? DEFAULT_LATER_DELAY_MS;
    this.fraudWarningDelayMs = options.fraudWarningDelayMs ?? DEFAULT_LATER_DELAY_MS;
    this.disputeDecisionDelayMs = options.disputeDecisionDelayMs ?? DEFAULT_LATER_DELAY_MS;
  }

  binInfo(number: string): BinInfo {
    return binInfo(number);
  }

  validate(entry: CardEntry, now: Date): CardValidationFailure | null {
    return validateCardEntry(entry, now);
  }

  /** The simulator needs no stored credentials: it answers by the card number alone. */
  keepCard(): Promise<KeptCard> {
    return Promise.resolve({ processorCards: [], card: null });
  }

  /** Test mode keeps no copies at processors: nothing to send. */
  updateKeptCardExpiry(): Promise<void> {
    return Promise.resolve();
  }

  async authorize(request: AuthorizationRequest): Promise<AuthorizationOutcome> {
    const answered = await this.authorizations.find(request.mode, request.reference);
    if (answered) return answered;
    return this.authorizations.record(request.mode, request.reference, this.decide(request));
  }

  findAuthorization(request: { mode: Mode; reference: string }): Promise<AuthorizationOutcome | null> {
    return this.authorizations.find(request.mode, request.reference);
  }

  private decide(request: AuthorizationRequest): AuthorizationOutcome {
    const behaviour = testCardBehaviour(request.number);
    const fraudVerdict = screenForFraud(behaviour, request.number, request.amount);
    if (!isValidCardNumber(request.number)) {
      return {
        approved: false,
        transactionId: null,
        failure: networkFailure('invalid_number'),
        avsResult: null,
        fraud: { status: 'safe', score: fraudVerdict.score },
        threeDSecureInfo: null,
        later: [],
      };
    }

    const avsResult = verifyAddress(behaviour, request);
    const threeDSecure = evaluateThreeDSecure(behaviour, request.threeDSecure, request);
    const failure =
      (fraudVerdict.status === 'fraudulent' ? networkFailure('suspected_fraud') : null) ??
      threeDSecure.failure ??
      (behaviour.decline ? networkFailure(behaviour.decline) : null) ??
      (avsResult === 'no_match' ? networkFailure('incorrect_zip') : null);
    const approved = failure === null;

    return {
      approved,
      transactionId: approved ? simulatedTransactionId(request, behaviour.refundFails === true) : null,
      failure,
      avsResult,
      fraud:
        !approved && fraudVerdict.status === 'in_progress'
          ? { status: 'safe', score: fraudVerdict.score }
          : fraudVerdict,
      threeDSecureInfo: threeDSecure.info,
      later: approved ? this.laterEvents(behaviour, request) : [],
    };
  }

  async capture(_request: { mode: Mode; transactionId: string; amount: number; currency: string }): Promise<void> {}

  async refund(request: {
    mode: Mode;
    transactionId: string;
    amount: number;
    currency: string;
  }): Promise<RefundOutcome> {
    return { status: request.transactionId.endsWith(REFUNDS_FAIL_MARK) ? 'failed' : 'successful' };
  }

  /** The simulator's refund answer depends on the payment only: asking again is asking what it answered. */
  async findRefund(request: { mode: Mode; transactionId: string }): Promise<RefundOutcome> {
    return { status: request.transactionId.endsWith(REFUNDS_FAIL_MARK) ? 'failed' : 'successful' };
  }

  /** The simulator answers within the request. */
  async lookupAfterMs(): Promise<number> {
    return 0;
  }

  /** The simulator answers within the request, and its journal answers a repeated reference forever. */
  async unansweredIntentTimes(): Promise<UnansweredIntentTimes> {
    return { lookupAfterMs: 0, closableAfterMs: 0 };
  }

  /** The simulator routes to no processor. */
  async processorsOf(): Promise<readonly AccountProcessor[]> {
    return [];
  }

  /** Credits fail like charges for the decline and fraud cards; 3-D Secure and AVS do not apply. */
  async credit(request: CreditRequest): Promise<CreditOutcome> {
    const answered = await this.credits.find(request.mode, request.reference);
    if (answered) return answered;
    const failure = this.creditFailure(request.number);
    return this.credits.record(request.mode, request.reference, { approved: failure === null, failure });
  }

  findCredit(request: { mode: Mode; reference: string }): Promise<CreditOutcome | null> {
    return this.credits.find(request.mode, request.reference);
  }

  /**
   * Chargebacks are decided by the `dispute-representment.ts` rule, `disputeDecisionDelayMs` later;
   * an answered retrieval request is decided by nobody.
   */
  async representDispute(request: {
    mode: Mode;
    transactionId: string;
    evidence: DisputeEvidence;
    stage?: DisputeStage;
  }): Promise<RepresentmentOutcome | null> {
    if (request.stage === 'retrieval_request') return null;
    return { outcome: reviewRepresentment(request.evidence), afterMs: this.disputeDecisionDelayMs };
  }

  /** Enrolment and flow from the test-card table (`three-d-secure.ts`). */
  async lookupThreeDSecure(request: { mode: Mode; number: string }): Promise<ThreeDSecureLookup> {
    return lookupThreeDSecure(testCardBehaviour(request.number));
  }

  /** Fast credit (push to card) is supported for Visa and MasterCard debit cards. */
  async checkFastCredit(request: { mode: Mode; number: string }): Promise<{ supported: boolean }> {
    if (!isValidCardNumber(request.number)) return { supported: false };
    const { brand, type } = binInfo(request.number);
    return { supported: (brand === 'Visa' || brand === 'MasterCard') && type === 'Debit Card' };
  }

  private creditFailure(number: string): NetworkFailure | null {
    if (!isValidCardNumber(number)) return networkFailure('invalid_number');
    const behaviour = testCardBehaviour(number);
    if (behaviour.fraud === 'fraudulent') return networkFailure('suspected_fraud');
    return behaviour.decline ? networkFailure(behaviour.decline) : null;
  }

  /** The dispute cards say the stage and reason of the dispute that follows. */
  private laterEvents(behaviour: TestCardBehaviour, request: AuthorizationRequest): LaterNetworkEvent[] {
    const later: LaterNetworkEvent[] = [];
    if (behaviour.disputeLater)
      later.push({ kind: 'dispute', afterMs: this.disputeDelayMs, ...behaviour.disputeLater });
    if (behaviour.fraud === 'warning_later') {
      later.push({
        kind: 'fraud_warning',
        afterMs: this.fraudWarningDelayMs,
        fraudDetails: fraudWarningVerdict(request.number, request.amount),
      });
    }
    return later;
  }
}

/**
 * The simulated acquirer keeps no state: what it must remember about an authorization (that
 * refunds of card 4000000000000101 fail) is carried in its transaction reference.
 */
const REFUNDS_FAIL_MARK = '.refunds-fail';

/**
 * Derived from the merchant's reference, so that the simulator answers a request it has forgotten
 * (its journal entry lost in a crash before the entry's commit) exactly as it did the first time.
 */
function simulatedTransactionId(request: { mode: Mode; reference: string }, refundsFail: boolean): string {
  const digest = createHash('sha256').update(`${request.mode}:${request.reference}`).digest('hex').slice(0, 32);
  return `sim_${digest}${refundsFail ? REFUNDS_FAIL_MARK : ''}`;
}
