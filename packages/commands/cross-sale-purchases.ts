import { crossSaleOfferDecider } from '../domain/cross-sale-offer/cross-sale-offer-decider.ts';
import { crossSaleOfferStream, type OfferSubscription } from '../domain/cross-sale-offer/cross-sale-offer-events.ts';
import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeResource, chargeStream } from '../domain/charge/charge-events.ts';
import { CardError, InvalidRequestError } from '../domain/errors.ts';
import { subscriptionDecider } from '../domain/subscription/subscription-decider.ts';
import { subscriptionResource, subscriptionStream } from '../domain/subscription/subscription-events.ts';
import type { Mode } from '../domain/mode.ts';
import { derivedId } from '../ids/object-id.ts';
import type { CardNetwork } from '../network/card-network.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CardDetailsInput, CardIntake } from './card-intake.ts';
import type { CardSources } from './card-sources.ts';
import type { ChargeCommands } from './charge-commands.ts';
import { createdObjectId, type CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CustomerCommands } from './customer-commands.ts';
import { KeyedLock } from './keyed-lock.ts';
import type { PlanCommands } from './plan-commands.ts';
import type { SubscriptionCommands } from './subscription-commands.ts';
import { cardAddress } from '../domain/card/card-snapshot.ts';

/** An offer an account may sell in its checkout, and whose it is (the account its charge goes to). */
export interface UsableOffer {
  id: string;
  accountId: string;
}

/** Which offers an account may use in its checkout (the read side answers it). */
export interface UsableOffers {
  /**
   * The account's own offers and its partners' offers visible to it, not deleted, newest first;
   * with `offerIds`, those, in that order, or an `invalid_request` naming `parameter` and the
   * first id that is not usable.
   */
  usableBy(accountId: string, mode: Mode, offerIds?: string[], parameter?: string): Promise<UsableOffer[]>;
  /** The account an offer of this mode belongs to, whoever may see it; null for no such offer. */
  ownerOf(offerId: string, mode: Mode): Promise<string | null>;
}

/** What buying an offer needs. */
export interface CrossSalePurchasesDeps {
  aggregates: AggregateStore;
  usableOffers: UsableOffers;
  charges: ChargeCommands;
  cardSources: CardSources;
  intake: CardIntake;
  /** A subscription offer names a plan of the offer's account. */
  plans: PlanCommands;
  customers: CustomerCommands;
  subscriptions: SubscriptionCommands;
  /** Whether a card's issuer demands 3-D Secure, before a subscription offer is bought with it. */
  network: Pick<CardNetwork, 'lookupThreeDSecure'>;
}

/** Buying a cross-sale offer in a merchant's checkout, after its main transaction succeeded. */
export interface CrossSalePurchaseInput {
  offerId: string;
  /** The merchant whose checkout sells the offer, and its main charge or subscription. */
  merchant: Tenant & { chargeId: string | null; subscriptionId: string | null };
  /** A card saved on a customer of the merchant's account: the one of the main transaction. */
  card: { customerId: string; cardId: string };
  email: string | null;
  /** The same key (for the same merchant, mode and offer) answers the same charge: never two. */
  purchaseKey: string;
}

export interface CrossSalePurchaseContext {
  requestId: string;
  actor: string;
  now: () => Date;
}

export interface CrossSalePurchase {
  /** The offer owner's account, where the charge or subscription is. */
  accountId: string;
  /** The charge of a charge offer; null for a subscription offer. */
  chargeId: string | null;
  /** The subscription of a subscription offer; null for a charge offer. */
  subscriptionId: string | null;
  /** Log position of the purchase's last event: read models show it once they reach it. */
  position: number | null;
}

/**
 * Buying cross-sale offers in a merchant's checkout, after its main transaction succeeded: a charge
 * or a subscription on the offer owner's account, with the card of the main transaction, and the
 * merchant's main charge or subscription told of it.
 */
export class CrossSalePurchases {
  private readonly aggregates: AggregateStore;
  private readonly purchases = new KeyedLock();

  constructor(private readonly deps: CrossSalePurchasesDeps) {
    this.aggregates = deps.aggregates;
  }

  /**
   * Buys an offer for the payer of a merchant's checkout. A subscription offer subscribes the payer
   * to the offer's plan on the offer owner's account (see `subscribe`). A charge offer makes a
   * charge on the offer owner's account
   * (same mode) for the offer's amount, currency and capture, with the card of the main
   * transaction, without a CVC. The number goes from the merchant's vault entry through the normal
   * card intake of the owner's charge, nowhere else. The owner's charge records where it came from
   * (`crossSale`); the merchant's main charge lists it (`CrossSaleChargeAdded`, CHARGE_UPDATED),
   * or without one its subscription (`SubscriptionCrossSaleChargeAdded`). The same purchase key
   * (for the same merchant, mode and offer) answers the same charge, also when run twice at once.
   * A declined charge is recorded and thrown as `PaymentDeclined`, as by `charges.create`.
   */
  async purchase(input: CrossSalePurchaseInput, context: CrossSalePurchaseContext): Promise<CrossSalePurchase> {
    const { merchant } = input;
    // One charge per purchase, whichever run of it gets here first.
    const seed = ['crossSale', merchant.accountId, merchant.mode, input.offerId, input.purchaseKey].join('\n');
    const chargeId = derivedId(chargeResource, seed, 'crossSaleCharge');
    // A purchase made already is answered as it was, even if the offer changed or went since.
    const knownOwner = await this.deps.usableOffers.ownerOf(input.offerId, merchant.mode);
    const earlier =
      knownOwner === null
        ? null
        : ((await this.earlierSubscription({ accountId: knownOwner, mode: merchant.mode }, seed, context)) ??
          (await this.earlierPurchase(input, { accountId: knownOwner, chargeId }, context)));
    if (earlier) return earlier;
    const [offer] = await this.deps.usableOffers.usableBy(
      merchant.accountId,
      merchant.mode,
      [input.offerId],
      'offerId',
    );
    const owner: Tenant = { accountId: offer!.accountId, mode: merchant.mode };
    const { state: terms } = await this.aggregates.load(
      crossSaleOfferDecider,
      crossSaleOfferStream(input.offerId),
      owner,
    );
    if (terms.status !== 'active')
      throw new InvalidRequestError(`Invalid parameter: offerId '${input.offerId}' cannot be bought`, 'offerId');
    if (merchant.chargeId !== null) {
      const main = await this.aggregates.load(chargeDecider, chargeStream(merchant.chargeId), merchant);
      if (main.state.status !== 'successful')
        throw new InvalidRequestError(
          `Invalid parameter: merchant.chargeId '${merchant.chargeId}' is not a successful charge of the merchant`,
          'merchant.chargeId',
        );
    }
    if (merchant.chargeId === null && merchant.subscriptionId !== null) {
      const stream = subscriptionStream(merchant.subscriptionId);
      const main = await this.aggregates.load(subscriptionDecider, stream, merchant);
      if (main.state.status === 'none')
        throw new InvalidRequestError(
          `Invalid parameter: merchant.subscriptionId '${merchant.subscriptionId}' is not a subscription of the merchant`,
          'merchant.subscriptionId',
        );
    }
    const ownerContext: CommandContext = { ...context, ...owner, requestToken: seed };
    if (terms.subscription !== null) return this.subscribe(input, terms.subscription, ownerContext);
    const offered = terms.charge!;
    return this.purchases.run(chargeId, async () => {
      const charged =
        (await this.deps.charges.recordedOutcome(chargeId, owner)) ??
        (await this.deps.charges.create(
          {
            chargeId,
            amount: offered.amount,
            currency: offered.currency,
            captured: offered.capture,
            description: terms.title,
            card: await this.mainTransactionCard(input),
            ...(input.email !== null ? { billing: { email: input.email } } : {}),
            crossSale: {
              offerId: input.offerId,
              merchantAccountId: merchant.accountId,
              merchantChargeId: merchant.chargeId,
              merchantSubscriptionId: merchant.subscriptionId,
            },
          },
          ownerContext,
        ));
      const informed = await this.informMerchant(input, { accountId: owner.accountId, chargeId }, context);
      return { accountId: owner.accountId, chargeId, subscriptionId: null, position: informed ?? charged.position };
    });
  }

  /**
   * A subscription offer bought: the payer is subscribed to the offer's plan on the owner's account
   * (same mode), paying with the card of the main transaction; the first charge is made now, or
   * after the plan's trial. On the merchant's own account the subscriber is the checkout's
   * customer, that card becoming its default card; on a partner's, a new customer with the payer's
   * email and that card. The payer authenticated only the main payment: a card whose issuer
   * demands 3-D Secure is refused `authentication_required` before anything is made, also with a
   * trial. The customer and subscription ids derive from the purchase, so running it again
   * answers the same subscription.
   */
  private async subscribe(
    input: CrossSalePurchaseInput,
    offered: OfferSubscription,
    ownerContext: CommandContext,
  ): Promise<CrossSalePurchase> {
    const subscriptionId = createdObjectId(subscriptionResource, ownerContext);
    return this.purchases.run(subscriptionId, async () => {
      const plan = await this.deps.plans.find(offered.planId, ownerContext);
      if (plan?.status !== 'active')
        throw new InvalidRequestError(
          `Invalid parameter: offerId '${input.offerId}' cannot be bought: its plan is gone`,
          'offerId',
        );
      const card = await this.mainTransactionCard(input);
      const lookup = await this.deps.network.lookupThreeDSecure({ mode: ownerContext.mode, number: card.number });
      if (lookup.authenticationFlow === 'challenge')
        throw new CardError('authentication_required', 'The card requires 3-D Secure authentication.');
      const own = ownerContext.accountId === input.merchant.accountId;
      let customerId = input.card.customerId;
      if (!own) {
        if (input.email === null)
          throw new InvalidRequestError("A partner's subscription offer needs the payer's email", 'offerId');
        customerId = (await this.deps.customers.create({ email: input.email, card }, ownerContext)).id;
      }
      const outcome = await this.deps.subscriptions.create(
        {
          customerId,
          planId: offered.planId,
          captureCharges: offered.captureCharges,
          ...(own ? { card: input.card.cardId } : {}),
        },
        ownerContext,
      );
      await this.requireFirstChargeNotDeclined(ownerContext);
      return { accountId: ownerContext.accountId, chargeId: null, subscriptionId, position: outcome.position };
    });
  }

  /**
   * The answer of a subscription offer bought already with this purchase's seed, even if the offer
   * changed or went since. A run cut short may have left the first charge unmade: creating the
   * subscription again with the same seed finishes it, without a second one.
   */
  private async earlierSubscription(
    owner: Tenant,
    seed: string,
    context: CrossSalePurchaseContext,
  ): Promise<CrossSalePurchase | null> {
    const ownerContext: CommandContext = { ...context, ...owner, requestToken: seed };
    const subscriptionId = createdObjectId(subscriptionResource, ownerContext);
    const stream = subscriptionStream(subscriptionId);
    const { state } = await this.aggregates.load(subscriptionDecider, stream, owner);
    if (state.status === 'none') return null;
    return this.purchases.run(subscriptionId, async () => {
      const { customerId, planId } = state;
      const outcome = await this.deps.subscriptions.create({ customerId, planId }, ownerContext);
      await this.requireFirstChargeNotDeclined(ownerContext);
      return { accountId: owner.accountId, chargeId: null, subscriptionId, position: outcome.position };
    });
  }

  /**
   * A subscription whose first charge was declined stays `incomplete`, as the API leaves it; the
   * purchase answers the decline (`PaymentDeclined`), as a declined charge offer does.
   */
  private async requireFirstChargeNotDeclined(ownerContext: CommandContext): Promise<void> {
    const firstCharge = createdObjectId(chargeResource, ownerContext, 'first-charge');
    await this.deps.charges.recordedOutcome(firstCharge, ownerContext);
  }

  /** The answer of a purchase whose charge is recorded already (its decline, for a declined one). */
  private async earlierPurchase(
    input: CrossSalePurchaseInput,
    charge: { accountId: string; chargeId: string },
    context: CrossSalePurchaseContext,
  ): Promise<CrossSalePurchase | null> {
    const owner = { accountId: charge.accountId, mode: input.merchant.mode };
    const recorded = await this.purchases.run(charge.chargeId, () =>
      this.deps.charges.recordedOutcome(charge.chargeId, owner),
    );
    if (!recorded) return null;
    // The merchant may not have been told yet, if the first run was cut short.
    const informed = await this.informMerchant(input, charge, context);
    return { ...charge, subscriptionId: null, position: informed ?? recorded.position };
  }

  /** The saved card of the main transaction, as card details for the owner's card intake (no CVC). */
  private async mainTransactionCard(input: CrossSalePurchaseInput): Promise<CardDetailsInput> {
    const tenant = { accountId: input.merchant.accountId, mode: input.merchant.mode };
    const customer = await this.deps.cardSources.liveCustomer(input.card.customerId, tenant);
    const saved = customer.cards.find((card) => card.cardId === input.card.cardId && !card.deleted);
    if (!saved)
      throw new InvalidRequestError(
        `Invalid parameter: card '${input.card.cardId}' is not a card of customer '${input.card.customerId}'`,
        'card',
      );
    const { card } = saved;
    return {
      number: await this.deps.intake.revealNumber(card),
      expMonth: card.expMonth,
      expYear: card.expYear,
      cardholderName: card.cardholderName,
      ...cardAddress(card),
      fraudCheckData: card.fraudCheckData,
    };
  }

  /**
   * The merchant's main charge lists the cross-sale charge, or without one (a trial) its
   * subscription does; answers the position of that event.
   */
  private async informMerchant(
    input: CrossSalePurchaseInput,
    charge: { accountId: string; chargeId: string },
    context: CrossSalePurchaseContext,
  ): Promise<number | null> {
    const { merchant } = input;
    const crossSaleCharge = { ...charge, offerId: input.offerId };
    const merchantContext = { ...context, accountId: merchant.accountId, mode: merchant.mode };
    if (merchant.chargeId !== null) {
      const { chargeId } = merchant;
      const command = { type: 'AddCrossSaleCharge' as const, chargeId, crossSaleCharge };
      return (await this.aggregates.execute(chargeDecider, chargeStream(chargeId), command, merchantContext)).position;
    }
    if (merchant.subscriptionId !== null) {
      const { subscriptionId } = merchant;
      const command = { type: 'AddCrossSaleCharge' as const, subscriptionId, crossSaleCharge };
      const stream = subscriptionStream(subscriptionId);
      return (await this.aggregates.execute(subscriptionDecider, stream, command, merchantContext)).position;
    }
    return null;
  }
}
