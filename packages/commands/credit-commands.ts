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
import type { CardNetwork, CreditOutcome } from '../network/card-network.ts';
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
    let decided: { attempt: CreditAttempt; failure: CreditFailure | null };
    let recorded: CommandOutcome;
    try {
      decided = await this.decide(creditId, input, resolved, context);
      recorded = await this.run(creditId, { type: 'RecordCredit', ...decided }, context);
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

  /** What the credit is and how it ends: blocked by a blacklist rule, or the network's answer. */
  private async decide(
    creditId: string,
    input: CreateCreditInput,
    resolved: ResolvedCard,
    context: CommandContext,
  ): Promise<{ attempt: CreditAttempt; failure: CreditFailure | null }> {
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
    const outcome = await this.transfer(attempt, cvc, context);
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
