import type { CardSnapshot } from '../domain/card/card-snapshot.ts';
import type { ThreeDSecureResult } from '../domain/charge/charge-events.ts';
import { customerDecider } from '../domain/customer/customer-decider.ts';
import { customerStream, type CardSource, cardResource } from '../domain/customer/customer-events.ts';
import { InvalidRequestError, missingParameter } from '../domain/errors.ts';
import { type TokenUse, tokenResource } from '../domain/token/token-events.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CardDetailsInput, CardIntake } from './card-intake.ts';
import type { CommandContext } from './command-context.ts';
import type { Tenant } from '../domain/tenant.ts';
import type { TokenCommands } from './token-commands.ts';
import { isIdOf } from '../ids/object-id.ts';

/** A card as a request names it: a token id, a saved card id, or card details. */
export type CardReference = string | CardDetailsInput;

/** A card ready for use, with where it came from. */
export interface ResolvedCard {
  card: CardSnapshot;
  /** Present for a customer's saved card. */
  savedCardId: string | null;
  /** How a new card would be recorded when saved (details or token); null for a saved card. */
  source: CardSource | null;
  /** The 3-D Secure result of the token the card came from, when it was verified. */
  threeDSecureInfo: ThreeDSecureResult | null;
  /** For a saved card: the token it was saved from, if it was. */
  savedFromToken: string | null;
}

/**
 * Resolves the card a request names (spec: `card` of charges, customers, cards and credits):
 * card details go through intake into the vault; a token is used up; a card id must be a live
 * card of the given customer; no card means the customer's default card.
 */
export class CardSources {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly intake: CardIntake,
    private readonly tokens: TokenCommands,
  ) {}

  /**
   * A new card: details or a token (consumed for `use`). Details of a card that will be paid with
   * again (`keep`: a saved card, a charge's card saved to its customer) are kept at the live
   * processors while the CVC is at hand (`CardIntake.fromDetails`).
   */
  async newCard(
    reference: CardReference,
    use: TokenUse,
    context: CommandContext,
    parameter = 'card',
    keep = true,
  ): Promise<ResolvedCard> {
    if (typeof reference !== 'string') {
      return {
        card: await this.intake.fromDetails(reference, context.now(), keep ? context : undefined),
        savedCardId: null,
        source: { kind: 'details' },
        threeDSecureInfo: null,
        savedFromToken: null,
      };
    }
    if (!isIdOf(tokenResource, reference))
      throw new InvalidRequestError(`Invalid parameter: ${parameter} must be a token (tok_…) or card details`);
    const { card, threeDSecureInfo } = await this.tokens.use(reference, use, context);
    return {
      card,
      savedCardId: null,
      source: { kind: 'token', tokenId: reference },
      threeDSecureInfo,
      savedFromToken: null,
    };
  }

  /** For charges and credits: details, a token, a saved card of `customerId`, or its default card. */
  async forPayment(
    reference: CardReference | undefined,
    customerId: string | null,
    use: TokenUse,
    context: CommandContext,
  ): Promise<ResolvedCard> {
    if (reference === undefined) {
      if (customerId === null) throw missingParameter('card', 'Give card, or customerId to charge its default card.');
      const customer = await this.liveCustomer(customerId, context);
      if (!customer.defaultCardId) throw new InvalidRequestError(`Customer '${customerId}' has no default card`);
      return this.savedCard(customer, customer.defaultCardId);
    }
    if (typeof reference === 'string' && isIdOf(cardResource, reference)) {
      if (customerId === null) throw missingParameter('customerId', 'A card id names a card of that customer.');
      return this.savedCard(await this.liveCustomer(customerId, context), reference);
    }
    // A one-off payment carries its own CVC; a charge's card saved to its customer is paid with again.
    return this.newCard(reference, use, context, 'card', use.kind === 'charge' && customerId !== null);
  }

  /**
   * For a request that took in card details (`newCard`, `forPayment`) and ends without an event
   * recording that card: erases the number it put into the vault. Tokens and saved cards are
   * recorded already and stay.
   */
  async discardUnrecorded(resolved: Pick<ResolvedCard, 'card' | 'source'>): Promise<void> {
    if (resolved.source?.kind === 'details') await this.intake.discard(resolved.card);
  }

  async liveCustomer(customerId: string, tenant: Tenant) {
    const { state } = await this.aggregates.load(customerDecider, customerStream(customerId), tenant);
    if (state.status === 'none')
      throw new InvalidRequestError(`Invalid parameter: customerId '${customerId}' does not exist`);
    if (state.status === 'deleted')
      throw new InvalidRequestError(`Invalid parameter: customer '${customerId}' has been deleted`);
    return state;
  }

  private savedCard(customer: Awaited<ReturnType<CardSources['liveCustomer']>>, cardId: string): ResolvedCard {
    const saved = customer.cards.find((candidate) => candidate.cardId === cardId && !candidate.deleted);
    if (!saved)
      throw new InvalidRequestError(
        `Invalid parameter: card '${cardId}' is not a card of customer '${customer.customerId}'`,
      );
    return {
      card: saved.card,
      savedCardId: saved.cardId,
      source: null,
      threeDSecureInfo: null,
      savedFromToken: saved.source.kind === 'token' ? saved.source.tokenId : null,
    };
  }
}
