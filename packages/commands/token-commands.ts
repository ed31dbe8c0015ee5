import type { CardSnapshot } from '../domain/card/card-snapshot.ts';
import { tokenDecider } from '../domain/token/token-decider.ts';
import { tokenStream, type TokenUse } from '../domain/token/token-events.ts';
import { newId } from '../ids/object-id.ts';
import type { AggregateStore } from './aggregate-store.ts';
import type { CardDetailsInput, CardIntake } from './card-intake.ts';
import type { CommandContext } from './command-context.ts';
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
  ) {}

  async create(input: CardDetailsInput, context: CommandContext): Promise<CommandOutcome> {
    const now = context.now();
    const card = await this.intake.fromDetails(input, now);
    const tokenId = newId('tok');
    const expiresAt = new Date(now.getTime() + this.ttlSeconds * 1000);
    const result = await this.aggregates.execute(
      tokenDecider,
      tokenStream(tokenId),
      { type: 'CreateToken', tokenId, card, expiresAt },
      context,
    );
    return { id: tokenId, position: result.position };
  }

  /** Consumes the token for one use and hands over its card; fails if used, expired or unknown. */
  async use(
    tokenId: string,
    use: TokenUse,
    context: CommandContext,
  ): Promise<{ card: CardSnapshot; position: number | null }> {
    const result = await this.aggregates.execute(
      tokenDecider,
      tokenStream(tokenId),
      { type: 'UseToken', tokenId, use, now: context.now() },
      context,
    );
    if (result.state.status === 'none') throw new Error('unreachable: a used token exists');
    return { card: result.state.card, position: result.position };
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
