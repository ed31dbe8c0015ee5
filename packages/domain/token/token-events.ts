import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { CardSnapshot } from '../card/card-snapshot.ts';
import type { ThreeDSecureResult } from '../charge/charge-events.ts';
import type { DomainEvent } from '../decider.ts';
import { everyType } from '../event-types.ts';

export const tokenResource = resourceIdentity({ name: 'token', idPrefix: 'tok', stream: 'own' });

/** Stream of one token: `token-<tokenId>`. */
export const tokenStream = (tokenId: string): string => streamName(tokenResource, tokenId);

export type TokenCreated = DomainEvent<'TokenCreated', { tokenId: string; card: CardSnapshot; expiresAt: string }>;

/** What consumed the token: its one use (spec: Token states). */
export type TokenUse =
  | { kind: 'charge'; chargeId: string }
  | { kind: 'card'; customerId: string; cardId: string }
  | { kind: 'credit'; creditId: string };

export type TokenUsed = DomainEvent<'TokenUsed', { tokenId: string; use: TokenUse }>;

/** The token's card was saved to a customer (directly, or by a successful charge). */
export type TokenCardCreated = DomainEvent<'TokenCardCreated', { tokenId: string; customerId: string; cardId: string }>;

/**
 * A 3-D Secure verification of the token's card for an amount: the final result (frictionless,
 * not enrolled), or `liabilityShift: pending` with a challenge now open at the issuer.
 */
export type TokenThreeDSecureVerified = DomainEvent<
  'TokenThreeDSecureVerified',
  { tokenId: string; threeDSecureInfo: ThreeDSecureResult }
>;

/** The cardholder finished the issuer's challenge: authenticated (`successful`) or not (`failed`). */
export type TokenThreeDSecureChallengeCompleted = DomainEvent<
  'TokenThreeDSecureChallengeCompleted',
  { tokenId: string; liabilityShift: 'successful' | 'failed' }
>;

export type TokenEvent =
  TokenCreated | TokenUsed | TokenCardCreated | TokenThreeDSecureVerified | TokenThreeDSecureChallengeCompleted;

export const tokenEventTypes = everyType<TokenEvent>()([
  'TokenCreated',
  'TokenUsed',
  'TokenCardCreated',
  'TokenThreeDSecureVerified',
  'TokenThreeDSecureChallengeCompleted',
]);
