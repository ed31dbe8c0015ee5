import { PaymentDeclined } from '../../../packages/commands/payment-declined.ts';
import { InvalidRequestError } from '../../../packages/domain/errors.ts';
import { p } from '../../../packages/http/params.ts';
import { validateParameters } from '../../../packages/http/validation.ts';
import { chargesCollection } from '../../../projections/charges-projection.ts';
import { subscriptionsCollection } from '../../../projections/subscriptions-projection.ts';
import type { Commands } from '../../commands.ts';
import type { ObjectReader } from '../object-reader.ts';
import type { CheckoutSessions } from './checkout-sessions.ts';
import type { VerifiedCheckout } from './checkout-verification.ts';

const purchaseBody = p.object({
  checkoutRequest: p.string({ min: 1 }),
  session: p.string({ min: 1, max: 128 }),
  offerId: p.id('cso'),
});

interface CrossSaleDependencies {
  commands: Commands;
  reader: ObjectReader;
  sessions: CheckoutSessions;
}

/**
 * Buys one of the offers a paid checkout shows, with the card that paid, without asking for it
 * again: a charge, or for a subscription offer a subscription, on the offer owner's account (which
 * may be a partner's). Buying the same offer again in the same checkout answers the same object.
 */
export async function purchaseCheckoutOffer(
  deps: CrossSaleDependencies,
  verified: VerifiedCheckout,
  body: unknown,
  requestId: string,
): Promise<{ charge: object } | { subscription: object }> {
  const input = validateParameters(purchaseBody, body);
  const session = await deps.sessions.paid(
    input.session,
    { checkoutRequest: verified.view.checkoutRequest, ...verified.auth },
    new Date(),
  );
  const { cardId } = session;
  if (cardId === null)
    throw new InvalidRequestError('Offers are charged to a card, and this checkout was paid another way', 'offerId');
  const offer = verified.view.crossSaleOffers.find((shown) => shown.id === input.offerId);
  if (!offer) throw new InvalidRequestError('Invalid parameter: offerId is not an offer of this checkout', 'offerId');
  const owner = { accountId: offer.accountId, mode: session.mode };
  const buy = () =>
    deps.commands.crossSaleOffers.purchase(
      {
        offerId: offer.id,
        merchant: {
          accountId: session.accountId,
          mode: session.mode,
          chargeId: session.chargeId,
          subscriptionId: session.subscriptionId,
        },
        card: { customerId: session.customerId, cardId },
        email: session.email,
        purchaseKey: `${session.id}:${offer.id}`,
      },
      { requestId, actor: verified.auth.keyId, now: () => new Date() },
    );
  // A declined payment is recorded: the refusal is answered once it is readable, as for any payment.
  const bought = await buy().catch(async (error: unknown) => {
    if (!(error instanceof PaymentDeclined)) throw error;
    await deps.reader.caughtUp(error.outcome.position);
    throw error.cardError;
  });
  if (bought.subscriptionId !== null)
    return {
      subscription: await deps.reader.getAfter(bought.position, subscriptionsCollection, bought.subscriptionId, owner),
    };
  return { charge: await deps.reader.getAfter(bought.position, chargesCollection, bought.chargeId!, owner) };
}
