import type { CardSnapshot } from '../domain/card/card-snapshot.ts';
import type { ThreeDSecureResult } from '../domain/charge/charge-events.ts';
import { NotFoundError } from '../domain/errors.ts';
import { tokenDecider } from '../domain/token/token-decider.ts';
import { tokenResource, tokenStream, type TokenUse } from '../domain/token/token-events.ts';
import type { CardNetwork } from '../network/card-network.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CardDetailsInput, CardIntake } from './card-intake.ts';
import { createdObjectId, type CommandContext } from './command-context.ts';
import type { CommandOutcome } from './command-outcome.ts';

/**
 * Tokens: card data held for one use. Using a token is a command on its own stream, so that of
 * any number of concurrent uses exactly one wins (`docs/architecture.md`, "Optimistic concurrency").
 */
export class TokenCommands {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly intake: CardIntake,
    private readonly ttlSeconds: number,
    private readonly network: CardNetwork,
  ) {}

  async create(input: CardDetailsInput, context: CommandContext): Promise<CommandOutcome> {
    const now = context.now();
    // A token is paid with later, without its CVC: the processors keep the card now.
    const card = await this.intake.fromDetails(input, now, context);
    const tokenId = createdObjectId(tokenResource, context);
    const expiresAt = new Date(now.getTime() + this.ttlSeconds * 1000);
    try {
      const earlier = await this.aggregates.createdEarlier(tokenStream(tokenId), context);
      if (earlier !== undefined) {
        // An earlier run of this request made the token with the details it took in.
        await this.intake.discard(card);
        return { id: tokenId, position: earlier };
      }
      const result = await this.aggregates.execute(
        tokenDecider,
        tokenStream(tokenId),
        { type: 'CreateToken', tokenId, card, expiresAt },
        context,
      );
      return { id: tokenId, position: result.position };
    } catch (error) {
      // Erased unless the token was recorded with it after all (an error after a write that landed).
      const { state } = await this.aggregates.load(tokenDecider, tokenStream(tokenId), context);
      if (state.status === 'none' || state.card.vaultRef !== card.vaultRef) await this.intake.discard(card);
      throw error;
    }
  }

  /**
   * 3-D Secure for an amount: asks the directory server whether the card is enrolled, and records
   * the result on the token. Frictionless and not-enrolled cards get their final result at once; a
   * challenge card is left `pending` until the cardholder completes the issuer's challenge.
   */
  async verifyThreeDSecure(
    tokenId: string,
    payment: { amount: number; currency: string },
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const { state } = await this.aggregates.load(tokenDecider, tokenStream(tokenId), context);
    if (state.status === 'none') throw new NotFoundError('Token', tokenId);
    const number = await this.intake.revealNumber(state.card);
    const lookup = await this.network.lookupThreeDSecure({ mode: context.mode, number });
    const threeDSecureInfo: ThreeDSecureResult = {
      amount: payment.amount,
      currency: payment.currency,
      enrolled: lookup.enrolled,
      liabilityShift:
        lookup.authenticationFlow === 'challenge'
          ? 'pending'
          : lookup.authenticationFlow === 'frictionless'
            ? lookup.frictionlessAuthenticated
              ? 'successful'
              : 'failed'
            : 'not_possible',
      authenticationFlow: lookup.authenticationFlow,
      version: lookup.version,
    };
    const result = await this.aggregates.execute(
      tokenDecider,
      tokenStream(tokenId),
      { type: 'VerifyThreeDSecure', tokenId, threeDSecureInfo, now: context.now() },
      context,
    );
    return { id: tokenId, position: result.position };
  }

  /** The cardholder's answer to the issuer's challenge (the simulated access control server). */
  async completeThreeDSecureChallenge(
    tokenId: string,
    authenticated: boolean,
    context: CommandContext,
  ): Promise<CommandOutcome> {
    const result = await this.aggregates.execute(
      tokenDecider,
      tokenStream(tokenId),
      { type: 'CompleteThreeDSecureChallenge', tokenId, authenticated, now: context.now() },
      context,
    );
    return { id: tokenId, position: result.position };
  }

  /** The token's 3-D Secure result as recorded now (null: never verified); null for no such token. */
  async verification(
    tokenId: string,
    context: CommandContext,
  ): Promise<{ threeDSecureInfo: ThreeDSecureResult | null } | null> {
    const { state } = await this.aggregates.load(tokenDecider, tokenStream(tokenId), context);
    return state.status === 'none' ? null : { threeDSecureInfo: state.threeDSecureInfo };
  }

  /**
   * Consumes the token for one use and hands over its card, with its 3-D Secure result when it was
   * verified; fails if used, expired or unknown.
   */
  async use(
    tokenId: string,
    use: TokenUse,
    context: CommandContext,
  ): Promise<{ card: CardSnapshot; threeDSecureInfo: ThreeDSecureResult | null; position: number | null }> {
    const result = await this.aggregates.execute(
      tokenDecider,
      tokenStream(tokenId),
      { type: 'UseToken', tokenId, use, now: context.now() },
      context,
    );
    if (result.state.status === 'none') throw new Error('unreachable: a used token exists');
    return { card: result.state.card, threeDSecureInfo: result.state.threeDSecureInfo, position: result.position };
  }

  /** Records that the token's card was saved to a customer (the token then shows `card`). */
  async recordCard(
    tokenId: string,
    customerId: string,
    cardId: string,
    context: CommandContext,
  ): Promise<number | null> {
    const result = await this.aggregates.execute(
      tokenDecider,
      tokenStream(tokenId),
      { type: 'RecordTokenCard', tokenId, customerId, cardId },
      context,
    );
    return result.position;
  }
}
