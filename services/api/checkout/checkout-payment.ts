import { z } from 'zod';
import type { CheckoutRequest } from '../../../packages/checkout/checkout-request-schema.ts';
import { CheckoutPaymentCommands } from '../../../packages/commands/checkout-payment-commands.ts';
import type { CommandContext } from '../../../packages/commands/command-context.ts';
import {
  CardError,
  InvalidRequestError,
  missingParameter,
  type CardErrorCode,
} from '../../../packages/domain/errors.ts';
import {
  paymentMethodTypes,
  type PaymentMethodType,
} from '../../../packages/domain/payment-method/payment-method-events.ts';
import { p } from '../../../packages/http/params.ts';
import { validateParameters } from '../../../packages/http/validation.ts';
import { chargesCollection } from '../../../projections/charges-projection.ts';
import { customersCollection } from '../../../projections/customers-projection.ts';
import { subscriptionsCollection } from '../../../projections/subscriptions-projection.ts';
import type { Commands } from '../../commands.ts';
import type { ObjectReader } from '../object-reader.ts';
import { MAX_AMOUNT } from '../schemas/money-schemas.ts';
import { shippingSchema } from '../schemas/address-schemas.ts';
import { paymentRedirectPath } from '../payment-redirect-page.ts';
import type { CheckoutSessions } from './checkout-sessions.ts';
import { digestOf } from './checkout-sessions.ts';
import type { VerifiedCheckout } from './checkout-verification.ts';
import type { RememberedCard, RememberedPayers } from './remembered-payers.ts';
import { checkoutThreeDSecure, requireAuthenticatedForSubscription } from './checkout-three-d-secure.ts';
import { cardResource } from '../../../packages/domain/customer/customer-events.ts';
import { CATALOGS, type Locale } from '../../../packages/client-side/i18n/index.ts';
import { isIdOf } from '../../../packages/ids/object-id.ts';

/** The languages the pages speak, which the page may name for the page it returns to. */
const LOCALES = Object.keys(CATALOGS) as [Locale, ...Locale[]];

/** What the checkout page sends to pay (JSON). */
export const checkoutPaymentBody = p.object({
  checkoutRequest: p.string({ min: 1 }),
  email: z.email({ error: 'must be an email address' }).max(255).optional(),
  token: p.id('tok').optional(),
  rememberedCard: p.string({ min: 1, max: 512 }).optional(),
  amount: p.int({ min: 1, max: MAX_AMOUNT }).optional(),
  rememberMe: p.bool().optional(),
  /** The payer's shipping address, when the merchant's page asked for it (`shippingAddress` option). */
  shipping: shippingSchema.optional(),
  /** Pay with this payment method (one the request offers) instead of a card. */
  paymentMethod: z.enum(paymentMethodTypes, { error: `must be one of ${paymentMethodTypes.join(', ')}` }).optional(),
  /** The page's language, for the page the provider sends the payer back to. */
  locale: z.enum(LOCALES, { error: `must be one of ${LOCALES.join(', ')}` }).optional(),
});
export type CheckoutPaymentBody = z.infer<typeof checkoutPaymentBody>;

export interface CheckoutPaymentDependencies {
  commands: Commands;
  reader: ObjectReader;
  sessions: CheckoutSessions;
  rememberedPayers: RememberedPayers;
}

/** Where this service is reached from the payer's browser: payment-method redirects come back there. */
export interface PayerAddress {
  baseUrl: string;
}

/** A payment sent with an `Idempotency-Key`: the objects it makes get ids derived from `token`. */
export interface IdempotentCheckout {
  key: string;
  token: string;
}

/** The main transaction's answer: what the merchant's callback receives, and the session for offers. */
export interface CheckoutPaymentResult {
  charge?: object;
  subscription?: object;
  customer: object;
  session: string;
}

/**
 * Pays a verified checkout request with a card from the card fields (a token) or a remembered
 * card: a charge of the fixed or chosen amount, or a subscription to the plan, for the named
 * customer or a new one with the payer's email. The same commands as the API's make the objects,
 * so their events and webhooks are the API's too.
 */
export async function payCheckout(
  deps: CheckoutPaymentDependencies,
  verified: VerifiedCheckout,
  body: unknown,
  requestId: string,
  address: PayerAddress,
  idempotent?: IdempotentCheckout,
): Promise<CheckoutPaymentResult> {
  const input = validateParameters(checkoutPaymentBody, body);
  const { auth, request } = verified;
  const context: CommandContext = {
    accountId: auth.accountId,
    mode: auth.mode,
    actor: auth.keyId,
    requestId,
    now: () => new Date(),
    ...(idempotent ? { idempotencyKey: idempotent.key, requestToken: idempotent.token } : {}),
  };
  const email = input.email ?? verified.view.customer?.email ?? null;
  if (!request.customerId && email === null) throw missingParameter('email');
  const ways = [input.token, input.rememberedCard, input.paymentMethod].filter((way) => way !== undefined);
  if (ways.length !== 1)
    throw new InvalidRequestError('Invalid request: pay with one of token, rememberedCard and paymentMethod');
  if (input.paymentMethod !== undefined)
    return payWithPaymentMethod(deps, verified, input, input.paymentMethod, email, context, address);
  const remembered = input.rememberedCard ? await redeemed(deps, verified, email, input.rememberedCard) : null;
  if (remembered && request.customerId && remembered.customerId !== request.customerId)
    throw new InvalidRequestError(
      'Invalid parameter: rememberedCard belongs to another customer than the request names',
    );
  const card = remembered?.cardId ?? input.token!;
  const customerId = remembered?.customerId ?? request.customerId ?? null;

  const threeDSecure = checkoutThreeDSecure(request);
  if (request.subscription && threeDSecure)
    await requireAuthenticatedForSubscription(
      deps.commands.tokens,
      threeDSecure,
      card,
      verified.view.subscription!,
      context,
    );
  const payer: Payer = { customerId, card, email: email!, shipping: input.shipping };
  const paid = request.subscription
    ? await subscribe(deps, request.subscription, payer, context)
    : await charge(deps, request, chargedAmount(request, input.amount), payer, context);

  const customer = await deps.reader.getAfter(paid.position, customersCollection, paid.customerId, auth);
  const cardId = paid.cardId ?? customer.defaultCardId;
  if (cardId === null) throw new Error('A paid checkout left its customer without a card');
  const tenant = { accountId: auth.accountId, mode: auth.mode };
  if (input.rememberMe && request.rememberMe && email !== null && !remembered)
    await deps.rememberedPayers.remember(tenant, email, { customerId: customer.id, cardId }, context.now());
  const session = await deps.sessions.open(
    {
      ...tenant,
      customerId: customer.id,
      cardId,
      email,
      chargeId: paid.charge ? (paid.charge as { id: string }).id : null,
      subscriptionId: paid.subscription ? (paid.subscription as { id: string }).id : null,
      requestDigest: digestOf(verified.view.checkoutRequest),
    },
    context.now(),
  );
  return {
    ...(paid.charge ? { charge: paid.charge } : {}),
    ...(paid.subscription ? { subscription: paid.subscription } : {}),
    customer,
    session,
  };
}

/**
 * A payment-method charge: pending until the payer decides at the provider (the page follows
 * `flow.nextAction` with Shift4.js, then asks `POST /checkout/payment-status`). It needs a
 * customer from the start, so a new one is made first. Offers cannot be bought after it: they
 * are charged to a card.
 */
async function payWithPaymentMethod(
  deps: CheckoutPaymentDependencies,
  verified: VerifiedCheckout,
  input: CheckoutPaymentBody,
  type: PaymentMethodType,
  email: string | null,
  context: CommandContext,
  address: PayerAddress,
): Promise<CheckoutPaymentResult> {
  const { request, auth } = verified;
  if (!request.paymentMethodTypes?.includes(type))
    throw new InvalidRequestError(
      'Invalid parameter: paymentMethod is not offered by this checkout request',
      'paymentMethod',
    );
  const { amount, currency } = chargedAmount(request, input.amount);
  const terms = request.charge ?? request.customCharge!;
  const { customerId, ...outcome } = await checkoutPayments(deps).payWithPaymentMethod(
    { customerId: request.customerId ?? null, email },
    {
      amount,
      currency,
      paymentMethod: { type, ...(email ? { billing: { email } } : {}) },
      returnUrl: `${address.baseUrl}${checkoutReturnPath}${input.locale ? `?locale=${input.locale}` : ''}`,
      ...(terms.description !== undefined ? { description: terms.description } : {}),
      ...(input.shipping ? { shipping: input.shipping } : {}),
      ...(terms.capture !== undefined ? { captured: terms.capture } : {}),
      ...(terms.metadata ? { metadata: terms.metadata } : {}),
    },
    (clientObjectId) => `${address.baseUrl}${paymentRedirectPath(clientObjectId)}`,
    context,
  );
  const charge = await deps.reader.getAfter(outcome.position, chargesCollection, outcome.id, auth);
  const customer = await deps.reader.get(customersCollection, customerId, auth);
  const session = await deps.sessions.open(
    {
      accountId: auth.accountId,
      mode: auth.mode,
      customerId,
      cardId: null,
      email,
      chargeId: charge.id,
      subscriptionId: null,
      requestDigest: digestOf(verified.view.checkoutRequest),
    },
    context.now(),
  );
  return { charge, customer, session };
}

/** Where the provider's page sends the payer back: a page that only says the payment was completed. */
export const checkoutReturnPath = '/checkout/returned';

/** The main transaction as it stands now: a payment-method charge's outcome, once the payer decided. */
export async function checkoutPaymentStatus(
  deps: Pick<CheckoutPaymentDependencies, 'reader' | 'sessions'>,
  verified: VerifiedCheckout,
  body: unknown,
): Promise<{ charge?: object; subscription?: object; customer: object }> {
  const input = validateParameters(sessionBody, body);
  const session = await deps.sessions.paid(
    input.session,
    { checkoutRequest: verified.view.checkoutRequest, ...verified.auth },
    new Date(),
  );
  const { auth } = verified;
  return {
    ...(session.chargeId ? { charge: await deps.reader.get(chargesCollection, session.chargeId, auth) } : {}),
    ...(session.subscriptionId
      ? { subscription: await deps.reader.get(subscriptionsCollection, session.subscriptionId, auth) }
      : {}),
    customer: await deps.reader.get(customersCollection, session.customerId, auth),
  };
}

const sessionBody = p.object({ checkoutRequest: p.string({ min: 1 }), session: p.string({ min: 1, max: 128 }) });

/**
 * Who pays and what the payer gave: the customer the checkout names (or the payer chose), the card
 * (a token or a remembered card), the email, a shipping address.
 */
interface Payer {
  customerId: string | null;
  card: string;
  email: string;
  shipping: CheckoutPaymentBody['shipping'];
}

interface Paid {
  charge?: object;
  subscription?: object;
  customerId: string;
  cardId: string | null;
  position: number | null;
}

/** The amount of a fixed charge, or the payer's choice of a custom charge within what it offers. */
function chargedAmount(request: CheckoutRequest, chosen: number | undefined): { amount: number; currency: string } {
  if (request.charge) return { amount: request.charge.amount, currency: request.charge.currency };
  const custom = request.customCharge!;
  if (chosen === undefined) throw missingParameter('amount');
  const options = custom.amountOptions ?? [];
  const range = custom.customAmount;
  if (options.includes(chosen) || (range && chosen >= range.min && chosen <= range.max))
    return { amount: chosen, currency: custom.currency };
  const allowed = [
    ...(options.length ? [`one of ${options.join(', ')}`] : []),
    ...(range ? [`between ${range.min} and ${range.max}`] : []),
  ].join(' or ');
  throw new InvalidRequestError(
    `Invalid parameter: amount must be ${allowed} (minor units of ${custom.currency})`,
    'amount',
  );
}

/** The checkout's workflows, made of the API's command services. */
const checkoutPayments = (deps: CheckoutPaymentDependencies) => new CheckoutPaymentCommands(deps.commands);

/** A charge of the checkout's terms (`CheckoutPaymentCommands.charge`), answered as the charge reads then. */
async function charge(
  deps: CheckoutPaymentDependencies,
  request: CheckoutRequest,
  { amount, currency }: { amount: number; currency: string },
  { shipping, ...payer }: Payer,
  context: CommandContext,
): Promise<Paid> {
  const terms = request.charge ?? request.customCharge!;
  const threeDSecure = checkoutThreeDSecure(request);
  let paidBy: { customerId: string; position: number | null } | undefined;
  const charged = await deps.reader.paymentAfter(
    async () => {
      const paid = await checkoutPayments(deps).charge(
        payer,
        {
          amount,
          currency,
          ...(terms.description !== undefined ? { description: terms.description } : {}),
          ...(shipping ? { shipping } : {}),
          ...(terms.capture !== undefined ? { captured: terms.capture } : {}),
          ...(terms.metadata ? { metadata: terms.metadata } : {}),
          ...(threeDSecure ? { threeDSecure } : {}),
        },
        context,
      );
      paidBy = paid;
      return paid;
    },
    chargesCollection,
    context,
  );
  // A new customer's card is its default card.
  const cardId = payer.customerId ? ((charged.card as { id?: string } | null)?.id ?? null) : null;
  return { charge: charged, customerId: paidBy!.customerId, cardId, position: paidBy!.position };
}

/**
 * A subscription to the checkout's plan (`CheckoutPaymentCommands.subscribe`), answered as it reads
 * then. Without a trial its first payment is the answer's `charge`; when it was declined the
 * subscription stays `incomplete` (as the API leaves it) and the payer is told the decline, as for
 * a charge, and may pay again with another card.
 */
async function subscribe(
  deps: CheckoutPaymentDependencies,
  terms: NonNullable<CheckoutRequest['subscription']>,
  { shipping, ...payer }: Payer,
  context: CommandContext,
): Promise<Paid> {
  const cardIsSaved = isIdOf(cardResource, payer.card);
  const outcome = await checkoutPayments(deps).subscribe(
    { ...payer, cardIsSaved },
    {
      planId: terms.planId,
      ...(terms.captureCharges !== undefined ? { captureCharges: terms.captureCharges } : {}),
      ...(terms.metadata ? { metadata: terms.metadata } : {}),
      ...(shipping ? { shipping } : {}),
    },
    context,
  );
  const subscription = await deps.reader.getAfter(outcome.position, subscriptionsCollection, outcome.id, context);
  const firstCharge = await firstChargeOf(deps, subscription.id, context);
  if (subscription.status === 'incomplete')
    throw new CardError(
      (firstCharge?.failureCode as CardErrorCode | null | undefined) ?? 'card_declined',
      firstCharge?.failureMessage ?? 'The card was declined.',
      firstCharge ? { chargeId: firstCharge.id } : {},
    );
  return {
    ...(firstCharge ? { charge: firstCharge } : {}),
    subscription,
    customerId: outcome.customerId,
    cardId: cardIsSaved ? payer.card : null,
    position: outcome.position,
  };
}

/** The charge a subscription made when it was created (none during a trial): the only one it has then. */
async function firstChargeOf(
  deps: CheckoutPaymentDependencies,
  subscriptionId: string,
  tenant: CommandContext,
): Promise<{ id: string; failureCode?: string | null; failureMessage?: string | null } | null> {
  const { list } = await deps.reader.list(chargesCollection, tenant, { limit: 1 }, { subscriptionId });
  return (list[0] as { id: string; failureCode?: string | null; failureMessage?: string | null } | undefined) ?? null;
}

async function redeemed(
  deps: CheckoutPaymentDependencies,
  verified: VerifiedCheckout,
  email: string | null,
  grant: string,
): Promise<RememberedCard> {
  const card =
    email === null
      ? null
      : await deps.rememberedPayers.redeem(
          { accountId: verified.auth.accountId, mode: verified.auth.mode },
          email,
          grant,
          new Date(),
        );
  if (!card)
    throw new InvalidRequestError(
      'Invalid parameter: rememberedCard is not valid (any more); confirm again',
      'rememberedCard',
    );
  return card;
}
