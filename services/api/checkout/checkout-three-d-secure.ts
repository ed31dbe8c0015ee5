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
 * failed authentication is refused as `POST /charges` refuses it. They hold for a typed card (the
 * token the page verified) and for a remembered card alike: a remembered card, which the page does
 * not verify, is charged as `POST /charges` charges a saved card with these flags, so an enrolled
 * card whose issuer does not authenticate it without a challenge is refused, whichever checkout
 * remembered it.
 */
export function checkoutThreeDSecure(request: CheckoutRequest): ThreeDSecureRequirements | null {
  return request.threeDSecure?.enable ? threeDSecureRequirements(request.threeDSecure) : null;
}

/**
 * Whether a remembered card can pay for what the request buys: not a subscription that asks
 * anything of 3-D Secure (requireAuthenticatedForSubscription), so the page does not offer it there.
 */
export function rememberedCardCanPay(request: CheckoutRequest): boolean {
  const requirements = checkoutThreeDSecure(request);
  return !request.subscription || requirements === null || !Object.values(requirements).some(Boolean);
}

/**
 * A subscription charges the customer's saved card, which does not carry the token's verification:
 * the token's result for the plan's amount is checked before anything is made (customer, card,
 * subscription, first charge), as a charge would check it. A token not verified for that amount
 * meets no requirement; an unknown token is left to the commands that use it to refuse. A
 * remembered card was verified for no payment of this checkout (the page verifies typed cards
 * only), so it meets no requirement either: the payer subscribes with the card fields.
 */
export async function requireAuthenticatedForSubscription(
  tokens: TokenCommands,
  requirements: ThreeDSecureRequirements,
  card: string,
  payment: { amount: number; currency: string },
  context: CommandContext,
): Promise<void> {
  const recorded = isIdOf(tokenResource, card) ? await tokens.verification(card, context) : { threeDSecureInfo: null };
  if (recorded === null) return;
  const verified = verifiedFor(recorded.threeDSecureInfo, payment);
  if (verified) {
    const failure = unmetRequirement(requirements, verified);
    if (failure) throw new CardError('authentication_required', failure.message);
  } else if (Object.values(requirements).some(Boolean))
    throw new CardError('authentication_required', 'The card was not verified with 3-D Secure for this payment.');
}
