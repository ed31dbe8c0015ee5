import type { CreateChargeCommand } from '../../../packages/domain/charge/charge-creation-decider.ts';
import type { ChargeAttempt, ChargeFailure } from '../../../packages/domain/charge/charge-events.ts';
import type { NetworkOutcomeDue } from '../../../packages/domain/charge/network-outcome-events.ts';

/** An account that takes every currency and brand. */
export const acceptsEverything = { acceptedCurrencies: null, acceptedBrands: null };

/** The charge as requested, before the network answered: what `attempt` was before its answer. */
export function requested(attempt: ChargeAttempt): ChargeAttempt {
  const { processorId: _processorId, ...asked } = attempt;
  return {
    ...asked,
    threeDSecureInfo: null,
    avsCheck: null,
    fraudDetails: { status: 'unknown', score: 0 },
    networkTransactionId: null,
  };
}

/**
 * `CreateCharge` for a charge the network answered so that it is recorded as `attempt` (taken,
 * or declined with `decline`), announcing `expectedOutcomes`.
 */
export function createAnswered(
  attempt: ChargeAttempt,
  options: { expectedOutcomes?: NetworkOutcomeDue[]; decline?: ChargeFailure } = {},
): CreateChargeCommand {
  const { decline } = options;
  return {
    type: 'CreateCharge',
    attempt: requested(attempt),
    accepted: acceptsEverything,
    blacklistRule: null,
    authorization: {
      answered: true,
      transactionId: attempt.networkTransactionId,
      failure: decline
        ? {
            code: decline.failureCode,
            message: decline.failureMessage,
            issuerDeclineCode: decline.failureIssuerDeclineCode,
          }
        : null,
      avsResult: attempt.avsCheck?.result ?? null,
      fraud: attempt.fraudDetails,
      threeDSecureInfo: attempt.threeDSecureInfo,
      ...(attempt.processorId ? { processorId: attempt.processorId } : {}),
      expectedOutcomes: options.expectedOutcomes ?? [],
    },
  };
}
