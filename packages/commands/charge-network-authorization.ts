import type { AuthorizationAnswer, AuthorizationUnknown } from '../domain/charge/charge-creation-decider.ts';
import type { ChargeAttempt, ThreeDSecureResult } from '../domain/charge/charge-events.ts';
import { chargeAuthorizationDecider, chargeAuthorizationStream } from '../domain/charge/charge-authorization.ts';
import { NetworkOutcomeUnknown, type AuthorizationOutcome } from '../network/card-network.ts';
import { faultPoint } from '../config/fault-injection.ts';
import { announcedOutcomes } from './announced-outcomes.ts';
import {
  askNetworkOnce,
  cardForNetwork,
  cvcOf,
  atOneTime,
  unansweredIntentLookup,
  type CardPaymentDeps,
} from './card-payment-creation.ts';
import type { ResolvedCard } from './card-sources.ts';
import type { CreateChargeInput } from './charge-inputs.ts';
import type { CommandContext } from './command-context.ts';
import { threeDSecureRequest, verifiedFor } from './three-d-secure-options.ts';
import type { TokenCommands } from './token-commands.ts';

/** What asking the network to authorize a charge works with. */
type ChargeAuthorizationDeps = Pick<CardPaymentDeps, 'aggregates' | 'intake' | 'network'> & { tokens: TokenCommands };

/**
 * The network's answer to the charge's authorization, with its 3-D Secure verification: the
 * token's, or the one the saved card was saved with just before (`justSavedFromToken`).
 */
export async function askNetworkToAuthorize(
  deps: ChargeAuthorizationDeps,
  attempt: ChargeAttempt,
  input: CreateChargeInput,
  resolved: ResolvedCard,
  context: CommandContext,
): Promise<AuthorizationAnswer | AuthorizationUnknown> {
  const verification = resolved.threeDSecureInfo ?? (await justSavedVerification(deps, input, resolved, context));
  let outcome: AuthorizationOutcome;
  try {
    outcome = await authorize(deps, attempt, input, verifiedFor(verification, input), context);
  } catch (error) {
    if (!(error instanceof NetworkOutcomeUnknown)) throw error;
    // The processor may have taken the payment: pending, never failed, never sent elsewhere.
    return { answered: false, processorId: error.processorId, lookupDueAt: context.now().toISOString() };
  }
  const { later, approved: _approved, ...answer } = outcome;
  return { answered: true, ...answer, expectedOutcomes: announcedOutcomes(later, context.now()) };
}

/**
 * The verification of the token a saved card was saved from, when the charge is the payment
 * made right after that save (`justSavedFromToken`) and the card charged is that token's card.
 * Any other charge of a saved card (a renewal, a charge days later) has none: the card is then
 * charged as the merchant's, without the cardholder present.
 */
async function justSavedVerification(
  deps: ChargeAuthorizationDeps,
  input: CreateChargeInput,
  resolved: ResolvedCard,
  context: CommandContext,
): Promise<ThreeDSecureResult | null> {
  const tokenId = input.justSavedFromToken;
  if (tokenId === undefined || resolved.savedFromToken !== tokenId) return null;
  return (await deps.tokens.verification(tokenId, context))?.threeDSecureInfo ?? null;
}

/**
 * Asks the network to authorize, after recording the intent. When the intent was recorded
 * already, an earlier run of this request was cut short and may have reached the network: its
 * answer is asked for first, so the card is never authorized twice for one charge.
 */
async function authorize(
  deps: ChargeAuthorizationDeps,
  attempt: ChargeAttempt,
  input: CreateChargeInput,
  verified: ThreeDSecureResult | null,
  context: CommandContext,
): Promise<AuthorizationOutcome> {
  const { chargeId, card } = attempt;
  return askNetworkOnce(deps.network, context, {
    recordIntent: async (loaded) => {
      const intent = atOneTime(context);
      return deps.aggregates.execute(
        chargeAuthorizationDecider,
        chargeAuthorizationStream(chargeId),
        {
          type: 'StartAuthorization',
          chargeId,
          networkReference: chargeId,
          amount: attempt.amount,
          currency: attempt.currency,
          cardId: attempt.cardId,
          ...(await unansweredIntentLookup(deps.network, attempt, loaded, intent)),
        },
        intent,
      );
    },
    afterIntent: () => faultPoint('charge.before-network-call', context),
    findEarlierAnswer: (loaded) =>
      deps.network.findAuthorization({
        mode: context.mode,
        accountId: context.accountId,
        reference: chargeId,
        ...loaded,
      }),
    ask: async (loaded) => {
      const address = input.billing?.address;
      const zip = address?.zip ?? card.addressZip;
      const outcome = await deps.network.authorize({
        mode: context.mode,
        accountId: context.accountId,
        reference: chargeId,
        ...(await cardForNetwork(deps.intake, card, cvcOf(input.card))),
        ...(attempt.type ? { type: attempt.type } : {}),
        amount: input.amount,
        currency: input.currency,
        capture: attempt.captured,
        zip: zip ?? null,
        addressProvided: Boolean(address || card.addressLine1 || card.addressZip),
        threeDSecure: threeDSecureRequest(input.threeDSecure, verified),
        now: context.now(),
        ...loaded,
      });
      faultPoint('charge.after-network-call', context);
      return outcome;
    },
    closeIntent: () =>
      deps.aggregates.execute(
        chargeAuthorizationDecider,
        chargeAuthorizationStream(chargeId),
        { type: 'CloseAuthorization', chargeId },
        context,
      ),
  });
}
