import type { CardPaymentFailure } from '../domain/card/card-payment-failure.ts';
import type { CardSnapshot } from '../domain/card/card-snapshot.ts';
import { findMatchingRule } from '../domain/blacklist/blacklist-matcher.ts';
import type { BlacklistRule } from '../domain/blacklist/blacklist-rule.ts';
import type { Decider, DomainEvent } from '../domain/decider.ts';
import { CardError, GatewayError } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import type { TokenUse } from '../domain/token/token-events.ts';
import { tenantFingerprint } from '../vault/tenant-fingerprint.ts';
import type { AggregateStore, ExecuteResult, LoadedAggregate } from './aggregate-store.ts';
import type { RecordedEvent } from '../eventstore/event-store.ts';
import type { CardReference, CardSources, ResolvedCard } from './card-sources.ts';
import type { CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CommandOutcome } from './command-outcome.ts';
import { PaymentDeclined } from './payment-declined.ts';
import type { CardIntake } from './card-intake.ts';
import { cardExpiry } from '../domain/card/card-expiry.ts';
import {
  NetworkOutcomeUnknown,
  type AuthorizationRequest,
  type CardNetwork,
  type LoadedProcessors,
} from '../network/card-network.ts';
import type { AccountSettings } from '../domain/account/account-events.ts';

/** What creating a card payment (a charge or a credit) works with. */
export interface CardPaymentDeps {
  aggregates: AggregateStore;
  cardSources: CardSources;
  intake: CardIntake;
  network: CardNetwork;
  /** Live blacklist rules of a tenant: charges and credits are screened alike. */
  blacklistRules: (tenant: Tenant) => Promise<BlacklistRule[]>;
  /** The account's settings in force: accepted currencies and brands, whether credits are allowed. */
  accountSettings: (accountId: string) => Promise<AccountSettings>;
}

/**
 * A card payment (a charge or a credit) being created, as its command service describes it to
 * `createCardPayment`: its stream, the card the request names, how it is decided and recorded,
 * and how the request is answered once it is recorded.
 */
export interface NewCardPayment<Command, Event extends DomainEvent, State> {
  id: string;
  decider: Decider<Command, Event, State>;
  streamId: string;
  /** The id was drawn at random for this request: no earlier run can have recorded it. */
  streamIsNew: boolean;
  customerId: string | null;
  card: CardReference | undefined;
  /** What a token named as the card is used up for. */
  use: TokenUse;
  /** The vault reference of the card a recorded payment holds; null when there is no payment. */
  recordedVaultRef: (state: State) => string | null;
  /**
   * Fetches what the decision needs with the resolved card, and records what the decider decides
   * with it (`AggregateStore.execute`).
   */
  record: (resolved: ResolvedCard) => Promise<ExecuteResult<State, Event>>;
  /** The answer to the request once this run recorded the payment. */
  answerNew: (recorded: CommandOutcome, state: State, resolved: ResolvedCard) => Promise<CommandOutcome>;
  /** The answer to the request whose payment an earlier run (or another run meanwhile) recorded. */
  answerRecorded: (loaded: LoadedAggregate<State>) => Promise<CommandOutcome>;
}

/**
 * Creates a charge or a credit. Safe to run again for the same payment id (the retry of an
 * idempotent request cut short by a crash, whose id derives from the request): a recorded
 * payment is answered as it was recorded. A card number this run took into the vault and no
 * event recorded is erased when the run fails.
 */
export async function createCardPayment<Command, Event extends DomainEvent, State>(
  deps: Pick<CardPaymentDeps, 'aggregates' | 'cardSources'>,
  payment: NewCardPayment<Command, Event, State>,
  context: CommandContext,
): Promise<CommandOutcome> {
  const { aggregates, cardSources } = deps;
  const { decider, streamId } = payment;
  const existing = await aggregates.loadBeforeCreating(decider, streamId, context, payment.streamIsNew);
  if (existing.revision !== null) return payment.answerRecorded(existing);

  if (payment.customerId !== null) await cardSources.liveCustomer(payment.customerId, context);
  // Invalid card details fail here with a 402 before anything is recorded: there is no payment yet.
  const resolved = await cardSources.forPayment(payment.card, payment.customerId, payment.use, context);
  let recorded: ExecuteResult<State, Event>;
  try {
    recorded = await payment.record(resolved);
  } catch (error) {
    // Another run of the same request (one that was thought dead) may have recorded the payment
    // meanwhile, with the card it took in. No event records the card this run took in otherwise.
    const meanwhile = await aggregates.load(decider, streamId, context);
    if (payment.recordedVaultRef(meanwhile.state) !== resolved.card.vaultRef)
      await cardSources.discardUnrecorded(resolved);
    if (meanwhile.revision === null) throw error;
    return payment.answerRecorded(meanwhile);
  }
  const outcome = { id: payment.id, position: recorded.position };
  return payment.answerNew(outcome, recorded.state, resolved);
}

/**
 * Asks the card network once per payment: the intent is recorded first, in a stream of its own.
 * When it was recorded already, an earlier run of this request was cut short and may have
 * reached the network: its answer is looked up first, so the card is never charged (or
 * credited) twice for one payment. The account's processors are loaded once, before the intent,
 * and passed to each step that asks the network (`LoadedProcessors`).
 */
export async function askNetworkOnce<Answer>(
  network: CardNetwork,
  tenant: Tenant,
  steps: {
    /** Records the intent; answers the events it recorded (none when an earlier run recorded it). */
    recordIntent: (loaded: LoadedProcessors) => Promise<{ events: unknown[] }>;
    afterIntent?: () => void;
    findEarlierAnswer: (loaded: LoadedProcessors) => Promise<Answer | null>;
    ask: (loaded: LoadedProcessors) => Promise<Answer>;
    /**
     * Closes the intent as never made: this run recorded it and the network provably never received
     * the request (a `gateway_error` that is not an unknown outcome: no processor configured, taking
     * the payment or reachable). An intent an earlier run recorded stays open: that run's request may
     * still be at a processor.
     */
    closeIntent: () => Promise<unknown>;
  },
): Promise<Answer> {
  const loaded = { processors: await network.processorsOf(tenant) };
  const intent = await steps.recordIntent(loaded);
  steps.afterIntent?.();
  const startedBefore = intent.events.length === 0;
  const known = startedBefore ? await steps.findEarlierAnswer(loaded) : null;
  if (known) return known;
  try {
    return await steps.ask(loaded);
  } catch (error) {
    if (!startedBefore && error instanceof GatewayError && !(error instanceof NetworkOutcomeUnknown))
      await steps.closeIntent();
    throw error;
  }
}

/**
 * Live mode: what the intent of a payment records so that the worker can settle it should no
 * outcome follow (`settleUnansweredIntent`): the payment as requested, when it is first looked up
 * and from when a lookup that finds it nowhere closes it. Test mode records none of it: the
 * simulator answers a repeated reference from its journal, so a retry settles it.
 */
export async function unansweredIntentLookup<Attempt>(
  network: CardNetwork,
  attempt: Attempt,
  loaded: LoadedProcessors,
  context: CommandContext,
): Promise<{ attempt?: Attempt; lookupDueAt?: string; closableAt?: string }> {
  if (context.mode !== 'live') return {};
  const times = await network.unansweredIntentTimes({ mode: context.mode, accountId: context.accountId, ...loaded });
  const now = context.now().getTime();
  return {
    attempt,
    lookupDueAt: new Date(now + times.lookupAfterMs).toISOString(),
    closableAt: new Date(now + times.closableAfterMs).toISOString(),
  };
}

/**
 * The context an intent is recorded in: its clock read once, so that the intent's event records
 * the very time its lookup and closing times count from (`unansweredIntentLookup`). Read again at
 * the append, the event's time would fall after them (by the lock's and the store's wait), and
 * the intent could be closed before the processors' idempotency window had passed since it.
 */
export function atOneTime(context: CommandContext): CommandContext {
  const at = context.now();
  return { ...context, now: () => at };
}

/** When an intent was (last) started: no attempt at a processor can be older (a lookup's `since`). */
export function startedAt(events: RecordedEvent[], startedType: string): Date | undefined {
  const started = events.findLast((event) => event.type === startedType);
  return started ? new Date(started.metadata.occurredAt) : undefined;
}

/**
 * The blacklist rule a payment matches, if any. What the blacklist looks at: the card, the
 * payer's data and the payment's metadata. The payer is known only from the card's
 * `fraudCheckData` (recorded from the payer's browser when the token was created with the public
 * key, or given by the merchant): the request creating the payment comes from the merchant's
 * server, whose address and headers say nothing about the payer.
 */
export async function matchingBlacklistRule(
  blacklistRules: (tenant: Tenant) => Promise<BlacklistRule[]>,
  payment: { card: CardSnapshot; email: string | null; metadata: Metadata },
  tenant: Tenant,
): Promise<BlacklistRule | null> {
  const fraud = payment.card.fraudCheckData;
  return findMatchingRule(await blacklistRules(tenant), {
    fingerprint: tenantFingerprint(payment.card.fingerprint, tenant),
    storedFingerprint: payment.card.fingerprint,
    ipAddress: fraud?.ipAddress ?? null,
    ipCountry: fraud?.ipCountry ?? null,
    email: payment.email ?? fraud?.email ?? null,
    userAgent: fraud?.userAgent ?? null,
    acceptLanguage: fraud?.acceptLanguage ?? null,
    metadata: payment.metadata,
  });
}

/** The CVC given with card details, for the network only (it is never recorded). */
export function cvcOf(reference: CardReference | undefined): string | undefined {
  return typeof reference === 'object' && reference.cvc !== undefined ? String(reference.cvc).trim() : undefined;
}

/**
 * The card as a charge's or a credit's network request carries it: its number from the vault, its
 * expiry, the CVC when the request gave one, and where processors keep it (card-on-file payments).
 */
export async function cardForNetwork(
  intake: CardIntake,
  card: CardSnapshot,
  cvc: string | undefined,
): Promise<Pick<AuthorizationRequest, 'number' | 'expMonth' | 'expYear' | 'cvc' | 'processorCards'>> {
  return {
    number: await intake.revealNumber(card),
    expMonth: cardExpiry(card).month,
    expYear: cardExpiry(card).year,
    ...(cvc ? { cvc } : {}),
    ...(card.processorCards ? { processorCards: card.processorCards } : {}),
  };
}

/** The 402 of a failed payment, recorded as `recorded`: its id under `idField`, and why it failed. */
export function paymentDeclined(
  recorded: CommandOutcome,
  failure: CardPaymentFailure,
  idField: 'chargeId' | 'creditId',
): PaymentDeclined {
  const details = {
    [idField]: recorded.id,
    ...(failure.failureIssuerDeclineCode ? { issuerDeclineCode: failure.failureIssuerDeclineCode } : {}),
    ...(failure.blacklistRuleId ? { blacklistRuleId: failure.blacklistRuleId } : {}),
  };
  return new PaymentDeclined(recorded, new CardError(failure.failureCode, failure.failureMessage, details));
}
