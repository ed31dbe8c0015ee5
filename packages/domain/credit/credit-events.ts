import type { ThreeDSecureResult } from '../charge/charge-events.ts';
import { resourceIdentity, streamName } from '../resource-identity.ts';
import type { CardSnapshot } from '../card/card-snapshot.ts';
import type { CardSource } from '../customer/customer-events.ts';
import type { DomainEvent } from '../decider.ts';
import type { CardErrorCode } from '../errors.ts';
import type { Metadata } from '../metadata.ts';
import { everyType } from '../event-types.ts';

export const creditResource = resourceIdentity({ name: 'credit', idPrefix: 'cr', stream: 'own' });

/** Stream of one credit (a transfer of funds to a card): `credit-<creditId>`. */
export const creditStream = (creditId: string): string => streamName(creditResource, creditId);

/** Everything known when a credit is made, successful or not. */
export interface CreditAttempt {
  creditId: string;
  amount: number;
  currency: string;
  description: string | null;
  customerId: string | null;
  /** The saved card's id, or a new id for a card given as details or a token (it is not saved). */
  cardId: string;
  card: CardSnapshot;
  /** Where a new card came from (details or a token); null for a saved card of `customerId`. */
  cardSource: CardSource | null;
  metadata: Metadata;
  /** The 3-D Secure result of the token the card came from (verified for this amount); absent in older events. */
  threeDSecureInfo?: ThreeDSecureResult | null;
}

/** Why the network refused the credit; same names as a failed charge's fields (spec: Errors). */
export interface CreditFailure {
  failureCode: CardErrorCode;
  failureMessage: string;
  failureIssuerDeclineCode: string | null;
  /** The blacklist rule that blocked the credit; null when the network refused it (version 3). */
  blacklistRuleId: string | null;
}

export type CreditSucceeded = DomainEvent<'CreditSucceeded', CreditAttempt>;
export type CreditFailed = DomainEvent<'CreditFailed', CreditAttempt & CreditFailure>;
/**
 * A live credit whose processor's answer is unknown (a timeout, a lost answer, a 5xx): the
 * processor may have sent the funds. `pending` until a lookup at the processors, due from
 * `lookupDueAt` (ISO), settles it (`CreditSettled`).
 */
export type CreditPending = DomainEvent<'CreditPending', CreditAttempt & { lookupDueAt: string }>;
/** The lookup found what the processors did with a pending credit: sent (`failure` null), declined, or never received. */
export type CreditSettled = DomainEvent<'CreditSettled', { creditId: string; failure: CreditFailure | null }>;

/** Only the fields that changed are present. */
export type CreditUpdated = DomainEvent<
  'CreditUpdated',
  { creditId: string; description?: string | null; metadata?: Metadata }
>;

export type CreditEvent = CreditSucceeded | CreditFailed | CreditPending | CreditSettled | CreditUpdated;

export const creditEventTypes = everyType<CreditEvent>()([
  'CreditSucceeded',
  'CreditFailed',
  'CreditPending',
  'CreditSettled',
  'CreditUpdated',
]);
