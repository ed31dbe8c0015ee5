import { cardExpiry } from '../domain/card/card-expiry.ts';
import { creditDecider, type CreditCommand } from '../domain/credit/credit-decider.ts';
import { creditStream, type CreditAttempt, type CreditFailure } from '../domain/credit/credit-events.ts';
import { CardError } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import { newId } from '../ids/object-id.ts';
import type { CardNetwork } from '../network/card-network.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CardIntake } from './card-intake.ts';
import type { CardReference, CardSources } from './card-sources.ts';
import type { CommandContext } from './command-context.ts';
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
}

/**
 * Credits: transfers of funds to a card. The card is resolved and the network asked before the
 * decision (`docs/architecture.md`, "Pure deciders"); its answer is final, so a credit is recorded once, successful or failed.
 */
export class CreditCommands {
  constructor(private readonly deps: CreditCommandsDeps) {}

  /** Sends a credit; throws PaymentDeclined (after recording it) when the network refused it. */
  async create(input: CreateCreditInput, context: CommandContext): Promise<CommandOutcome> {
    const creditId = newId('cr');
    const customerId = input.customerId ?? null;
    if (customerId !== null) await this.deps.cardSources.liveCustomer(customerId, context);
    // Invalid card details fail here with a 402 before anything is recorded: there is no credit yet.
    const resolved = await this.deps.cardSources.forPayment(
      input.card,
      customerId,
      { kind: 'credit', creditId },
      context,
    );
    const attempt: CreditAttempt = {
      creditId,
      amount: input.amount,
      currency: input.currency,
      description: input.description ?? null,
      customerId,
      // A new card is not saved to the customer by a credit; it still gets an id of its own.
      cardId: resolved.savedCardId ?? newId('card'),
      card: resolved.card,
      cardSource: resolved.source,
      metadata: input.metadata ?? {},
      threeDSecureInfo: verifiedFor(resolved.threeDSecureInfo, input),
    };

    const number = await this.deps.intake.revealNumber(resolved.card);
    const outcome = await this.deps.network.credit({
      mode: context.mode,
      number,
      expMonth: cardExpiry(resolved.card).month,
      expYear: cardExpiry(resolved.card).year,
      amount: input.amount,
      currency: input.currency,
      now: context.now(),
    });
    const failure: CreditFailure | null = outcome.failure
      ? {
          failureCode: outcome.failure.code,
          failureMessage: outcome.failure.message,
          failureIssuerDeclineCode: outcome.failure.issuerDeclineCode,
        }
      : null;

    const recorded = await this.run(creditId, { type: 'RecordCredit', attempt, failure }, context);
    if (failure) {
      const details = {
        creditId,
        ...(failure.failureIssuerDeclineCode ? { issuerDeclineCode: failure.failureIssuerDeclineCode } : {}),
      };
      throw new PaymentDeclined(recorded, new CardError(failure.failureCode, failure.failureMessage, details));
    }
    return recorded;
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
