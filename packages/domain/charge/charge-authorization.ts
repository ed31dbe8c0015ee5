import type { Decider, DomainEvent } from '../decider.ts';
import { networkIntentDecider, type NetworkIntentStart, type NetworkIntentState } from '../network-intent-decider.ts';
import type { ChargeAttempt } from './charge-events.ts';

/**
 * The intent of a charge's card authorization, recorded before the card network is asked (on its
 * own stream, `chargeAuthorization-<chargeId>`): a charge request cut short by a crash after that
 * point may have been authorized by the network. Its retry finds the intent and asks the network
 * what happened to the authorization (by its reference, the charge id) before authorizing again.
 * In live mode the intent also holds the whole charge as requested (`attempt`) and when the worker
 * first looks it up (`lookupDueAt`): a request nobody retries still ends in a recorded charge, or
 * in the intent closed as not charged (`docs/payments.md`, "Unanswered intents").
 */
export type ChargeAuthorizationStarted = DomainEvent<
  'ChargeAuthorizationStarted',
  { chargeId: string } & NetworkIntentStart<ChargeAttempt>
>;

/**
 * The worker's lookup found the reference at none of the account's processors while one may still
 * take it (within its idempotency window): it looks again at `nextLookupAt` (ISO).
 */
export type ChargeAuthorizationNotFound = DomainEvent<
  'ChargeAuthorizationNotFound',
  { chargeId: string; nextLookupAt: string }
>;

/**
 * Closed as not charged: past every processor's idempotency window none of them holds the
 * reference, so nothing was taken. A retry of the request starts the authorization again.
 */
export type ChargeAuthorizationClosed = DomainEvent<'ChargeAuthorizationClosed', { chargeId: string }>;

export type ChargeAuthorizationEvent =
  ChargeAuthorizationStarted | ChargeAuthorizationNotFound | ChargeAuthorizationClosed;

export const chargeAuthorizationEventTypes: ReadonlyArray<ChargeAuthorizationEvent['type']> = [
  'ChargeAuthorizationStarted',
  'ChargeAuthorizationNotFound',
  'ChargeAuthorizationClosed',
];

export const chargeAuthorizationStream = (chargeId: string): string => `chargeAuthorization-${chargeId}`;

export type ChargeAuthorizationCommand =
  | ({ type: 'StartAuthorization' } & ChargeAuthorizationStarted['data'])
  | { type: 'NoteAuthorizationNotFound'; chargeId: string; nextLookupAt: string }
  | { type: 'CloseAuthorization'; chargeId: string };

export type ChargeAuthorizationState = NetworkIntentState<ChargeAttempt>;

/** The rule of every network intent (`networkIntentDecider`), with the charge's own commands and events. */
export const chargeAuthorizationDecider: Decider<
  ChargeAuthorizationCommand,
  ChargeAuthorizationEvent,
  ChargeAuthorizationState
> = networkIntentDecider({
  idField: 'chargeId',
  commands: { start: 'StartAuthorization', noteNotFound: 'NoteAuthorizationNotFound', close: 'CloseAuthorization' },
  events: {
    started: 'ChargeAuthorizationStarted',
    notFound: 'ChargeAuthorizationNotFound',
    closed: 'ChargeAuthorizationClosed',
  },
});
