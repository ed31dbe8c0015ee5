import type { AccountSettings } from '../account/account-events.ts';
import {
  blockedByBlacklist,
  declinedByNetwork,
  type MatchingBlacklistRule,
  type NetworkDecline,
} from '../card/card-payment-failure.ts';
import { InvalidRequestError } from '../errors.ts';
import type { ChargeAttempt, ChargeEvent, ChargeFailure, FraudStatus, ThreeDSecureResult } from './charge-events.ts';
import type { NetworkOutcomeDue } from './network-outcome-events.ts';
import type { ChargeState } from './charge-state.ts';

/** What the account's settings say about which charges it takes. */
export type AcceptedPayments = Pick<AccountSettings, 'acceptedCurrencies' | 'acceptedBrands'>;

/** The card network's answer to a charge's authorization, in the charge's terms. */
export interface AuthorizationAnswer {
  answered: true;
  /** The network's reference of the authorization; null when it declined. */
  transactionId: string | null;
  /** Null when the network took the payment. */
  failure: NetworkDecline | null;
  avsResult: string | null;
  fraud: { status: FraudStatus; score: number };
  threeDSecureInfo: ThreeDSecureResult | null;
  /** Live mode: the account's processor that answered. */
  processorId?: string;
  /** Live mode: the card's BIN data as the processor's answer gives it; it replaces the table's. */
  card?: Partial<ChargeAttempt['card']> | null;
  /** What the network announced for later about the charge (a dispute, a fraud warning), with due times. */
  expectedOutcomes: NetworkOutcomeDue[];
}

/** Live mode: the processor may have taken the payment and its answer never came. */
export interface AuthorizationUnknown {
  answered: false;
  processorId: string;
  /** When the charge is first looked up at the processor (ISO). */
  lookupDueAt: string;
}

/**
 * A new card charge with everything its decision needs, fetched by the command handler: the
 * charge as requested, the account's settings, the blacklist rule its screening matched, and the
 * network's answer (null when the network was not asked: the charge is refused before).
 */
export interface CreateChargeCommand {
  type: 'CreateCharge';
  attempt: ChargeAttempt;
  accepted: AcceptedPayments;
  blacklistRule: MatchingBlacklistRule | null;
  authorization: AuthorizationAnswer | AuthorizationUnknown | null;
}

/**
 * Why a charge is refused before the network is asked: a currency or card brand the account
 * does not accept, then a matching blacklist rule; null when the network is to decide.
 */
export function chargeRefusal(
  attempt: Pick<ChargeAttempt, 'currency' | 'card'>,
  accepted: AcceptedPayments,
  blacklistRule: MatchingBlacklistRule | null,
): ChargeFailure | null {
  const refusal = (failureCode: 'currency_not_supported' | 'brand_not_supported', failureMessage: string) => ({
    failureCode,
    failureMessage,
    failureIssuerDeclineCode: null,
    blacklistRuleId: null,
  });
  if (accepted.acceptedCurrencies && !accepted.acceptedCurrencies.includes(attempt.currency))
    return refusal('currency_not_supported', `The account is not configured for the currency ${attempt.currency}.`);
  if (accepted.acceptedBrands && !accepted.acceptedBrands.includes(attempt.card.brand))
    return refusal('brand_not_supported', `The card brand ${attempt.card.brand} is not supported by the account.`);
  return blacklistRule ? blockedByBlacklist(blacklistRule, 'charge') : null;
}

/**
 * A new card charge: refused by the account's settings or a blacklist rule, pending when the
 * processor's answer is unknown (looked up from then), else declined or successful as the
 * network answered, with what it announced for later recorded in the same decision.
 */
export function decideChargeCreation(command: CreateChargeCommand, state: ChargeState): ChargeEvent[] {
  const { attempt, authorization } = command;
  if (state.status !== 'none') throw new InvalidRequestError(`Charge '${attempt.chargeId}' already exists`);
  const refusal = chargeRefusal(attempt, command.accepted, command.blacklistRule);
  if (refusal) return [{ type: 'ChargeFailed', data: { ...attempt, ...refusal } }];
  if (authorization === null) throw new Error(`Charge '${attempt.chargeId}' was neither refused nor authorized`);
  if (!authorization.answered) {
    const { chargeId } = attempt;
    const outcomes: NetworkOutcomeDue[] = [{ kind: 'authorization', dueAt: authorization.lookupDueAt }];
    return [
      { type: 'CardChargePending', data: { ...attempt, processorId: authorization.processorId } },
      { type: 'NetworkOutcomesExpected', data: { chargeId, outcomes } },
    ];
  }
  const answered: ChargeAttempt = {
    ...attempt,
    ...(authorization.processorId ? { processorId: authorization.processorId } : {}),
    card: authorization.card ? { ...attempt.card, ...authorization.card } : attempt.card,
    threeDSecureInfo: authorization.threeDSecureInfo,
    avsCheck: authorization.avsResult ? { result: authorization.avsResult } : null,
    fraudDetails: authorization.fraud,
    networkTransactionId: authorization.transactionId,
  };
  const declined = declinedByNetwork(authorization.failure);
  if (declined) return [{ type: 'ChargeFailed', data: { ...answered, ...declined } }];
  const { expectedOutcomes } = authorization;
  return [
    { type: 'ChargeSucceeded', data: answered },
    // Recorded with the charge itself, so that no announced outcome can be lost between two appends.
    ...(expectedOutcomes.length > 0
      ? [{ type: 'NetworkOutcomesExpected' as const, data: { chargeId: attempt.chargeId, outcomes: expectedOutcomes } }]
      : []),
  ];
}
