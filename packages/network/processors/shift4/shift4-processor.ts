import type { CardBrand, CardType } from '../../../domain/card/card-snapshot.ts';
import type { CardErrorCode } from '../../../domain/errors.ts';
import {
  ProcessorOutcomeUnknown,
  ProcessorRefused,
  ProcessorUnreachable,
  type Processor,
  type ProcessorAuthorization,
  type ProcessorCardInfo,
  type ProcessorCardPayment,
  type ProcessorCredit,
  type ProcessorDecline,
  type ProcessorNotice,
  type ProcessorNotification,
  type ProcessorRecord,
  type ProcessorRefund,
  type ProcessorSettings,
  type ProcessorStoredCard,
} from '../processor.ts';
import { Shift4Client, type Shift4Error } from './shift4-client.ts';
import { shift4Notice } from './shift4-notifications.ts';

/** The parts of the Shift4 objects this adapter reads. */
interface Shift4Refund {
  id: string;
  created: number;
  amount: number;
  currency: string;
  charge: string;
  status: 'successful' | 'failed' | 'pending';
  metadata?: Record<string, string>;
}

/** A card as the Shift4 API shows it: its BIN data among the rest. */
interface Shift4Card {
  id: string;
  brand?: string;
  type?: string;
  country?: string | null;
  issuer?: string | null;
}

interface Shift4Customer {
  id: string;
  defaultCardId?: string | null;
  cards?: Shift4Card[];
}

interface Shift4Charge {
  id: string;
  created: number;
  amount: number;
  currency: string;
  status: 'successful' | 'failed' | 'pending';
  captured: boolean;
  card?: Shift4Card | null;
  refunds?: Shift4Refund[];
  dispute?: { id: string } | null;
  metadata?: Record<string, string>;
  failureCode?: string;
  failureMessage?: string;
  failureIssuerDeclineCode?: string | null;
}

interface Shift4Credit {
  id: string;
  created: number;
  amount: number;
  currency: string;
  status: 'successful' | 'failed';
  metadata?: Record<string, string>;
  failureCode?: string;
  failureMessage?: string;
  failureIssuerDeclineCode?: string | null;
}

interface Shift4List<Item> {
  list: Item[];
  hasMore: boolean;
}

/** The metadata key that carries this service's reference on the processor's objects. */
export const REFERENCE_KEY = 'reference';

/** How far back a lookup by reference searches when the caller names no earlier time. */
const DEFAULT_LOOKBACK_MS = 31 * 24 * 3600_000;

/** The card error codes of the spec a Shift4 decline may carry; any other becomes `card_declined`. */
const CARD_ERROR_CODES = new Set<CardErrorCode>([
  'incorrect_cvc',
  'incorrect_zip',
  'expired_card',
  'insufficient_funds',
  'lost_or_stolen',
  'suspected_fraud',
  'limit_exceeded',
  'card_declined',
  'processing_error',
  'do_not_try_again',
  'authentication_required',
  'invalid_number',
  'invalid_cvc',
  'invalid_expiry_month',
  'invalid_expiry_year',
]);

/**
 * The Shift4 API (the API this service offers too: `docs/api.md`) as a processor of live mode.
 * Every create carries this service's reference as the `Idempotency-Key` (Shift4 answers a repeat
 * with the first answer) and as `metadata[reference]`, which the lookups search for: charges and
 * credits in the list (newest first, stopping at `since`), refunds on their charge.
 */
export class Shift4Processor implements Processor {
  readonly kind = 'shift4' as const;
  private readonly client: Shift4Client;

  constructor(settings: Omit<ProcessorSettings, 'kind'>) {
    this.client = new Shift4Client(settings.url, settings.secretKey, settings.timeoutMs);
  }

  /**
   * A customer at the processor holding the card, made with its CVC: Shift4 keeps cards on its
   * customers, and a charge of `customerId` and the card's id needs no CVC. The stored card is
   * `<customer id>/<card id>`. A Shift4 customer needs an email, and the payer's is not this
   * adapter's to hand on: the address is the card's reference at the reserved `.invalid` domain,
   * which no mail can reach.
   */
  async keepCard(request: Parameters<Processor['keepCard']>[0]): Promise<ProcessorStoredCard> {
    const answer = await this.client.post<Shift4Customer>(
      '/customers',
      {
        email: `${request.reference}@card-on-file.invalid`,
        'card[number]': request.number,
        'card[expMonth]': request.expMonth,
        'card[expYear]': request.expYear,
        'card[cvc]': request.cvc,
        'card[cardholderName]': request.cardholderName,
        [`metadata[${REFERENCE_KEY}]`]: request.reference,
      },
      `${request.reference}:customer`,
    );
    const card = answer.body.cards?.find((candidate) => candidate.id === answer.body.defaultCardId);
    if (answer.status !== 200 || !card)
      throw new ProcessorUnreachable(
        `Shift4 did not keep the card (POST /customers answered ${answer.status} ${answer.body.error?.message ?? ''})`,
      );
    return { storedCard: `${answer.body.id}/${card.id}`, card: cardInfoOf(card) };
  }

  /** The card on its customer, updated as the client libraries' `cards.update` does. */
  async updateStoredCardExpiry(request: Parameters<Processor['updateStoredCardExpiry']>[0]): Promise<void> {
    const [customerId, cardId] = request.storedCard.split('/');
    const path = `/customers/${encodeURIComponent(customerId ?? '')}/cards/${encodeURIComponent(cardId ?? '')}`;
    const answer = await this.client.post<Shift4Card>(path, {
      expMonth: String(request.expMonth).padStart(2, '0'),
      expYear: request.expYear,
    });
    if (answer.status === 200) return;
    if (answer.status === 400 || answer.status === 404)
      throw new ProcessorRefused(
        `Shift4 refused the card's new expiry: ${answer.body.error?.message ?? `answered ${answer.status}`}`,
      );
    throw unexpected('POST /customers/{id}/cards/{id}', answer.status, answer.body);
  }

  async authorize(request: Parameters<Processor['authorize']>[0]): Promise<ProcessorAuthorization> {
    const answer = await this.client.post<Shift4Charge>(
      '/charges',
      { ...cardPaymentForm(request), captured: request.capture },
      request.reference,
    );
    if (answer.status === 200) return authorizationOf(answer.body);
    const decline = declineOf(answer.body);
    if (answer.status === 402 && decline)
      return { approved: false, processorId: answer.body.error?.chargeId ?? null, decline, captured: false };
    if (answer.status === 400 && !reusedKey(answer.body))
      return { approved: false, processorId: null, decline: refusal(answer.body), captured: false };
    throw unexpected('POST /charges', answer.status, answer.body);
  }

  async findAuthorization(reference: string, since?: Date): Promise<ProcessorAuthorization | null> {
    const charge = await this.findByReference<Shift4Charge>('/charges', reference, since);
    return charge ? authorizationOf(charge) : null;
  }

  async capture(request: Parameters<Processor['capture']>[0]): Promise<void> {
    const path = `/charges/${encodeURIComponent(request.processorId)}/capture`;
    const answer = await this.client.post<Shift4Charge>(path, {}, `${request.reference}:capture`);
    if (answer.status === 200) return;
    // Captured by an earlier attempt whose answer was lost: done.
    if (answer.status === 400 && /already been captured/.test(answer.body.error?.message ?? '')) return;
    throw unexpected('POST /charges/{id}/capture', answer.status, answer.body);
  }

  async refund(request: Parameters<Processor['refund']>[0]): Promise<ProcessorRefund> {
    const answer = await this.client.post<Shift4Refund>(
      '/refunds',
      { chargeId: request.processorId, amount: request.amount, [`metadata[${REFERENCE_KEY}]`]: request.reference },
      request.reference,
    );
    if (answer.status === 200) return refundOf(answer.body);
    // Refused (e.g. more than is left to refund at the processor): nothing was refunded.
    if (answer.status === 400 && !reusedKey(answer.body)) return { processorRefundId: '', status: 'failed' };
    throw unexpected('POST /refunds', answer.status, answer.body);
  }

  async findRefund(reference: string, processorId: string): Promise<ProcessorRefund | null> {
    const answer = await this.client.get<Shift4Charge>(`/charges/${encodeURIComponent(processorId)}`);
    if (answer.status !== 200) throw unexpected('GET /charges/{id}', answer.status, answer.body);
    const refund = answer.body.refunds?.find((candidate) => candidate.metadata?.[REFERENCE_KEY] === reference);
    return refund ? refundOf(refund) : null;
  }

  async credit(request: Parameters<Processor['credit']>[0]): Promise<ProcessorCredit> {
    // A credit has no `type`: it is no card payment a cardholder or merchant initiates.
    const { type: _type, ...credit } = request;
    const answer = await this.client.post<Shift4Credit>('/credits', cardPaymentForm(credit), request.reference);
    if (answer.status === 200) return creditOf(answer.body);
    const decline = declineOf(answer.body);
    if (answer.status === 402 && decline)
      return { approved: false, processorId: answer.body.error?.creditId ?? null, decline };
    if (answer.status === 400 && !reusedKey(answer.body))
      return { approved: false, processorId: null, decline: refusal(answer.body) };
    throw unexpected('POST /credits', answer.status, answer.body);
  }

  async findCredit(reference: string, since?: Date): Promise<ProcessorCredit | null> {
    const credit = await this.findByReference<Shift4Credit>('/credits', reference, since);
    return credit ? creditOf(credit) : null;
  }

  /**
   * The dispute is the one the charge embeds (a Shift4 charge has at most one); the evidence goes
   * as the client libraries' `disputes.update` sends it, under a key derived from this service's
   * dispute id, so a retry after a lost answer is answered as the first request was.
   */
  async submitDisputeEvidence(request: Parameters<Processor['submitDisputeEvidence']>[0]): Promise<void> {
    const charge = await this.client.get<Shift4Charge>(`/charges/${encodeURIComponent(request.processorId)}`);
    if (charge.status !== 200) throw unexpected('GET /charges/{id}', charge.status, charge.body);
    const disputeId = charge.body.dispute?.id;
    if (!disputeId) throw new ProcessorRefused(`Shift4 holds no dispute of charge ${request.processorId}`);
    const form: Record<string, string> = {};
    for (const [field, value] of Object.entries(request.evidence)) form[`evidence[${field}]`] = value;
    const answer = await this.client.post<{ id: string }>(
      `/disputes/${encodeURIComponent(disputeId)}`,
      form,
      `${request.reference}:evidence`,
    );
    if (answer.status === 200) return;
    if (answer.status === 400 || answer.status === 404)
      throw new ProcessorRefused(
        `Shift4 refused the evidence: ${answer.body.error?.message ?? `answered ${answer.status}`}`,
      );
    throw unexpected('POST /disputes/{id}', answer.status, answer.body);
  }

  async *records(window: { from: Date; to: Date }): AsyncIterable<ProcessorRecord> {
    for await (const charge of this.listed<Shift4Charge>('/charges', window.from, window.to)) {
      const refunds = charge.refunds ?? [];
      yield {
        kind: 'charge',
        processorId: charge.id,
        reference: charge.metadata?.[REFERENCE_KEY] ?? null,
        chargeProcessorId: null,
        amount: charge.amount,
        currency: charge.currency,
        status: charge.status,
        amountRefunded: refunds.filter((r) => r.status === 'successful').reduce((sum, r) => sum + r.amount, 0),
        created: new Date(charge.created * 1000),
      };
      for (const refund of refunds)
        yield {
          kind: 'refund',
          processorId: refund.id,
          reference: refund.metadata?.[REFERENCE_KEY] ?? null,
          chargeProcessorId: charge.id,
          amount: refund.amount,
          currency: refund.currency,
          status: refund.status,
          amountRefunded: 0,
          created: new Date(refund.created * 1000),
        };
    }
    for await (const credit of this.listed<Shift4Credit>('/credits', window.from, window.to))
      yield {
        kind: 'credit',
        processorId: credit.id,
        reference: credit.metadata?.[REFERENCE_KEY] ?? null,
        chargeProcessorId: null,
        amount: credit.amount,
        currency: credit.currency,
        status: credit.status,
        amountRefunded: 0,
        created: new Date(credit.created * 1000),
      };
  }

  /** Shift4 does not sign its notifications: the event is fetched back by id with the key instead. */
  async notice(notification: ProcessorNotification): Promise<ProcessorNotice | null> {
    return shift4Notice(this.client, notification);
  }

  /** The object of the list whose metadata carries the reference, searched newest first back to `since`. */
  private async findByReference<Item extends { metadata?: Record<string, string> }>(
    path: string,
    reference: string,
    since: Date = new Date(Date.now() - DEFAULT_LOOKBACK_MS),
  ): Promise<Item | null> {
    // Created a little before the intent was recorded is impossible, but clocks differ.
    const from = new Date(since.getTime() - 3600_000);
    for await (const item of this.listed<Item & { id: string; created: number }>(path, from, null))
      if (item.metadata?.[REFERENCE_KEY] === reference) return item;
    return null;
  }

  /** Every object of a list created in the window, newest first, page after page. */
  private async *listed<Item extends { id: string }>(path: string, from: Date, to: Date | null): AsyncIterable<Item> {
    let startingAfterId: string | undefined;
    for (;;) {
      const answer = await this.client.get<Shift4List<Item>>(path, {
        limit: '100',
        'created[gte]': String(Math.floor(from.getTime() / 1000)),
        ...(to ? { 'created[lte]': String(Math.floor(to.getTime() / 1000)) } : {}),
        ...(startingAfterId ? { startingAfterId } : {}),
      });
      if (answer.status !== 200) throw unexpected(`GET ${path}`, answer.status, answer.body);
      yield* answer.body.list;
      if (!answer.body.hasMore || answer.body.list.length === 0) return;
      startingAfterId = answer.body.list.at(-1)!.id;
    }
  }
}

function authorizationOf(charge: Shift4Charge): ProcessorAuthorization {
  const card = charge.card ? cardInfoOf(charge.card) : null;
  if (charge.status === 'successful')
    return { approved: true, processorId: charge.id, decline: null, captured: charge.captured, card };
  if (charge.status === 'pending')
    throw new ProcessorOutcomeUnknown(`Shift4 charge ${charge.id} is still pending at the processor`);
  return { approved: false, processorId: charge.id, decline: failureOf(charge), captured: false, card };
}

const SHIFT4_BRANDS = new Set<string>([
  'Visa',
  'American Express',
  'MasterCard',
  'Maestro',
  'Discover',
  'JCB',
  'Diners Club',
]);
const SHIFT4_TYPES = new Set<string>(['Credit Card', 'Debit Card', 'Prepaid Card']);

/** The BIN data of a Shift4 card: brand and type in the API's own words, country and issuer when known. */
function cardInfoOf(card: Shift4Card): ProcessorCardInfo {
  return {
    ...(card.brand && SHIFT4_BRANDS.has(card.brand) ? { brand: card.brand as CardBrand } : {}),
    ...(card.type && SHIFT4_TYPES.has(card.type) ? { type: card.type as CardType } : {}),
    ...(card.country ? { country: card.country } : {}),
    ...(card.issuer ? { issuer: card.issuer } : {}),
  };
}

function creditOf(credit: Shift4Credit): ProcessorCredit {
  if (credit.status === 'successful') return { approved: true, processorId: credit.id, decline: null };
  return { approved: false, processorId: credit.id, decline: failureOf(credit) };
}

function refundOf(refund: Shift4Refund): ProcessorRefund {
  if (refund.status === 'pending')
    throw new ProcessorOutcomeUnknown(`Shift4 refund ${refund.id} is still pending at the processor`);
  return { processorRefundId: refund.id, status: refund.status };
}

/** A failed charge's or credit's failure fields as a decline. */
function failureOf(object: Shift4Charge | Shift4Credit): ProcessorDecline {
  return decline(object.failureCode, object.failureMessage, object.failureIssuerDeclineCode ?? null);
}

/** A 402 `card_error` as a decline; null for any other error. */
function declineOf(body: Shift4Error): ProcessorDecline | null {
  const error = body.error;
  if (error?.type !== 'card_error') return null;
  return decline(error.code, error.message, error.issuerDeclineCode ?? null);
}

/**
 * The spec's code for the processor's, and the processor's own code kept beside it: the issuer's
 * decline code when it gave one, its error code otherwise.
 */
function decline(code: string | undefined, message: string | undefined, issuerCode: string | null): ProcessorDecline {
  const known = CARD_ERROR_CODES.has(code as CardErrorCode);
  return {
    code: known ? (code as CardErrorCode) : 'card_declined',
    message: message ?? 'The card was declined.',
    processorCode: issuerCode ?? code ?? null,
  };
}

/**
 * A 400 to a create: the processor refused the request as invalid and did nothing (it may take
 * other currencies, amounts or cards than this service): a `processing_error` decline.
 */
function refusal(body: Shift4Error): ProcessorDecline {
  return {
    code: 'processing_error',
    message: `The processor refused the payment: ${body.error?.message ?? 'invalid request'}`,
    processorCode: body.error?.type ?? 'invalid_request',
  };
}

/** The processor holds an earlier request with this key and other parameters: look that one up. */
const reusedKey = (body: Shift4Error): boolean =>
  /Idempotent key used for request with different parameters/i.test(body.error?.message ?? '');

/** An answer this adapter has no meaning for: it may have done something, so the outcome is unknown. */
function unexpected(what: string, status: number, body: Shift4Error): ProcessorOutcomeUnknown {
  const error = body.error;
  return new ProcessorOutcomeUnknown(
    `Shift4 ${what} answered ${status}${error ? ` ${error.type ?? ''}: ${error.message ?? ''}` : ''}`,
  );
}

/**
 * The form fields of a charge or credit, carrying this service's reference: the card kept at the
 * processor (its customer and card id) when there is one, the card details otherwise; and the
 * payment's `type` (who initiates it), which a stored card's payment declares.
 */
function cardPaymentForm(request: ProcessorCardPayment) {
  const [customerId, cardId] = request.storedCard?.split('/') ?? [];
  const card =
    customerId && cardId
      ? { customerId, card: cardId }
      : {
          'card[number]': request.number,
          'card[expMonth]': request.expMonth,
          'card[expYear]': request.expYear,
          'card[cvc]': request.cvc,
        };
  return {
    amount: request.amount,
    currency: request.currency,
    ...card,
    type: request.type,
    description: request.description,
    [`metadata[${REFERENCE_KEY}]`]: request.reference,
  };
}
