import { chargeDecider } from '../domain/charge/charge-decider.ts';
import { chargeStream, chargeResource } from '../domain/charge/charge-events.ts';
import { customerDecider, type CustomerCommand, type NewCard } from '../domain/customer/customer-decider.ts';
import {
  cardResource,
  customerResource,
  customerStream,
  type CardAdded,
  type CardChanges,
} from '../domain/customer/customer-events.ts';
import type { CustomerState } from '../domain/customer/customer-state.ts';
import { InvalidRequestError } from '../domain/errors.ts';
import type { Metadata } from '../domain/metadata.ts';
import type { CardNetwork } from '../network/card-network.ts';
import type { Vault } from '../vault/vault.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CardIntake } from './card-intake.ts';
import { KeyedLock } from './keyed-lock.ts';
import type { CardReference, CardSources } from './card-sources.ts';
import { createdObjectId, createsNewIds, type CommandContext } from './command-context.ts';
import { faultPoint } from '../config/fault-injection.ts';
import type { CommandOutcome } from './command-outcome.ts';
import type { TokenCommands } from './token-commands.ts';
import { tokenResource } from '../domain/token/token-events.ts';
import { isIdOf } from '../ids/object-id.ts';
import type { CardholderDetails, CardSnapshot } from '../domain/card/card-snapshot.ts';
import { cardExpiry } from '../domain/card/card-expiry.ts';

export interface CreateCustomerInput {
  email: string;
  description?: string | null;
  metadata?: Metadata;
  /** A token, a successful charge's id, or card details: saved as the default card. */
  card?: CardReference;
  /** Test mode: the test clock the customer lives on (checked by the caller). */
  testClockId?: string;
}

export interface UpdateCustomerInput {
  email?: string;
  description?: string | null;
  metadata?: Metadata;
  defaultCardId?: string;
  card?: CardReference;
}

export interface CardUpdateInput extends Partial<CardholderDetails> {
  expMonth?: string | number;
  expYear?: string | number;
  checkFastCredit?: boolean;
}

export interface CustomerCommandsDeps {
  aggregates: AggregateStore;
  cardSources: CardSources;
  tokens: TokenCommands;
  intake: CardIntake;
  network: CardNetwork;
  vault: Vault;
}

/** Customers and the cards saved for them (one stream per customer). */
export class CustomerCommands {
  private readonly cardUpdates = new KeyedLock();

  constructor(private readonly deps: CustomerCommandsDeps) {}

  /**
   * Safe to run again for the same request (an idempotent request cut short by a crash: the
   * customer id derives from it): a recorded customer is answered as it was recorded, with the
   * follow-ups of its card made if a crash cut them off.
   */
  async create(input: CreateCustomerInput, context: CommandContext): Promise<CommandOutcome> {
    const customerId = createdObjectId(customerResource, context);
    const streamIsNew = createsNewIds(context);
    const existing = await this.deps.aggregates.loadBeforeCreating(
      customerDecider,
      customerStream(customerId),
      context,
      streamIsNew,
    );
    if (existing.state.status !== 'none') {
      const recorded = { id: customerId, position: existing.events.at(-1)?.position ?? null };
      // The card given at creation is added by the creation's own events.
      const added = existing.events.find((event) => event.type === 'CardAdded' && event.revision <= 1);
      return this.afterCardSaved(recorded, customerId, added?.data as NewCard | undefined, context);
    }
    const { card, ...fields } = input;
    const newCard = card === undefined ? undefined : await this.cardToSave(customerId, card, context);
    const outcome = await this.recordingCard(customerId, newCard, context, () =>
      this.deps.aggregates.executeOn(
        customerDecider,
        customerStream,
        customerId,
        { type: 'CreateCustomer', customerId, ...fields, ...(newCard ? { card: newCard } : {}) },
        context,
        { streamIsNew },
      ),
    );
    faultPoint('customer.after-append', context);
    return this.afterCardSaved(outcome, customerId, newCard, context);
  }

  /**
   * Safe to run again for the same request: a new card that an earlier run of it (cut short by a
   * crash) saved is adopted, not taken in again, and the follow-ups of saving it are made.
   */
  async update(customerId: string, input: UpdateCustomerInput, context: CommandContext): Promise<CommandOutcome> {
    const { card, ...fields } = input;
    if (card !== undefined) await this.deps.cardSources.liveCustomer(customerId, context);
    const earlier = card === undefined ? null : await this.savedByEarlierRun(customerId, card, context);
    if (earlier) {
      const outcome = await this.deps.aggregates.executeOn(
        customerDecider,
        customerStream,
        customerId,
        { type: 'UpdateCustomer', customerId, ...fields },
        context,
      );
      const saved = { id: customerId, position: outcome.position ?? earlier.position };
      return this.afterCardSaved(saved, customerId, earlier.card, context);
    }
    const newCard = card === undefined ? undefined : await this.cardToSave(customerId, card, context);
    const outcome = await this.recordingCard(customerId, newCard, context, () =>
      this.deps.aggregates.executeOn(
        customerDecider,
        customerStream,
        customerId,
        { type: 'UpdateCustomer', customerId, ...fields, ...(newCard ? { card: newCard } : {}) },
        context,
      ),
    );
    if (newCard) faultPoint('customer.after-append', context);
    return this.afterCardSaved(outcome, customerId, newCard, context);
  }

  /** Soft delete; the vault forgets the numbers of the customer's cards. */
  async delete(customerId: string, context: CommandContext): Promise<CommandOutcome> {
    const result = await this.deps.aggregates.execute(
      customerDecider,
      customerStream(customerId),
      { type: 'DeleteCustomer', customerId },
      context,
    );
    if (result.state.status !== 'none')
      for (const saved of result.state.cards) await this.deps.vault.erase(saved.card.vaultRef);
    return { id: customerId, position: result.position };
  }

  /** POST /customers/{id}/cards: a token, a charge id, or card details. */
  async addCard(customerId: string, reference: CardReference, context: CommandContext): Promise<CommandOutcome> {
    await this.deps.cardSources.liveCustomer(customerId, context);
    const newCard = await this.cardToSave(customerId, reference, context, 'id');
    const result = await this.recordingCard(customerId, newCard, context, () =>
      this.deps.aggregates.execute(
        customerDecider,
        customerStream(customerId),
        // Saved already: an earlier run of this idempotent request was cut short after saving it.
        (state): CustomerCommand =>
          context.requestToken !== undefined &&
          state.status !== 'none' &&
          state.cards.some((saved) => saved.cardId === newCard.cardId)
            ? { type: 'UpdateCustomer', customerId }
            : { type: 'AddCard', customerId, ...newCard },
        context,
      ),
    );
    // The earlier run saved the card with the details it took in; this run's copy is not needed.
    if (!recordsCard(result.state, newCard)) await this.deps.cardSources.discardUnrecorded(newCard);
    const outcome = { id: customerId, position: result.position };
    const saved = await this.afterCardSaved(outcome, customerId, newCard, context);
    return { id: newCard.cardId, position: saved.position };
  }

  /**
   * One update of a card at a time in this process: a new expiry is sent to the processors that
   * keep the card and then recorded, so two updates must not interleave between the two.
   */
  async updateCard(
    customerId: string,
    cardId: string,
    input: CardUpdateInput,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    return this.cardUpdates.run(`${context.accountId}/${customerId}/${cardId}`, () =>
      this.updateCardNow(customerId, cardId, input, context),
    );
  }

  private async updateCardNow(
    customerId: string,
    cardId: string,
    input: CardUpdateInput,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const { checkFastCredit, expMonth, expYear, ...fields } = input;
    const changes: CardChanges = { ...fields };
    if (expMonth !== undefined || expYear !== undefined) {
      const { state } = await this.deps.aggregates.load(customerDecider, customerStream(customerId), context);
      const saved = state.status === 'none' ? undefined : state.cards.find((candidate) => candidate.cardId === cardId);
      if (saved) {
        // Re-validate the new expiry as the network would (402 for an invalid or past date).
        const expiry = this.deps.intake.validateExpiry(
          expMonth ?? saved.card.expMonth,
          expYear ?? saved.card.expYear,
          context.now(),
        );
        changes.expMonth = expiry.expMonth;
        changes.expYear = expiry.expYear;
        if (!saved.deleted && state.status === 'active') await this.sendExpiryToProcessors(saved.card, expiry, context);
      }
    }
    if (checkFastCredit) {
      const { state } = await this.deps.aggregates.load(customerDecider, customerStream(customerId), context);
      const saved =
        state.status === 'none'
          ? undefined
          : state.cards.find((candidate) => candidate.cardId === cardId && !candidate.deleted);
      if (saved) {
        const number = await this.deps.intake.revealNumber(saved.card);
        const { supported } = await this.deps.network.checkFastCredit({ mode: context.mode, number });
        changes.fastCredit = { supported, updated: Math.floor(context.now().getTime() / 1000) };
      }
    }
    const outcome = await this.deps.aggregates.executeOn(
      customerDecider,
      customerStream,
      customerId,
      { type: 'UpdateCard', customerId, cardId, changes },
      context,
    );
    return { id: cardId, position: outcome.position };
  }

  /**
   * A new expiry of a card that processors keep goes to them before it is recorded here, so that
   * the card's next card-on-file payment there carries it; a processor that does not take it fails
   * the update (a `gateway_error`) and nothing is recorded. Retrying sends it again.
   */
  private async sendExpiryToProcessors(
    card: CardSnapshot,
    expiry: { expMonth: string; expYear: string },
    context: CommandContext,
  ): Promise<void> {
    const next = cardExpiry(expiry);
    const current = cardExpiry(card);
    if (!card.processorCards?.length || (next.month === current.month && next.year === current.year)) return;
    await this.deps.network.updateKeptCardExpiry({
      accountId: context.accountId,
      mode: context.mode,
      reference: card.vaultRef,
      processorCards: card.processorCards,
      expMonth: next.month,
      expYear: next.year,
    });
  }

  /** Deletes a saved card; the vault forgets its number. */
  async deleteCard(customerId: string, cardId: string, context: CommandContext): Promise<CommandOutcome> {
    const result = await this.deps.aggregates.execute(
      customerDecider,
      customerStream(customerId),
      { type: 'DeleteCard', customerId, cardId },
      context,
    );
    const saved =
      result.state.status === 'none' ? undefined : result.state.cards.find((candidate) => candidate.cardId === cardId);
    if (saved) await this.deps.vault.erase(saved.card.vaultRef);
    return { id: cardId, position: result.position };
  }

  /**
   * Runs `record`, which saves `newCard` to the customer. When it fails, card details it took in
   * are erased from the vault, unless the customer's stream shows them saved after all (an error
   * after a write that landed).
   */
  private async recordingCard<T>(
    customerId: string,
    newCard: NewCard | undefined,
    context: CommandContext,
    record: () => Promise<T>,
  ): Promise<T> {
    try {
      return await record();
    } catch (error) {
      if (newCard) {
        const { state } = await this.deps.aggregates.load(customerDecider, customerStream(customerId), context);
        if (!recordsCard(state, newCard)) await this.deps.cardSources.discardUnrecorded(newCard);
      }
      throw error;
    }
  }

  /**
   * The new card (details or a token) this request saves, when an earlier run of the same
   * idempotent request saved it already under the card id derived from the request, with when
   * that run saved it (business time); null otherwise. A charge's card keeps the charge's card id
   * and is not looked for here.
   */
  async savedByEarlierRun(
    customerId: string,
    reference: CardReference,
    context: CommandContext,
  ): Promise<{ card: NewCard; position: number; savedAt: Date } | null> {
    if (createsNewIds(context) || (typeof reference === 'string' && !isIdOf(tokenResource, reference))) return null;
    const cardId = createdObjectId(cardResource, context);
    const { events } = await this.deps.aggregates.load(customerDecider, customerStream(customerId), context);
    const added = events.find((event) => event.type === 'CardAdded' && event.data.cardId === cardId);
    if (!added) return null;
    const { card, source, merchantAccountId } = added.data as CardAdded['data'];
    return {
      card: { cardId, card, source, merchantAccountId },
      position: events.at(-1)!.position,
      savedAt: new Date(added.metadata.occurredAt),
    };
  }

  /** Resolves a card to save: from a successful charge (its card keeps the charge's card id), a token or details. */
  private async cardToSave(
    customerId: string,
    reference: CardReference,
    context: CommandContext,
    parameter = 'card',
  ): Promise<NewCard> {
    if (typeof reference === 'string' && isIdOf(chargeResource, reference)) {
      const { state } = await this.deps.aggregates.load(chargeDecider, chargeStream(reference), context);
      if (state.status === 'none')
        throw new InvalidRequestError(`Invalid parameter: charge '${reference}' does not exist`);
      if (state.status !== 'successful')
        throw new InvalidRequestError(`Charge '${reference}' did not succeed; its card cannot be saved`);
      if (state.customerId !== null && state.customerId !== customerId) {
        throw new InvalidRequestError(`Charge '${reference}' is assigned to another customer`);
      }
      if (state.cardId === null || state.card === null)
        throw new InvalidRequestError(`Charge '${reference}' was paid with a payment method; it has no card to save`);
      return {
        cardId: state.cardId,
        card: state.card,
        source: { kind: 'charge', chargeId: reference },
        merchantAccountId: state.merchantAccountId,
      };
    }
    if (typeof reference === 'string' && !isIdOf(tokenResource, reference)) {
      const expected =
        parameter === 'id'
          ? 'a token (tok_…) or a charge (char_…)'
          : 'a token (tok_…), a charge (char_…) or card details';
      throw new InvalidRequestError(`Invalid parameter: ${parameter} must be ${expected}`);
    }
    const cardId = createdObjectId(cardResource, context);
    const resolved = await this.deps.cardSources.newCard(
      reference,
      { kind: 'card', customerId, cardId },
      context,
      parameter,
    );
    return { cardId, card: resolved.card, source: resolved.source! };
  }

  /** Follow-ups on other streams once a card is saved: the token shows its card, the charge its customer. */
  private async afterCardSaved(
    outcome: CommandOutcome,
    customerId: string,
    card: NewCard | undefined,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    let position = outcome.position;
    if (card?.source.kind === 'token') {
      position = (await this.deps.tokens.recordCard(card.source.tokenId, customerId, card.cardId, context)) ?? position;
    }
    if (card?.source.kind === 'charge') {
      const chargeId = card.source.chargeId;
      const result = await this.deps.aggregates.execute(
        chargeDecider,
        chargeStream(chargeId),
        { type: 'UpdateCharge', chargeId, customerId },
        context,
      );
      position = result.position ?? position;
    }
    return { id: outcome.id, position };
  }
}

/** Whether the customer has the card saved with the very vault entry `newCard` refers to. */
function recordsCard(state: CustomerState, newCard: NewCard): boolean {
  return state.status !== 'none' && state.cards.some((saved) => saved.card.vaultRef === newCard.card.vaultRef);
}
