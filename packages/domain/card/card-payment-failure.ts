import type { CardErrorCode } from '../errors.ts';

/** Why a card payment (a charge or a credit) failed: the same fields on both (spec: Errors). */
export interface CardPaymentFailure {
  failureCode: CardErrorCode;
  failureMessage: string;
  failureIssuerDeclineCode: string | null;
  /** Set when a blacklist rule blocked the payment. */
  blacklistRuleId: string | null;
}

/** The card network's refusal of a payment, as the network words it. */
export interface NetworkDecline {
  code: CardErrorCode;
  message: string;
  issuerDeclineCode: string | null;
}

/** The blacklist rule that matched the payment (found by the command handler's screening). */
export interface MatchingBlacklistRule {
  ruleId: string;
}

/** A payment blocked by a blacklist rule: decided before the network is asked. */
export function blockedByBlacklist(rule: MatchingBlacklistRule, payment: 'charge' | 'credit'): CardPaymentFailure {
  return {
    failureCode: 'blacklisted',
    failureMessage: `The ${payment} was blocked by a blacklist rule.`,
    failureIssuerDeclineCode: null,
    blacklistRuleId: rule.ruleId,
  };
}

/** The network's decline as the payment records it; null when the network took the payment. */
export function declinedByNetwork(decline: NetworkDecline | null): CardPaymentFailure | null {
  return decline
    ? {
        failureCode: decline.code,
        failureMessage: decline.message,
        failureIssuerDeclineCode: decline.issuerDeclineCode,
        blacklistRuleId: null,
      }
    : null;
}
