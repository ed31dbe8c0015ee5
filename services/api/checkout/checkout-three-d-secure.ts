import type { CheckoutRequest } from '../../../packages/checkout/checkout-request-schema.ts';
import { threeDSecureRequirements, verifiedFor } from '../../../packages/commands/three-d-secure-options.ts';
import type { CommandContext } from '../../../packages/commands/command-context.ts';
import type { TokenCommands } from '../../../packages/commands/token-commands.ts';
import { CardError } from '../../../packages/domain/errors.ts';
import type { ThreeDSecureRequirements } from '../../../packages/network/card-network.ts';
import { unmetRequirement } from '../../../packages/network/three-d-secure.ts';
import { tokenResource } from '../../../packages/domain/token/token-events.ts';
import { isIdOf } from '../../../packages/ids/object-id.ts';

/**
 * 3-D Secure in checkout. The request's flags get the API's defaults (an enrolled card must shift
 * liability unless the request says `requireSuccessfulLiabilityShiftForEnrolledCard: false`), so a
 * failed authentication is refused as `POST /charges` refuses it. A remembered card is not
 * verified again (it paid before, under the rules of that checkout); 3-D Secure applies to cards
 * typed now.
 */
export function checkoutThreeDSecure(request: CheckoutRequest, card: string): ThreeDSecureRequirements | null {
  return request.threeDSecure?.enable && isIdOf(tokenResource, card)
    ? threeDSecureRequirements(request.threeDSecure)
    : null;
}

/**
 * A subscription charges the customer's saved card, which does not carry the token's verification:
 * the token's result for the plan's amount is checked before anything is made (customer, card,
 * subscription, first charge), as a charge would check it. A token not verified for that amount
 * meets no requirement; an unknown token is left to the commands that use it to refuse.
 */
export async function requireAuthenticatedForSubscription(
  tokens: TokenCommands,
  requirements: ThreeDSecureRequirements,
  token: string,
  payment: { amount: number; currency: string },
  context: CommandContext,
): Promise<void> {
  const recorded = await tokens.verification(token, context);
  if (recorded === null) return;
  const verified = verifiedFor(recorded.threeDSecureInfo, payment);
  if (verified) {
    const failure = unmetRequirement(requirements, verified);
    if (failure) throw new CardError('authentication_required', failure.message);
  } else if (Object.values(requirements).some(Boolean))
    throw new CardError('authentication_required', 'The card was not verified with 3-D Secure for this payment.');
}
