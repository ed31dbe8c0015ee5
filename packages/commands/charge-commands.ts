import type { BlacklistRule } from '../domain/blacklist/blacklist-rule.ts';
import { declinedByNetwork } from '../domain/card/card-payment-failure.ts';
import { chargeDecider } from '../domain/charge/charge-decider.ts';
import {
  chargeRefusal,
  type AuthorizationAnswer,
  type AuthorizationUnknown,
  type CreateChargeCommand,
} from '../domain/charge/charge-creation-decider.ts';
import {
  chargeResource,
  chargeStream,
  refundResource,
  type Billing,
  type ChargeAttempt,
  type ChargeFailure,
  type ChargeType,
  type CrossSaleOrigin,
  type FraudStatus,
  type Shipping,
  type ThreeDSecureResult,
} from '../domain/charge/charge-events.ts';
import { customerDecider, type CustomerCommand } from '../domain/customer/customer-decider.ts';
import { cardResource, customerStream } from '../domain/customer/customer-events.ts';
import type { Metadata } from '../domain/metadata.ts';
import {
  NetworkOutcomeUnknown,
  type AuthorizationOutcome,
  type CardNetwork,
  type ThreeDSecureRequest,
  type ThreeDSecureRequirements,
} from '../network/card-network.ts';
import { faultPoint } from '../config/fault-injection.ts';
import { chargeAuthorizationDecider, chargeAuthorizationStream } from '../domain/charge/charge-authorization.ts';
import type { ChargeState } from '../domain/charge/charge-state.ts';
import type { CardSource } from '../domain/customer/customer-events.ts';
import type { AggregateStore, LoadedAggregate } from './aggregate-store.ts';
import {
  askNetworkOnce,
  createCardPayment,
  startedAt,
  unansweredIntentLookup,
  cardForNetwork,
  cvcOf,
  matchingBlacklistRule,
  paymentDeclined,
} from './card-payment-creation.ts';
import { announcedOutcomes } from './announced-outcomes.ts';
import type { CardIntake } from './card-intake.ts';
import type { CardReference, CardSources, ResolvedCard } from './card-sources.ts';
import { createdObjectId, createsNewIds, type CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { PaymentDeclined } from './payment-declined.ts';
import type { TokenCommands } from './token-commands.ts';
import type { AccountSettings } from '../domain/account/account-events.ts';
import { isIdOf } from '../ids/object-id.ts';

export interface CreateChargeInput {
  amount: number;
  currency: string;
  type?: ChargeType;
  description?: string;
  customerId?: string;
  card?: CardReference;
  captured?: boolean;
  shipping?: Shipping;
  billing?: Billing;
  threeDSecure?: Partial<ThreeDSecureRequest>;
  merchantAccountId?: string;
  metadata?: Metadata;
  /** Set by subscriptions for the charges they make. */
  subscriptionId?: string;
  /** Set by subscriptions: the id recorded before charging, so that a retried charge is recognised. */
  chargeId?: string;
  /** Set for a charge made by buying a cross-sale offer: where it came from. */
  crossSale?: CrossSaleOrigin;
  /**
   * Set by subscriptions for their first payment made right after the card was saved from this
   * token, in the same request: the saved card then carries the token's 3-D Secure verification.
   */
  justSavedFromToken?: string;
}

export interface UpdateChargeInput {
  customerId?: string;
  description?: string | null;
  shipping?: Shipping | null;
  billing?: Billing | null;
  fraudDetails?: { status: FraudStatus };
  metadata?: Metadata;
}

export interface ChargeCommandsDeps {
  aggregates: AggregateStore;
  cardSources: CardSources;
  intake: CardIntake;
  tokens: TokenCommands;
  network: CardNetwork;
  /** Live blacklist rules of a tenant. */
  blacklistRules: (tenant: Tenant) => Promise<BlacklistRule[]>;
  /** The account's settings in force (accepted currencies and brands). */
  accountSettings: (accountId: string) => Promise<AccountSettings>;
}

/**
 * Charges and their refunds. I/O happens before each decision (`docs/architecture.md`, "Pure
 * deciders"): card resolution, blacklist screening and the network's answer are inputs to the
 * charge decider.
 */
export class ChargeCommands {
  constructor(private readonly deps: ChargeCommandsDeps) {}

  /**
   * Creates a charge; throws PaymentDeclined (after recording it) when it failed. Safe to run
   * again for the same charge id (the retry of an idempotent request cut short by a crash, whose
   * charge id derives from the request): a recorded charge is answered as it was recorded and its
   * card saved if that step was cut off; an authorization that was started is looked up at the
   * network rather than made again.
   */
  async create(input: CreateChargeInput, context: CommandContext): Promise<CommandOutcome> {
    const chargeId = input.chargeId ?? createdObjectId(chargeResource, context);
    const customerId = input.customerId ?? null;
    const streamIsNew = input.chargeId === undefined && createsNewIds(context);
    return createCardPayment(
      this.deps,
      {
        id: chargeId,
        decider: chargeDecider,
        streamId: chargeStream(chargeId),
        streamIsNew,
        customerId,
        card: input.card,
        use: { kind: 'charge', chargeId },
        recordedVaultRef: (state) => (state.status === 'none' ? null : (state.card?.vaultRef ?? null)),
        record: async (resolved) =>
          this.deps.aggregates.execute(
            chargeDecider,
            chargeStream(chargeId),
            await this.createChargeCommand(chargeId, input, resolved, context),
            context,
            { streamIsNew },
          ),
        answerNew: async (recorded, charge, resolved) => {
          faultPoint('charge.after-append', context);
          if (charge.status === 'none') throw new Error('unreachable: a recorded charge exists');
          if (charge.failure) throw declined(recorded, charge.failure);
          // Pending: the card is saved, if at all, once the lookup found the charge taken.
          if (charge.status === 'pending') return recorded;
          // A successful charge with a new card for a customer saves the card as the default (spec).
          if (customerId !== null && resolved.source !== null && charge.cardId !== null && charge.card !== null)
            return this.saveChargeCard(
              recorded,
              { ...charge, cardId: charge.cardId, card: charge.card, customerId },
              resolved.source,
              context,
            );
          return recorded;
        },
        answerRecorded: (loaded) => this.recordedCharge(loaded, input, context),
      },
      context,
    );
  }

  /**
   * The `CreateCharge` command with everything its decision needs: the account's settings, the
   * blacklist rule the charge's screening matches and, unless the decider refuses the charge with
   * those (`chargeRefusal`), the network's answer.
   */
  private async createChargeCommand(
    chargeId: string,
    input: CreateChargeInput,
    resolved: ResolvedCard,
    context: CommandContext,
  ): Promise<CreateChargeCommand> {
    const cardId = resolved.savedCardId ?? createdObjectId(cardResource, context);
    const attempt = requestedAttempt(chargeId, input, resolved.card, cardId);
    const settings = await this.deps.accountSettings(context.accountId);
    const blacklistRule = await matchingBlacklistRule(
      this.deps.blacklistRules,
      { card: attempt.card, email: attempt.billing?.email ?? null, metadata: attempt.metadata },
      context,
    );
    const authorization =
      chargeRefusal(attempt, settings, blacklistRule) === null
        ? await this.askNetwork(attempt, input, resolved, context)
        : null;
    return { type: 'CreateCharge', attempt, accepted: settings, blacklistRule, authorization };
  }

  /**
   * The network's answer to the charge's authorization, with its 3-D Secure verification: the
   * token's, or the one the saved card was saved with just before (`justSavedFromToken`).
   */
  private async askNetwork(
    attempt: ChargeAttempt,
    input: CreateChargeInput,
    resolved: ResolvedCard,
    context: CommandContext,
  ): Promise<AuthorizationAnswer | AuthorizationUnknown> {
    const verification = resolved.threeDSecureInfo ?? (await this.justSavedVerification(input, resolved, context));
    let outcome: AuthorizationOutcome;
    try {
      outcome = await this.authorize(attempt, input, resolved.card, verifiedFor(verification, input), context);
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
  private async justSavedVerification(
    input: CreateChargeInput,
    resolved: ResolvedCard,
    context: CommandContext,
  ): Promise<ThreeDSecureResult | null> {
    const tokenId = input.justSavedFromToken;
    if (tokenId === undefined || resolved.savedFromToken !== tokenId) return null;
    return (await this.deps.tokens.verification(tokenId, context))?.threeDSecureInfo ?? null;
  }

  /** A charge recorded earlier, answered as its creation was: the charge, or its decline; null when none. */
  async recordedOutcome(chargeId: string, tenant: Tenant): Promise<CommandOutcome | null> {
    const { state, events } = await this.deps.aggregates.load(chargeDecider, chargeStream(chargeId), tenant);
    if (state.status === 'none') return null;
    const recorded = { id: chargeId, position: events.at(-1)?.position ?? null };
    if (state.failure) throw declined(recorded, state.failure);
    return recorded;
  }

  /**
   * Asks the network to authorize, after recording the intent. When the intent was recorded
   * already, an earlier run of this request was cut short and may have reached the network: its
   * answer is asked for first, so the card is never authorized twice for one charge.
   */
  private async authorize(
    attempt: ChargeAttempt,
    input: CreateChargeInput,
    card: ChargeAttempt['card'],
    verified: ThreeDSecureResult | null,
    context: CommandContext,
  ): Promise<AuthorizationOutcome> {
    const { chargeId } = attempt;
    return askNetworkOnce({
      recordIntent: async () =>
        this.deps.aggregates.execute(
          chargeAuthorizationDecider,
          chargeAuthorizationStream(chargeId),
          {
            type: 'StartAuthorization',
            chargeId,
            networkReference: chargeId,
            amount: attempt.amount,
            currency: attempt.currency,
            cardId: attempt.cardId,
            ...(await unansweredIntentLookup(this.deps.network, attempt, context)),
          },
          context,
        ),
      afterIntent: () => faultPoint('charge.before-network-call', context),
      findEarlierAnswer: () =>
        this.deps.network.findAuthorization({ mode: context.mode, accountId: context.accountId, reference: chargeId }),
      ask: () => this.authorizeAtNetwork(attempt, input, card, verified, context),
      closeIntent: () =>
        this.deps.aggregates.execute(
          chargeAuthorizationDecider,
          chargeAuthorizationStream(chargeId),
          { type: 'CloseAuthorization', chargeId },
          context,
        ),
    });
  }

  private async authorizeAtNetwork(
    attempt: ChargeAttempt,
    input: CreateChargeInput,
    card: ChargeAttempt['card'],
    verified: ThreeDSecureResult | null,
    context: CommandContext,
  ): Promise<AuthorizationOutcome> {
    const { chargeId } = attempt;
    const address = input.billing?.address;
    const zip = address?.zip ?? card.addressZip;
    const outcome = await this.deps.network.authorize({
      mode: context.mode,
      accountId: context.accountId,
      reference: chargeId,
      ...(await cardForNetwork(this.deps.intake, card, cvcOf(input.card))),
      ...(attempt.type ? { type: attempt.type } : {}),
      amount: input.amount,
      currency: input.currency,
      capture: attempt.captured,
      zip: zip ?? null,
      addressProvided: Boolean(address || card.addressLine1 || card.addressZip),
      threeDSecure: threeDSecureRequest(input.threeDSecure, verified),
      now: context.now(),
    });
    faultPoint('charge.after-network-call', context);
    return outcome;
  }

  /** Saves the card of a successful charge to its customer, and notes it on the token it came from. */
  private async saveChargeCard(
    recorded: CommandOutcome,
    charge: Pick<ChargeAttempt, 'chargeId' | 'cardId' | 'card' | 'merchantAccountId'> & { customerId: string },
    source: CardSource,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const { customerId, cardId } = charge;
    const saved = await this.deps.aggregates.execute(
      customerDecider,
      customerStream(customerId),
      // Already saved (the step ran before a crash cut the request short): an update that changes nothing.
      (state): CustomerCommand =>
        state.status !== 'none' && state.cards.some((card) => card.cardId === cardId)
          ? { type: 'UpdateCustomer', customerId }
          : {
              type: 'AddCard',
              customerId,
              cardId,
              card: charge.card,
              source,
              merchantAccountId: charge.merchantAccountId,
            },
      context,
    );
    let position = saved.position ?? recorded.position;
    if (source.kind === 'token')
      position = (await this.deps.tokens.recordCard(source.tokenId, customerId, cardId, context)) ?? position;
    return { id: charge.chargeId, position };
  }

  /**
   * The answer to a charge request whose charge is recorded already: the same decline, or the
   * charge, with the steps after recording it made if a crash cut them off.
   */
  private async recordedCharge(
    loaded: LoadedAggregate<ChargeState>,
    input: CreateChargeInput,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const charge = loaded.state;
    if (charge.status === 'none') throw new Error('unreachable: a recorded charge exists');
    const recorded = { id: charge.chargeId, position: loaded.events.at(-1)?.position ?? null };
    if (charge.failure) throw declined(recorded, charge.failure);
    // Only a new card (details or a token) is saved; a saved card of the customer is one already.
    const source: CardSource | null =
      input.card === undefined || (typeof input.card === 'string' && isIdOf(cardResource, input.card))
        ? null
        : typeof input.card === 'string'
          ? { kind: 'token', tokenId: input.card }
          : { kind: 'details' };
    // A payment-method charge has no card to save.
    if (
      charge.card === null ||
      charge.cardId === null ||
      charge.customerId === null ||
      source === null ||
      input.customerId === undefined
    )
      return recorded;
    return this.saveChargeCard(
      recorded,
      { ...charge, card: charge.card, cardId: charge.cardId, customerId: charge.customerId },
      source,
      context,
    );
  }

  async update(chargeId: string, input: UpdateChargeInput, context: CommandContext): Promise<CommandOutcome> {
    const { fraudDetails, customerId, ...fields } = input;
    if (customerId !== undefined) await this.deps.cardSources.liveCustomer(customerId, context);
    const result = await this.deps.aggregates.execute(
      chargeDecider,
      chargeStream(chargeId),
      {
        type: 'UpdateCharge',
        chargeId,
        ...fields,
        ...(customerId !== undefined ? { customerId } : {}),
        ...(fraudDetails ? { fraudStatus: fraudDetails.status } : {}),
      },
      context,
    );
    let position = result.position;
    // Assigning a successful charge to a customer saves its card as the default (spec).
    const charge = result.state;
    const assigned = result.events.some((event) => event.type === 'ChargeUpdated' && 'customerId' in event.data);
    // A payment-method charge has no card to save.
    if (assigned && charge.status === 'successful' && customerId !== undefined && charge.cardId && charge.card) {
      const { cardId, card } = charge;
      const saved = await this.deps.aggregates.execute(
        customerDecider,
        customerStream(customerId),
        (state): CustomerCommand =>
          state.status !== 'none' && state.cards.some((saved) => saved.cardId === cardId)
            ? { type: 'UpdateCustomer', customerId, defaultCardId: cardId }
            : {
                type: 'AddCard',
                customerId,
                cardId,
                card,
                source: { kind: 'charge', chargeId },
                merchantAccountId: charge.merchantAccountId,
              },
        context,
      );
      position = saved.position ?? position;
    }
    return { id: chargeId, position };
  }

  /**
   * Captures at the network first, then records the capture: a capture the network did not make
   * is never recorded. The network's capture is keyed by the charge, so a repeat makes none.
   */
  async capture(chargeId: string, context: CommandContext): Promise<CommandOutcome> {
    const before = await this.deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
    const charge = before.state;
    // The retry of this very request, cut short by a crash after its capture was recorded: that
    // capture is its answer, not "already captured".
    const capturedByThisRequest = before.events.some(
      (event) =>
        event.type === 'ChargeCaptured' &&
        context.idempotencyKey !== undefined &&
        event.metadata.idempotencyKey === context.idempotencyKey,
    );
    if (capturedByThisRequest) return { id: chargeId, position: null };
    // Refusals (unknown, failed, pending, captured) come from the decider below, before any network call.
    if (charge.status === 'successful' && !charge.captured && charge.networkTransactionId) {
      await this.deps.network.capture({
        mode: context.mode,
        accountId: context.accountId,
        reference: chargeId,
        transactionId: charge.networkTransactionId,
        processorId: charge.processorId ?? null,
        amount: charge.amount,
        currency: charge.currency,
      });
    }
    const result = await this.deps.aggregates.execute(
      chargeDecider,
      chargeStream(chargeId),
      { type: 'CaptureCharge', chargeId },
      context,
    );
    return { id: chargeId, position: result.position };
  }

  /**
   * Settles a pending live charge by asking its processors what became of it (the due-work
   * scheduler runs this; `docs/payments.md`). Taken or declined there: recorded so. Received by
   * none of them: failed, nothing was taken. Any processor that cannot be asked leaves it pending
   * (throws), and the next scan asks again. Records nothing for a charge that is not pending.
   */
  async settlePending(chargeId: string, context: CommandContext): Promise<CommandOutcome> {
    const { state, events } = await this.deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
    if (state.status !== 'pending' || state.card === null)
      return { id: chargeId, position: events.at(-1)?.position ?? null };
    const found = await this.deps.network.findAuthorization({
      mode: context.mode,
      accountId: context.accountId,
      reference: chargeId,
    });
    const failure: ChargeFailure | null = found
      ? declinedByNetwork(found.failure)
      : {
          failureCode: 'processing_error',
          failureMessage: 'The processor never received the charge; nothing was taken.',
          failureIssuerDeclineCode: null,
          blacklistRuleId: null,
        };
    return this.deps.aggregates.executeOn(
      chargeDecider,
      chargeStream,
      chargeId,
      {
        type: 'SettleCardCharge',
        chargeId,
        networkTransactionId: found?.transactionId ?? null,
        processorId: found?.processorId ?? state.processorId ?? null,
        failure,
      },
      context,
    );
  }

  /**
   * Settles a live charge whose intent no outcome followed (its request was cut short by a crash
   * and nobody retried it; the due-work scheduler runs this at the intent's `lookupDueAt`): asks
   * every processor of the account for the charge id. Found: the charge is recorded as the
   * processor answered, taken (`successful`, with the processor's id) or declined (`failed` with
   * its code); screening passed before the intent was recorded, so it is not made again. Found
   * nowhere: the intent is closed as not charged once every processor's idempotency window is
   * over, and looked up again then before that. Any processor that cannot be asked throws, and the
   * next scan asks again. Records nothing for an intent that is closed or whose charge exists.
   */
  async settleUnansweredIntent(chargeId: string, context: CommandContext): Promise<CommandOutcome> {
    const intent = await this.deps.aggregates.load(
      chargeAuthorizationDecider,
      chargeAuthorizationStream(chargeId),
      context,
    );
    const charge = await this.deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
    const unchanged = { id: chargeId, position: charge.events.at(-1)?.position ?? null };
    const open = intent.state.started && !intent.state.closed ? intent.state : null;
    if (open === null || open.attempt === null || charge.state.status !== 'none') return unchanged;
    const found = await this.deps.network.findAuthorization({
      mode: context.mode,
      accountId: context.accountId,
      reference: chargeId,
      since: startedAt(intent.events, 'ChargeAuthorizationStarted'),
    });
    if (found === null) {
      const { closableAt } = open;
      await this.deps.aggregates.execute(
        chargeAuthorizationDecider,
        chargeAuthorizationStream(chargeId),
        closableAt !== null && context.now().getTime() < Date.parse(closableAt)
          ? { type: 'NoteAuthorizationNotFound', chargeId, nextLookupAt: closableAt }
          : { type: 'CloseAuthorization', chargeId },
        context,
      );
      return unchanged;
    }
    const { later, approved: _approved, ...answer } = found;
    try {
      const recorded = await this.deps.aggregates.execute(
        chargeDecider,
        chargeStream(chargeId),
        {
          type: 'CreateCharge',
          attempt: open.attempt,
          accepted: { acceptedCurrencies: null, acceptedBrands: null },
          blacklistRule: null,
          authorization: { answered: true, ...answer, expectedOutcomes: announcedOutcomes(later, context.now()) },
        },
        context,
      );
      return { id: chargeId, position: recorded.position };
    } catch (error) {
      // The request's retry recorded the charge meanwhile, from the same answer of the processor.
      const meanwhile = await this.deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
      if (meanwhile.state.status === 'none') throw error;
      return { id: chargeId, position: meanwhile.events.at(-1)?.position ?? null };
    }
  }

  /**
   * Refunds part or all of what is left. The amount is reserved first (so concurrent refunds can
   * never exceed the captured amount), then the network's answer settles it. Safe to run again for
   * the same request (its refund id derives from it): a reserved refund is not reserved twice, one
   * already settled is answered as it is, and one reserved by an earlier run is first looked up at
   * the network, so it is never refunded twice. In live mode the reservation announces the
   * refund's lookup, due once its request can no longer be running: a refund whose answer is lost
   * (a timeout, a 5xx, a crash) stays `pending` and the worker settles it (`settlePendingRefund`).
   */
  async refund(
    chargeId: string,
    input: { amount?: number; reason?: 'fraudulent'; metadata?: Metadata },
    context: CommandContext,
  ): Promise<CommandOutcome & { refundId: string }> {
    const refundId = createdObjectId(refundResource, context);
    const before = await this.deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
    const earlier =
      before.state.status === 'none' ? undefined : before.state.refunds.find((r) => r.refundId === refundId);
    let position = before.events.at(-1)?.position ?? null;
    if (earlier && earlier.status !== 'pending') return { id: chargeId, refundId, position };
    let charge = before.state;
    if (!earlier) {
      const requested = await this.deps.aggregates.execute(
        chargeDecider,
        chargeStream(chargeId),
        {
          type: 'RequestRefund',
          chargeId,
          refundId,
          ...(input.amount !== undefined ? { amount: input.amount } : {}),
          reason: input.reason ?? null,
          metadata: input.metadata ?? {},
          ...(await this.refundLookupDueAt(before.state, context)),
        },
        context,
      );
      charge = requested.state;
      position = requested.position ?? position;
    }
    if (charge.status === 'none') throw new Error('unreachable: a refunded charge exists');
    const payment = {
      mode: context.mode,
      accountId: context.accountId,
      reference: refundId,
      transactionId: charge.networkTransactionId ?? '',
      processorId: charge.processorId ?? null,
      amount: charge.refunds.find((refund) => refund.refundId === refundId)!.amount,
      currency: charge.currency,
    };
    faultPoint('refund.before-network-call', context);
    let status: 'successful' | 'failed';
    try {
      const known = earlier ? await this.deps.network.findRefund(payment) : null;
      status = (known ?? (await this.deps.network.refund(payment))).status;
    } catch (error) {
      // The processor may have refunded: pending, settled by the lookup the reservation announced.
      if (error instanceof NetworkOutcomeUnknown) return { id: chargeId, refundId, position };
      throw error;
    }
    faultPoint('refund.after-network-call', context);
    const settled = await this.deps.aggregates.executeOn(
      chargeDecider,
      chargeStream,
      chargeId,
      { type: 'SettleRefund', chargeId, refundId, status },
      context,
    );
    return { id: chargeId, refundId, position: settled.position };
  }

  /** Live mode: when a refund's lookup falls due, should its answer never be recorded. */
  private async refundLookupDueAt(charge: ChargeState, context: CommandContext): Promise<{ lookupDueAt?: string }> {
    if (context.mode !== 'live' || charge.status === 'none') return {};
    const afterMs = await this.deps.network.lookupAfterMs({
      mode: context.mode,
      accountId: context.accountId,
      processorId: charge.processorId ?? null,
    });
    return { lookupDueAt: new Date(context.now().getTime() + afterMs).toISOString() };
  }

  /**
   * Settles a pending live refund by asking the charge's processor what became of it (the
   * due-work scheduler runs this once the refund's request can no longer be running). Found: its
   * outcome. Not received: failed, nothing was refunded, the amount is refundable again. A
   * processor that cannot be asked leaves it pending (throws), and the next scan asks again.
   * Records nothing for a refund that is not pending.
   */
  async settlePendingRefund(chargeId: string, refundId: string, context: CommandContext): Promise<CommandOutcome> {
    const { state, events } = await this.deps.aggregates.load(chargeDecider, chargeStream(chargeId), context);
    const refund = state.status === 'none' ? undefined : state.refunds.find((r) => r.refundId === refundId);
    if (state.status === 'none' || refund?.status !== 'pending')
      return { id: chargeId, position: events.at(-1)?.position ?? null };
    const found = await this.deps.network.findRefund({
      mode: context.mode,
      accountId: context.accountId,
      reference: refundId,
      transactionId: state.networkTransactionId ?? '',
      processorId: state.processorId ?? null,
    });
    return this.deps.aggregates.executeOn(
      chargeDecider,
      chargeStream,
      chargeId,
      { type: 'SettleRefund', chargeId, refundId, status: found?.status ?? 'failed' },
      context,
    );
  }

  async updateRefund(
    chargeId: string,
    refundId: string,
    metadata: Metadata,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const result = await this.deps.aggregates.executeOn(
      chargeDecider,
      chargeStream,
      chargeId,
      { type: 'UpdateRefund', chargeId, refundId, metadata },
      context,
    );
    return { id: refundId, position: result.position };
  }
}

/**
 * The token's own 3-D Secure result counts for a charge of the amount and currency it was verified
 * for; for any other amount the charge is as if the card had not been verified.
 */
export function verifiedFor(
  info: ThreeDSecureResult | null,
  payment: { amount: number; currency: string },
): ThreeDSecureResult | null {
  return info && info.amount === payment.amount && info.currency === payment.currency ? info : null;
}

/**
 * The merchant's 3-D Secure requirements with the spec's defaults: an enrolled card must shift
 * liability unless the merchant says otherwise. Every charge, the checkout's included, gets them here.
 */
export function threeDSecureRequirements(
  options: Partial<ThreeDSecureRequirements> | undefined,
): ThreeDSecureRequirements {
  return {
    requireAttempt: options?.requireAttempt ?? false,
    requireEnrolledCard: options?.requireEnrolledCard ?? false,
    requireSuccessfulLiabilityShiftForEnrolledCard: options?.requireSuccessfulLiabilityShiftForEnrolledCard ?? true,
  };
}

/**
 * The 3-D Secure options of a charge: the request's flags with the spec's defaults, applied to the
 * token's verification when there is one (also without `threeDSecure` in the request); none when
 * the request asks for nothing and the token was not verified.
 */
function threeDSecureRequest(
  options: Partial<ThreeDSecureRequest> | undefined,
  verified: ThreeDSecureResult | null,
): ThreeDSecureRequest | null {
  if (!options && !verified) return null;
  return {
    ...threeDSecureRequirements(options),
    ...(verified ? { verified } : {}),
    ...(options?.external ? { external: options.external } : {}),
  };
}

const declined = (recorded: CommandOutcome, failure: ChargeFailure): PaymentDeclined =>
  paymentDeclined(recorded, failure, 'chargeId');

/** The charge as the request asks for it, before anything decides it. */
function requestedAttempt(
  chargeId: string,
  input: CreateChargeInput,
  card: ChargeAttempt['card'],
  cardId: string,
): ChargeAttempt {
  return {
    chargeId,
    amount: input.amount,
    currency: input.currency,
    type: input.type ?? null,
    description: input.description ?? null,
    customerId: input.customerId ?? null,
    subscriptionId: input.subscriptionId ?? null,
    cardId,
    card,
    captured: input.captured ?? true,
    shipping: input.shipping ?? null,
    billing: input.billing ?? null,
    threeDSecureInfo: null,
    avsCheck: null,
    fraudDetails: { status: 'unknown', score: 0 },
    merchantAccountId: input.merchantAccountId ?? null,
    metadata: input.metadata ?? {},
    networkTransactionId: null,
    ...(input.crossSale ? { crossSale: input.crossSale } : {}),
  };
}
