import type { ChargeCommands } from './charge-commands.ts';
import type { CreateChargeInput } from './charge-inputs.ts';
import type { CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { CustomerCommands } from './customer-commands.ts';
import type { CreatePaymentMethodChargeInput, PaymentMethodChargeCommands } from './payment-method-charge-commands.ts';
import type { CreateSubscriptionInput, SubscriptionCommands } from './subscription-commands.ts';

export interface CheckoutPaymentCommandsDeps {
  charges: ChargeCommands;
  customers: CustomerCommands;
  subscriptions: SubscriptionCommands;
  paymentMethodCharges: PaymentMethodChargeCommands;
}

/** What a checkout payment made: its main object, the customer who paid, and the log position to read after. */
export interface CheckoutPaid extends CommandOutcome {
  customerId: string;
}

/** A card payer: a customer the checkout names (or the payer chose), else a new one with the payer's email. */
interface CardPayer {
  customerId: string | null;
  /** A token from the card fields, or a card id of the customer (a remembered card). */
  card: string;
  email: string;
}

/**
 * The checkout's payments, each a workflow over several objects (charge, customer, subscription),
 * made with the same commands as the API's so that their events and webhooks are the API's too.
 * Every step takes its ids from the request, so a retry after a crash finishes the workflow
 * (`docs/architecture.md`, "Crash safety of requests that write several streams").
 */
export class CheckoutPaymentCommands {
  constructor(private readonly deps: CheckoutPaymentCommandsDeps) {}

  /**
   * A charge. A new customer is made only once the charge succeeded (from the charge, which saves
   * its card), so that a declined card leaves nothing behind but the declined charge; throws
   * PaymentDeclined as a charge does.
   */
  async charge(
    payer: CardPayer,
    terms: Pick<
      CreateChargeInput,
      'amount' | 'currency' | 'description' | 'shipping' | 'captured' | 'metadata' | 'threeDSecure'
    >,
    context: CommandContext,
  ): Promise<CheckoutPaid> {
    const { customerId, card, email } = payer;
    const charged = await this.deps.charges.create({ ...terms, card, ...(customerId ? { customerId } : {}) }, context);
    if (customerId) return { ...charged, customerId };
    const created = await this.deps.customers.create({ email, card: charged.id }, context);
    const assigned = await this.deps.charges.update(charged.id, { customerId: created.id }, context);
    // Saving the charge's card may have assigned it already: then the update records nothing.
    return { id: charged.id, customerId: created.id, position: latest(created.position, assigned.position) };
  }

  /**
   * A subscription: the card becomes the customer's default card first, which renewals charge. The
   * first payment, made at once, carries the token's 3-D Secure verification; renewals do not.
   */
  async subscribe(
    payer: CardPayer & { cardIsSaved: boolean },
    terms: Pick<CreateSubscriptionInput, 'planId' | 'captureCharges' | 'metadata' | 'shipping'>,
    context: CommandContext,
  ): Promise<CheckoutPaid> {
    const { customerId, card, email, cardIsSaved } = payer;
    let subscriber: string;
    if (customerId === null) subscriber = (await this.deps.customers.create({ email, card }, context)).id;
    else {
      subscriber = customerId;
      await this.deps.customers.update(customerId, cardIsSaved ? { defaultCardId: card } : { card }, context);
    }
    const outcome = await this.deps.subscriptions.create(
      {
        customerId: subscriber,
        ...terms,
        // The first payment is made with the card just saved from the token, and its 3-D Secure.
        ...(cardIsSaved ? {} : { cardSavedFromToken: card }),
      },
      context,
    );
    return { ...outcome, customerId: subscriber };
  }

  /**
   * A payment-method charge: pending until the payer decides at the provider. It needs a customer
   * from the start, so a new one is made first.
   */
  async payWithPaymentMethod(
    payer: { customerId: string | null; email: string | null },
    charge: Omit<CreatePaymentMethodChargeInput, 'customerId'>,
    redirectUrlOf: (clientObjectId: string) => string,
    context: CommandContext,
  ): Promise<CheckoutPaid> {
    const customerId = payer.customerId ?? (await this.deps.customers.create({ email: payer.email! }, context)).id;
    const outcome = await this.deps.paymentMethodCharges.create({ ...charge, customerId }, redirectUrlOf, context);
    return { ...outcome, customerId };
  }
}

const latest = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);
