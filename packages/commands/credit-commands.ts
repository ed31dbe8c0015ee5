import { cardResource } from '../domain/customer/customer-events.ts';
import {
  creditDecider,
  creditRefusal,
  type CreateCreditCommand,
  type TransferAnswer,
  type TransferUnknown,
} from '../domain/credit/credit-decider.ts';
import { declinedByNetwork } from '../domain/card/card-payment-failure.ts';
import {
  creditResource,
  creditStream,
  type CreditAttempt,
  type CreditFailure,
} from '../domain/credit/credit-events.ts';
import type { CreditState } from '../domain/credit/credit-state.ts';
import { InvalidRequestError } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import { NetworkOutcomeUnknown, type CreditOutcome } from '../network/card-network.ts';
import { faultPoint } from '../config/fault-injection.ts';
import { creditTransferDecider, creditTransferStream } from '../domain/credit/credit-transfer.ts';
import {
  askNetworkOnce,
  createCardPayment,
  startedAt,
  atOneTime,
  unansweredIntentLookup,
  cardForNetwork,
  cvcOf,
  matchingBlacklistRule,
  paymentDeclined,
  type CardPaymentDeps,
} from './card-payment-creation.ts';
import type { CardReference, ResolvedCard } from './card-sources.ts';
import { createdObjectId, createsNewIds, type CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';
import { verifiedFor } from './three-d-secure-options.ts';

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

export const CREDITS_NOT_ALLOWED =
  "Credits are not available for this account's business model: an operator must allow them first";

/**
 * Credits: transfers of funds to a card. The card is resolved and the network asked before the
 * decision (`docs/architecture.md`, "Pure deciders"); its answer is final, so a credit is recorded once, successful or
 * failed. In live mode a credit whose processor's answer is unknown is recorded pending, and the lookup at the
 * processors settles it (`settlePending`).
 */
export class CreditCommands {
  constructor(private readonly deps: CardPaymentDeps) {}

  /**
   * Sends a credit; throws PaymentDeclined (after recording it) when it failed. A repeat of an
   * idempotent request whose credit is recorded (its id derives from the request) gets the
   * recorded outcome again.
   */
  async create(input: CreateCreditInput, context: CommandContext): Promise<CommandOutcome> {
    if (!(await this.deps.accountSettings(context.accountId)).creditsAllowed)
      throw new InvalidRequestError(CREDITS_NOT_ALLOWED);
    const creditId = createdObjectId(creditResource, context);
    const answer = ({ id, position }: CommandOutcome, credit: CreditState) => {
      if (credit.status !== 'none' && credit.failure)
        throw paymentDeclined({ id, position }, credit.failure, 'creditId');
      return Promise.resolve({ id, position });
    };
    return createCardPayment(
      this.deps,
      {
        id: creditId,
        decider: creditDecider,
        streamId: creditStream(creditId),
        streamIsNew: createsNewIds(context),
        customerId: input.customerId ?? null,
        card: input.card,
        use: { kind: 'credit', creditId },
        recordedVaultRef: (state) => (state.status === 'none' ? null : state.card.vaultRef),
        record: async (resolved) =>
          this.deps.aggregates.execute(
            creditDecider,
            creditStream(creditId),
            await this.createCreditCommand(creditId, input, resolved, context),
            context,
          ),
        answerNew: (recorded, credit) => answer(recorded, credit),
        answerRecorded: ({ state, events }) =>
          answer({ id: creditId, position: events.at(-1)?.position ?? null }, state),
      },
      context,
    );
  }

  /**
   * The `CreateCredit` command with everything its decision needs: the blacklist rule the
   * credit's screening matches and, unless that blocks it (`creditRefusal`), the network's answer
   * (in live mode unknown when the processor's answer never came).
   */
  private async createCreditCommand(
    creditId: string,
    input: CreateCreditInput,
    resolved: ResolvedCard,
    context: CommandContext,
  ): Promise<CreateCreditCommand> {
    const attempt: CreditAttempt = {
      creditId,
      amount: input.amount,
      currency: input.currency,
      description: input.description ?? null,
      customerId: input.customerId ?? null,
      // A new card is not saved to the customer by a credit; it still gets an id of its own.
      cardId: resolved.savedCardId ?? createdObjectId(cardResource, context),
      card: resolved.card,
      cardSource: resolved.source,
      metadata: input.metadata ?? {},
      threeDSecureInfo: verifiedFor(resolved.threeDSecureInfo, input),
    };
    const blacklistRule = await matchingBlacklistRule(
      this.deps.blacklistRules,
      { card: attempt.card, email: null, metadata: attempt.metadata },
      context,
    );
    const transfer =
      creditRefusal(blacklistRule) === null ? await this.transfer(attempt, cvcOf(input.card), context) : null;
    return { type: 'CreateCredit', attempt, blacklistRule, transfer };
  }

  /**
   * The network's answer to the transfer of the funds (`askNetworkOnce`: never sent twice for one
   * credit); unknown when the processor may have sent them and its answer never came.
   */
  private async transfer(
    attempt: CreditAttempt,
    cvc: string | undefined,
    context: CommandContext,
  ): Promise<TransferAnswer | TransferUnknown> {
    const { creditId, card } = attempt;
    let outcome: CreditOutcome;
    try {
      outcome = await askNetworkOnce(this.deps.network, context, {
        recordIntent: async (loaded) => {
          const intent = atOneTime(context);
          return this.deps.aggregates.execute(
            creditTransferDecider,
            creditTransferStream(creditId),
            {
              type: 'StartTransfer',
              creditId,
              networkReference: creditId,
              amount: attempt.amount,
              currency: attempt.currency,
              cardId: attempt.cardId,
              ...(await unansweredIntentLookup(this.deps.network, attempt, loaded, intent)),
            },
            intent,
          );
        },
        afterIntent: () => faultPoint('credit.before-network-call', context),
        findEarlierAnswer: (loaded) =>
          this.deps.network.findCredit({
            mode: context.mode,
            accountId: context.accountId,
            reference: creditId,
            ...loaded,
          }),
        ask: async (loaded) => {
          const answer = await this.deps.network.credit({
            mode: context.mode,
            accountId: context.accountId,
            reference: creditId,
            ...(await cardForNetwork(this.deps.intake, card, cvc)),
            amount: attempt.amount,
            currency: attempt.currency,
            now: context.now(),
            ...loaded,
          });
          faultPoint('credit.after-network-call', context);
          return answer;
        },
        closeIntent: () =>
          this.deps.aggregates.execute(
            creditTransferDecider,
            creditTransferStream(creditId),
            { type: 'CloseTransfer', creditId },
            context,
          ),
      });
    } catch (error) {
      if (!(error instanceof NetworkOutcomeUnknown)) throw error;
      // The processor may have sent the funds: pending, never failed, never sent elsewhere.
      return { answered: false, lookupDueAt: context.now().toISOString() };
    }
    return { answered: true, failure: outcome.failure };
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
    const failure: CreditFailure | null = found
      ? declinedByNetwork(found.failure)
      : {
          failureCode: 'processing_error',
          failureMessage: 'The processor never received the credit; nothing was sent.',
          failureIssuerDeclineCode: null,
          blacklistRuleId: null,
        };
    return this.deps.aggregates.executeOn(
      creditDecider,
      creditStream,
      creditId,
      { type: 'SettleCredit', creditId, failure },
      context,
    );
  }

  /**
   * Settles a live credit whose intent no outcome followed (its request was cut short by a crash
   * and nobody retried it; the due-work scheduler runs this at the intent's `lookupDueAt`), as
   * `ChargeCommands.settleUnansweredIntent` does a charge: found at a processor, the credit is
   * recorded as it answered (sent, or declined with its code); found nowhere, the intent is closed
   * as not sent once every processor's idempotency window is over, and looked up again then before
   * that. Records nothing for an intent that is closed or whose credit exists.
   */
  async settleUnansweredIntent(creditId: string, context: CommandContext): Promise<CommandOutcome> {
    const intent = await this.deps.aggregates.load(creditTransferDecider, creditTransferStream(creditId), context);
    const credit = await this.deps.aggregates.load(creditDecider, creditStream(creditId), context);
    const unchanged = { id: creditId, position: credit.events.at(-1)?.position ?? null };
    const open = intent.state.started && !intent.state.closed ? intent.state : null;
    if (open === null || open.attempt === null || credit.state.status !== 'none') return unchanged;
    const found = await this.deps.network.findCredit({
      mode: context.mode,
      accountId: context.accountId,
      reference: creditId,
      since: startedAt(intent.events, 'CreditTransferStarted'),
    });
    if (found === null) {
      const { closableAt } = open;
      await this.deps.aggregates.execute(
        creditTransferDecider,
        creditTransferStream(creditId),
        closableAt !== null && context.now().getTime() < Date.parse(closableAt)
          ? { type: 'NoteTransferNotFound', creditId, nextLookupAt: closableAt }
          : { type: 'CloseTransfer', creditId },
        context,
      );
      return unchanged;
    }
    try {
      const recorded = await this.deps.aggregates.execute(
        creditDecider,
        creditStream(creditId),
        // Screening passed before the intent was recorded: the processor's answer decides.
        { type: 'CreateCredit', attempt: open.attempt, blacklistRule: null, transfer: { failure: found.failure } },
        context,
      );
      return { id: creditId, position: recorded.position };
    } catch (error) {
      // The request's retry recorded the credit meanwhile, from the same answer of the processor.
      const meanwhile = await this.deps.aggregates.load(creditDecider, creditStream(creditId), context);
      if (meanwhile.state.status === 'none') throw error;
      return { id: creditId, position: meanwhile.events.at(-1)?.position ?? null };
    }
  }

  /** Changes description and metadata only: the transfer itself is final. */
  async update(creditId: string, input: UpdateCreditInput, context: CommandContext): Promise<CommandOutcome> {
    return this.deps.aggregates.executeOn(
      creditDecider,
      creditStream,
      creditId,
      { type: 'UpdateCredit', creditId, ...input },
      context,
    );
  }
}
