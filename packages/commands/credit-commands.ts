import { cardResource } from '../domain/customer/customer-events.ts';
import { cardExpiry } from '../domain/card/card-expiry.ts';
import { creditDecider, type CreditCommand } from '../domain/credit/credit-decider.ts';
import {
  creditResource,
  creditStream,
  type CreditAttempt,
  type CreditFailure,
} from '../domain/credit/credit-events.ts';
import type { AccountSettings } from '../domain/account/account-events.ts';
import { findMatchingRule, type ChargeScreening } from '../domain/blacklist/blacklist-matcher.ts';
import type { BlacklistRule } from '../domain/blacklist/blacklist-rule.ts';
import { CardError, InvalidRequestError } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import { NetworkOutcomeUnknown, type CardNetwork, type CreditOutcome } from '../network/card-network.ts';
import { faultPoint } from '../config/fault-injection.ts';
import { creditTransferDecider, creditTransferStream } from '../domain/credit/credit-transfer.ts';
import { tenantFingerprint } from '../vault/tenant-fingerprint.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CardIntake } from './card-intake.ts';
import type { CardReference, CardSources, ResolvedCard } from './card-sources.ts';
import { createdObjectId, createsNewIds, type CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { CommandOutcome } from './command-outcome.ts';
import { verifiedFor } from './charge-commands.ts';
import { PaymentDeclined } from './payment-declined.ts';

export interface CreateCreditInput {
  amount: number;
  currency: string;
  /** Required unless `customerId` is given (then the customer's default card). */
  card?: CardReference;
  description?: string;
  customerId?: string;
  metadata?: Metadata;
}

export interface UpdateCreditInput {
  description?: string | null;
  metadata?: Metadata;
}

export interface CreditCommandsDeps {
  aggregates: AggregateStore;
  cardSources: CardSources;
  intake: CardIntake;
  network: CardNetwork;
  /** Live blacklist rules of a tenant: credits are screened like charges. */
  blacklistRules: (tenant: Tenant) => Promise<BlacklistRule[]>;
  /** The account's settings in force (whether credits are allowed). */
  accountSettings: (accountId: string) => Promise<AccountSettings>;
}

export const CREDITS_NOT_ALLOWED =
  "Credits are not available for this account's business model: an operator must allow them first";

/**
 * Credits: transfers of funds to a card. The card is resolved and the network asked before the
 * decision (`docs/architecture.md`, "Pure deciders"); its answer is final, so a credit is recorded once, successful or failed.
 */
/** A credit ready to be recorded; `pendingLookupDueAt` (live mode): its outcome is unknown and looked up from then. */
interface CreditDecision {
  attempt: CreditAttempt;
  failure: CreditFailure | null;
  pendingLookupDueAt?: string;
}

export class CreditCommands {
  constructor(private readonly deps: CreditCommandsDeps) {}

  /**
   * Sends a credit; throws PaymentDeclined (after recording it) when the network refused it. A
   * repeat of an idempotent request whose credit is recorded (its id derives from the request)
   * gets the recorded outcome again.
   */
  async create(input: CreateCreditInput, context: CommandContext): Promise<CommandOutcome> {
    if (!(await this.deps.accountSettings(context.accountId)).creditsAllowed)
      throw new InvalidRequestError(CREDITS_NOT_ALLOWED);
    const creditId = createdObjectId(creditResource, context);
    const streamIsNew = createsNewIds(context);
    const existing = await this.deps.aggregates.loadBeforeCreating(
      creditDecider,
      creditStream(creditId),
      context,
      streamIsNew,
    );
    if (existing.state.status !== 'none') {
      const recorded = { id: creditId, position: existing.events.at(-1)?.position ?? null };
      if (existing.state.failure) throw declined(recorded, existing.state.failure);
      return recorded;
    }
    const customerId = input.customerId ?? null;
    if (customerId !== null) await this.deps.cardSources.liveCustomer(customerId, context);
    // Invalid card details fail here with a 402 before anything is recorded: there is no credit yet.
    const resolved = await this.deps.cardSources.forPayment(
      input.card,
      customerId,
      { kind: 'credit', creditId },
      context,
    );
    let decided: CreditDecision;
    let recorded: CommandOutcome;
    try {
      decided = await this.decide(creditId, input, resolved, context);
      const { attempt, failure, pendingLookupDueAt } = decided;
      recorded = await this.run(
        creditId,
        pendingLookupDueAt
          ? { type: 'RecordPendingCredit', attempt, lookupDueAt: pendingLookupDueAt }
          : { type: 'RecordCredit', attempt, failure },
        context,
      );
    } catch (error) {
      // No event records the card this run took in, unless the credit's own did before the error.
      const after = await this.deps.aggregates.load(creditDecider, creditStream(creditId), context);
      if (after.state.status === 'none' || after.state.card.vaultRef !== resolved.card.vaultRef)
        await this.deps.cardSources.discardUnrecorded(resolved);
      throw error;
    }
    if (decided.failure) throw declined(recorded, decided.failure);
    return recorded;
  }

  /**
   * What the credit is and how it ends: blocked by a blacklist rule, or the network's answer; in
   * live mode pending when the processor's answer is unknown.
   */
  private async decide(
    creditId: string,
    input: CreateCreditInput,
    resolved: ResolvedCard,
    context: CommandContext,
  ): Promise<CreditDecision> {
    const customerId = input.customerId ?? null;
    const attempt: CreditAttempt = {
      creditId,
      amount: input.amount,
      currency: input.currency,
      description: input.description ?? null,
      customerId,
      // A new card is not saved to the customer by a credit; it still gets an id of its own.
      cardId: resolved.savedCardId ?? createdObjectId(cardResource, context),
      card: resolved.card,
      cardSource: resolved.source,
      metadata: input.metadata ?? {},
      threeDSecureInfo: verifiedFor(resolved.threeDSecureInfo, input),
    };

    const rule = findMatchingRule(await this.deps.blacklistRules(context), screening(attempt, context));
    if (rule) {
      const failure: CreditFailure = {
        failureCode: 'blacklisted',
        failureMessage: 'The credit was blocked by a blacklist rule.',
        failureIssuerDeclineCode: null,
        blacklistRuleId: rule.ruleId,
      };
      return { attempt, failure };
    }

    const cvc =
      typeof input.card === 'object' && input.card.cvc !== undefined ? String(input.card.cvc).trim() : undefined;
    let outcome: CreditOutcome;
    try {
      outcome = await this.transfer(attempt, cvc, context);
    } catch (error) {
      if (!(error instanceof NetworkOutcomeUnknown)) throw error;
      // The processor may have sent the funds: pending, never failed, never sent elsewhere.
      return { attempt, failure: null, pendingLookupDueAt: context.now().toISOString() };
    }
    const failure: CreditFailure | null = outcome.failure
      ? {
          failureCode: outcome.failure.code,
          failureMessage: outcome.failure.message,
          failureIssuerDeclineCode: outcome.failure.issuerDeclineCode,
          blacklistRuleId: null,
        }
      : null;
    return { attempt, failure };
  }

  /**
   * Asks the network to send the funds, after recording the intent. When the intent was recorded
   * already, an earlier run of this request was cut short and may have reached the network: its
   * answer is asked for first, so the funds are never sent twice for one credit.
   */
  private async transfer(
    attempt: CreditAttempt,
    cvc: string | undefined,
    context: CommandContext,
  ): Promise<CreditOutcome> {
    const { creditId, card } = attempt;
    const intent = await this.deps.aggregates.execute(
      creditTransferDecider,
      creditTransferStream(creditId),
      {
        type: 'StartTransfer',
        creditId,
        networkReference: creditId,
        amount: attempt.amount,
        currency: attempt.currency,
        cardId: attempt.cardId,
      },
      context,
    );
    const startedBefore = intent.events.length === 0;
    const known = startedBefore
      ? await this.deps.network.findCredit({ mode: context.mode, accountId: context.accountId, reference: creditId })
      : null;
    if (known) return known;
    const number = await this.deps.intake.revealNumber(card);
    const outcome = await this.deps.network.credit({
      mode: context.mode,
      accountId: context.accountId,
      reference: creditId,
      number,
      expMonth: cardExpiry(card).month,
      expYear: cardExpiry(card).year,
      ...(cvc ? { cvc } : {}),
      ...(card.processorCards ? { processorCards: card.processorCards } : {}),
      amount: attempt.amount,
      currency: attempt.currency,
      now: context.now(),
    });
    faultPoint('credit.after-network-call', context);
    return outcome;
  }

  /**
   * Settles a pending live credit by asking the account's processors what became of it (the
   * due-work scheduler runs this; `docs/payments.md`). Found: sent or declined as the processor
   * says. Received by none: failed, nothing was sent. Any processor that cannot be asked leaves it
   * pending (throws), and the next scan asks again. Records nothing for a credit that is not pending.
   */
  async settlePending(creditId: string, context: CommandContext): Promise<CommandOutcome> {
    const { state, events } = await this.deps.aggregates.load(creditDecider, creditStream(creditId), context);
    if (state.status !== 'pending') return { id: creditId, position: events.at(-1)?.position ?? null };
    const found = await this.deps.network.findCredit({
      mode: context.mode,
      accountId: context.accountId,
      reference: creditId,
    });
    const failure: CreditFailure | null = !found
      ? {
          failureCode: 'processing_error',
          failureMessage: 'The processor never received the credit; nothing was sent.',
          failureIssuerDeclineCode: null,
          blacklistRuleId: null,
        }
      : found.failure
        ? {
            failureCode: found.failure.code,
            failureMessage: found.failure.message,
            failureIssuerDeclineCode: found.failure.issuerDeclineCode,
            blacklistRuleId: null,
          }
        : null;
    return this.run(creditId, { type: 'SettleCredit', creditId, failure }, context);
  }

  /** Changes description and metadata only: the transfer itself is final. */
  async update(creditId: string, input: UpdateCreditInput, context: CommandContext): Promise<CommandOutcome> {
    return this.run(creditId, { type: 'UpdateCredit', creditId, ...input }, context);
  }

  private async run(creditId: string, command: CreditCommand, context: CommandContext): Promise<CommandOutcome> {
    const result = await this.deps.aggregates.execute(creditDecider, creditStream(creditId), command, context);
    return { id: creditId, position: result.position };
  }
}

function declined(recorded: CommandOutcome, failure: CreditFailure): PaymentDeclined {
  const details = {
    creditId: recorded.id,
    ...(failure.failureIssuerDeclineCode ? { issuerDeclineCode: failure.failureIssuerDeclineCode } : {}),
    ...(failure.blacklistRuleId ? { blacklistRuleId: failure.blacklistRuleId } : {}),
  };
  return new PaymentDeclined(recorded, new CardError(failure.failureCode, failure.failureMessage, details));
}

/** What the blacklist looks at for a credit: the card (its fingerprint and fraud data) and the metadata. */
function screening(attempt: CreditAttempt, tenant: Tenant): ChargeScreening {
  const fraud = attempt.card.fraudCheckData;
  return {
    fingerprint: tenantFingerprint(attempt.card.fingerprint, tenant),
    storedFingerprint: attempt.card.fingerprint,
    ipAddress: fraud?.ipAddress ?? null,
    ipCountry: fraud?.ipCountry ?? null,
    email: fraud?.email ?? null,
    userAgent: fraud?.userAgent ?? null,
    acceptLanguage: fraud?.acceptLanguage ?? null,
    metadata: attempt.metadata,
  };
}
