import { streamName } from '../resources.ts';
import type { CardSnapshot } from '../card/card-snapshot.ts';
import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';

/** Stream of one token: `token-<tokenId>`. */
export const tokenStream = (tokenId: string): string => streamName('token', tokenId);

export type TokenCreated = DomainEvent<'TokenCreated', { tokenId: string; card: CardSnapshot; expiresAt: string }>;

/** What consumed the token: its one use (spec: Token states). */
export type TokenUse =
  | { kind: 'charge'; chargeId: string }
  | { kind: 'card'; customerId: string; cardId: string }
  | { kind: 'credit'; creditId: string };

export type TokenUsed = DomainEvent<'TokenUsed', { tokenId: string; use: TokenUse }>;

/** The token's card was saved to a customer (directly, or by a successful charge). */
export type TokenCardCreated = DomainEvent<'TokenCardCreated', { tokenId: string; customerId: string; cardId: string }>;

export type TokenEvent = TokenCreated | TokenUsed | TokenCardCreated;

export const tokenEventTypes = everyType<TokenEvent>()(['TokenCreated', 'TokenUsed', 'TokenCardCreated']);
