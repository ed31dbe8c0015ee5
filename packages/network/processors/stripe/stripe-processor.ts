import type { CardBrand, CardType } from '../../../domain/card/card-snapshot.ts';
import {
  ProcessorOutcomeUnknown,
  ProcessorRefused,
  ProcessorUnreachable,
  type Processor,
  type ProcessorAuthorization,
  type ProcessorAuthorizationRequest,
  type ProcessorCardInfo,
  type ProcessorCredit,
  type ProcessorCreditRequest,
  type ProcessorDecline,
  type ProcessorNotice,
  type ProcessorNotification,
  type ProcessorRecord,
  type ProcessorRefund,
  type ProcessorRefundRequest,
  type ProcessorSettings,
  type ProcessorStoredCard,
} from '../processor.ts';
import { StripeApi, StripeDecline, withoutCardNumbers } from './stripe-api.ts';
import { stripeDisputeEvidence } from './stripe-dispute-evidence.ts';
import { specCodeOfStripeDecline, type StripeDeclineReason } from './stripe-declines.ts';
import { StripeRefused, StripeTakesNoCredits } from './stripe-failures.ts';
import { stripeNotice } from './stripe-notifications.ts';
import {
  REFERENCE_KEY,
  referenceOf,
  type StripeCharge,
  type StripeCustomer,
  type StripePaymentIntent,
  type StripePaymentMethod,
  type StripeRefund,
} from './stripe-objects.ts';

/**
 * The Stripe adapter (`docs/architecture.md`, "Stripe processor"): a payment is a payment method made from
 * the card, then a payment intent confirmed at once, captured automatically or later; refunds refund
 * the intent. `processorId` is the payment intent's id.
 *
 * Every creation carries an `Idempotency-Key` derived from the reference and the reference in its
 * metadata. Lookups (`findAuthorization`, `findRefund`) list and match the metadata rather than use
 * Stripe's search, which Stripe documents as lagging behind writes (and localstripe lacks):
 * `findAuthorization` reads the payment intents of the last `lookbackMs` (from the intent's time
 * when that is older), newest first, until an approved attempt with the reference.
 */

export interface StripeProcessorOptions {
  /** How far back `findAuthorization` looks for an earlier attempt. */
  lookbackMs?: number;
  now?: () => Date;
}

const DEFAULT_LOOKBACK_MS = 3 * 24 * 60 * 60 * 1000;
/** How much earlier than the intent's own time a lookup begins: Stripe's clock may be behind ours. */
const CLOCK_MARGIN_MS = 5 * 60 * 1000;
/** Stripe's limit on a metadata value. */
const METADATA_VALUE_MAX = 500;

export class StripeProcessor implements Processor {
  readonly kind = 'stripe';
  private readonly api: StripeApi;
  private readonly lookbackMs: number;
  private readonly now: () => Date;

  constructor(settings: Omit<ProcessorSettings, 'kind'>, options: StripeProcessorOptions = {}) {
    this.api = new StripeApi(settings);
    this.lookbackMs = options.lookbackMs ?? DEFAULT_LOOKBACK_MS;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * A Stripe customer with the card's payment method attached, made with the CVC: Stripe reuses
   * only a payment method attached to a customer, and charges it off-session without a CVC. The
   * stored card is `<customer id>/<payment method id>`.
   */
  async keepCard(request: Parameters<Processor['keepCard']>[0]): Promise<ProcessorStoredCard> {
    try {
      return await this.keptCard(request);
    } catch (error) {
      // Stripe refused the card (attaching it is declined): not kept, and nothing was paid.
      if (error instanceof StripeDecline) throw new StripeRefused(error.message, 402, error.error.code ?? null);
      throw error;
    }
  }

  private async keptCard(request: Parameters<Processor['keepCard']>[0]): Promise<ProcessorStoredCard> {
    const paymentMethod = await this.paymentMethodOf(request);
    const customer = await this.api.post<StripeCustomer>(
      '/v1/customers',
      { metadata: { [REFERENCE_KEY]: request.reference } },
      `${request.reference}:customer`,
    );
    await this.api.post(
      `/v1/payment_methods/${encodeURIComponent(paymentMethod.id)}/attach`,
      { customer: customer.id },
      `${request.reference}:attach`,
    );
    return { storedCard: `${customer.id}/${paymentMethod.id}`, card: cardInfoOf(paymentMethod) };
  }

  /** The payment method's card updated (Stripe's payment method update takes a card's expiry). */
  async updateStoredCardExpiry(request: Parameters<Processor['updateStoredCardExpiry']>[0]): Promise<void> {
    const [, paymentMethod] = request.storedCard.split('/');
    try {
      await this.api.post(
        `/v1/payment_methods/${encodeURIComponent(paymentMethod ?? '')}`,
        { card: { exp_month: request.expMonth, exp_year: request.expYear } },
        `${request.reference}:expiry:${request.expMonth}/${request.expYear}`,
      );
    } catch (error) {
      if (error instanceof StripeRefused || error instanceof StripeDecline) throw new ProcessorRefused(error.message);
      throw error;
    }
  }

  private paymentMethodOf(
    request: Pick<ProcessorAuthorizationRequest, 'reference' | 'number' | 'expMonth' | 'expYear' | 'cvc'>,
  ) {
    return this.api.post<StripePaymentMethod>(
      '/v1/payment_methods',
      {
        type: 'card',
        card: {
          number: request.number,
          exp_month: request.expMonth,
          exp_year: request.expYear,
          ...(request.cvc ? { cvc: request.cvc } : {}),
        },
        metadata: { [REFERENCE_KEY]: request.reference },
      },
      `${request.reference}:payment_method`,
    );
  }

  async authorize(request: ProcessorAuthorizationRequest): Promise<ProcessorAuthorization> {
    const metadata = {
      [REFERENCE_KEY]: request.reference,
      ...(request.description ? { description: request.description.slice(0, METADATA_VALUE_MAX) } : {}),
    };
    const [customer, storedMethod] = request.storedCard?.split('/') ?? [];
    let paymentMethod: StripePaymentMethod;
    if (customer && storedMethod) {
      paymentMethod = { id: storedMethod };
    } else {
      try {
        paymentMethod = await this.paymentMethodOf(request);
      } catch (error) {
        if (error instanceof StripeDecline) return declined(null, error.error);
        // No payment was attempted yet: whatever became of the payment method, nothing was taken.
        if (error instanceof ProcessorOutcomeUnknown) {
          throw new ProcessorUnreachable(`${error.message} (before any payment was attempted)`, { cause: error });
        }
        throw error;
      }
    }
    const card = paymentMethod.card ? cardInfoOf(paymentMethod) : null;

    try {
      const intent = await this.api.post<StripePaymentIntent>(
        '/v1/payment_intents',
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          ...(customer ? { customer } : {}),
          payment_method: paymentMethod.id,
          payment_method_types: ['card'],
          capture_method: request.capture ? 'automatic' : 'manual',
          confirm: true,
          // A stored card charged without the cardholder: Stripe's merchant-initiated payment.
          ...(customer && merchantInitiated(request) ? { off_session: true } : {}),
          metadata,
        },
        `${request.reference}:payment_intent`,
      );
      return { ...authorizationOf(intent), card };
    } catch (error) {
      if (error instanceof StripeDecline) return declined(await this.declinedIntentId(error), error.error);
      throw error;
    }
  }

  /**
   * The payment intent a decline was made on. Stripe's error carries it; one that names only the
   * failed charge (localstripe's) is asked for the charge's intent. The decline stands without it.
   */
  private async declinedIntentId(decline: StripeDecline): Promise<string | null> {
    if (decline.error.payment_intent?.id) return decline.error.payment_intent.id;
    if (!decline.error.charge) return null;
    try {
      return (await this.api.get<StripeCharge>(`/v1/charges/${encodeURIComponent(decline.error.charge)}`))
        .payment_intent;
    } catch {
      return null;
    }
  }

  async findAuthorization(reference: string, since?: Date): Promise<ProcessorAuthorization | null> {
    const now = this.now();
    // From the intent (less a margin for the two clocks) when it is older than the usual lookback.
    const lookback = now.getTime() - this.lookbackMs;
    const from = new Date(since ? Math.min(lookback, since.getTime() - CLOCK_MARGIN_MS) : lookback);
    // Without idempotency (localstripe) a retry can have made a second attempt: an approved one wins.
    const attempts: StripePaymentIntent[] = [];
    for await (const intent of this.api.list<StripePaymentIntent>('/v1/payment_intents', {}, from)) {
      if (referenceOf(intent) !== reference) continue;
      if (intent.status === 'succeeded' || intent.status === 'requires_capture') return authorizationOf(intent);
      attempts.push(intent);
    }
    return attempts.length === 0 ? null : authorizationOf(newest(attempts));
  }

  async capture(request: { reference: string; processorId: string; amount: number; currency: string }): Promise<void> {
    const path = `/v1/payment_intents/${encodeURIComponent(request.processorId)}`;
    try {
      await this.api.post(`${path}/capture`, { amount_to_capture: request.amount }, `${request.reference}:capture`);
    } catch (error) {
      if (!(error instanceof StripeRefused || error instanceof StripeDecline)) throw error;
      // A capture whose answer was lost, asked again where Stripe does not replay it: already done.
      const intent = await this.api.get<StripePaymentIntent>(path);
      if (intent.status === 'succeeded') return;
      if (error instanceof StripeDecline) throw new StripeRefused(error.message, 402, error.error.code ?? null);
      throw error;
    }
  }

  async refund(request: ProcessorRefundRequest): Promise<ProcessorRefund> {
    const refund = await this.api.post<StripeRefund>(
      '/v1/refunds',
      {
        payment_intent: request.processorId,
        amount: request.amount,
        metadata: { [REFERENCE_KEY]: request.reference },
      },
      `${request.reference}:refund`,
    );
    return refundOf(refund);
  }

  async findRefund(reference: string, processorId: string): Promise<ProcessorRefund | null> {
    for await (const refund of this.api.list<StripeRefund>('/v1/refunds', { payment_intent: processorId })) {
      if (referenceOf(refund) === reference) return refundOf(refund);
    }
    return null;
  }

  credit(_request: ProcessorCreditRequest): Promise<ProcessorCredit> {
    return Promise.reject(new StripeTakesNoCredits());
  }

  /** Stripe never makes a credit for this adapter. */
  findCredit(_reference: string): Promise<ProcessorCredit | null> {
    return Promise.resolve(null);
  }

  /**
   * The dispute of the payment intent (Stripe lists disputes by payment intent), updated with the
   * evidence and submitted at once (`submit`): this service takes one submission per dispute.
   * Finding it sends nothing, so a failure to find it is a refusal.
   */
  async submitDisputeEvidence(request: Parameters<Processor['submitDisputeEvidence']>[0]): Promise<void> {
    let disputeId: string | undefined;
    try {
      const disputes = await this.api.get<{ data: { id: string }[] }>('/v1/disputes', {
        payment_intent: request.processorId,
      });
      disputeId = disputes.data[0]?.id;
    } catch (error) {
      if (error instanceof ProcessorUnreachable) throw error;
      throw new ProcessorRefused(
        `Stripe could not show the dispute of ${request.processorId}; no evidence was sent (${(error as Error).message})`,
      );
    }
    if (!disputeId) throw new ProcessorRefused(`Stripe holds no dispute of ${request.processorId}`);
    try {
      await this.api.post(
        `/v1/disputes/${encodeURIComponent(disputeId)}`,
        { evidence: stripeDisputeEvidence(request.evidence), submit: true },
        `${request.reference}:evidence`,
      );
    } catch (error) {
      if (error instanceof StripeRefused || error instanceof StripeDecline) throw new ProcessorRefused(error.message);
      throw error;
    }
  }

  /** Verified by its `Stripe-Signature` with the endpoint's signing secret. */
  notice(notification: ProcessorNotification, webhookSecret: string | null): Promise<ProcessorNotice | null> {
    return stripeNotice(this.api, notification, webhookSecret, this.now());
  }

  async *records(window: { from: Date; to: Date }): AsyncIterable<ProcessorRecord> {
    const inWindow = windowInSeconds(window);
    const intentOfCharge = new Map<string, string>();
    for await (const intent of this.api.list<StripePaymentIntent>(
      '/v1/payment_intents',
      { expand: ['data.latest_charge'] },
      window.from,
    )) {
      const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
      if (charge) intentOfCharge.set(charge.id, intent.id);
      if (inWindow(intent.created)) yield chargeRecordOf(intent, charge);
    }
    for await (const refund of this.api.list<StripeRefund>('/v1/refunds', {}, window.from)) {
      if (!inWindow(refund.created)) continue;
      yield {
        kind: 'refund',
        processorId: refund.id,
        reference: referenceOf(refund),
        chargeProcessorId: refund.payment_intent ?? (await this.intentOfCharge(refund.charge, intentOfCharge)),
        amount: refund.amount,
        currency: refund.currency.toUpperCase(),
        status: refundRecordStatus(refund),
        amountRefunded: 0,
        created: new Date(refund.created * 1000),
      };
    }
  }

  /** The payment intent of a refund that names only its charge (one refunding an older payment). */
  private async intentOfCharge(chargeId: string | null, known: Map<string, string>): Promise<string | null> {
    if (!chargeId) return null;
    const intentId =
      known.get(chargeId) ??
      (await this.api.get<StripeCharge>(`/v1/charges/${encodeURIComponent(chargeId)}`)).payment_intent;
    if (intentId) known.set(chargeId, intentId);
    return intentId ?? null;
  }
}

function authorizationOf(intent: StripePaymentIntent): ProcessorAuthorization {
  switch (intent.status) {
    case 'succeeded':
      return { approved: true, processorId: intent.id, decline: null, captured: true };
    case 'requires_capture':
      return { approved: true, processorId: intent.id, decline: null, captured: false };
    case 'processing':
      throw new ProcessorOutcomeUnknown(`Stripe is still processing payment intent ${intent.id}`);
    case 'requires_action':
      // The issuer asks for 3-D Secure, which a server-side payment cannot answer.
      return declined(intent.id, {
        code: 'authentication_required',
        message: 'The card issuer requires authentication (3-D Secure) for this payment',
      });
    case 'requires_payment_method':
      return declined(intent.id, intent.last_payment_error ?? { message: 'The card was declined' });
    case 'requires_confirmation':
    case 'canceled':
      return declined(intent.id, {
        code: intent.status,
        message: `Stripe left the payment intent ${intent.status.replace('_', ' ')}`,
      });
  }
}

/** Renewals and a merchant's charges of a saved card: the cardholder takes no part. */
function merchantInitiated(request: ProcessorAuthorizationRequest): boolean {
  return request.type === 'subsequent_recurring' || request.type === 'merchant_initiated';
}

const STRIPE_BRANDS: Record<string, CardBrand> = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
};
const STRIPE_FUNDING: Record<string, CardType> = {
  credit: 'Credit Card',
  debit: 'Debit Card',
  prepaid: 'Prepaid Card',
};

/** The BIN data of a Stripe payment method: brand, funding (type) and country; Stripe names no issuer. */
function cardInfoOf(paymentMethod: StripePaymentMethod): ProcessorCardInfo {
  const card = paymentMethod.card ?? {};
  const brand = card.brand ? STRIPE_BRANDS[card.brand] : undefined;
  const type = card.funding ? STRIPE_FUNDING[card.funding] : undefined;
  return {
    ...(brand ? { brand } : {}),
    ...(type ? { type } : {}),
    ...(card.country ? { country: card.country } : {}),
  };
}

function declined(processorId: string | null, reason: StripeDeclineReason): ProcessorAuthorization {
  return { approved: false, processorId, decline: declineOf(reason), captured: false };
}

function declineOf(reason: StripeDeclineReason): ProcessorDecline {
  return {
    code: specCodeOfStripeDecline(reason),
    message: withoutCardNumbers(reason.message ?? 'The card was declined'),
    processorCode: reason.decline_code ?? reason.code ?? null,
  };
}

function refundOf(refund: StripeRefund): ProcessorRefund {
  // A card refund Stripe accepted is `pending` until the network confirms it; one that fails later
  // arrives as a processor event.
  const accepted = refund.status === 'succeeded' || refund.status === 'pending';
  return { processorRefundId: refund.id, status: accepted ? 'successful' : 'failed' };
}

function chargeRecordOf(intent: StripePaymentIntent, charge: StripeCharge | null): ProcessorRecord {
  return {
    kind: 'charge',
    processorId: intent.id,
    reference: referenceOf(intent),
    chargeProcessorId: null,
    amount: intent.amount,
    currency: intent.currency.toUpperCase(),
    status: chargeRecordStatus(intent),
    amountRefunded: charge?.amount_refunded ?? 0,
    created: new Date(intent.created * 1000),
  };
}

function chargeRecordStatus(intent: StripePaymentIntent): ProcessorRecord['status'] {
  if (intent.status === 'succeeded' || intent.status === 'requires_capture') return 'successful';
  if (intent.status === 'processing') return 'pending';
  return 'failed';
}

function refundRecordStatus(refund: StripeRefund): ProcessorRecord['status'] {
  if (refund.status === 'succeeded') return 'successful';
  if (refund.status === 'pending' || refund.status === 'requires_action') return 'pending';
  return 'failed';
}

function newest(intents: StripePaymentIntent[]): StripePaymentIntent {
  return intents.reduce((latest, intent) => (intent.created > latest.created ? intent : latest));
}

/** Stripe keeps creation times in whole seconds: the window widens to the seconds it touches. */
function windowInSeconds(window: { from: Date; to: Date }): (created: number) => boolean {
  const from = Math.floor(window.from.getTime() / 1000);
  const to = Math.ceil(window.to.getTime() / 1000);
  return (created) => created >= from && created < to;
}
