import type { Decider, DomainEvent } from '../decider.ts';
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
  {
    chargeId: string;
    /** The merchant's reference the network knows the authorization by. */
    networkReference: string;
    amount: number;
    currency: string;
    cardId: string;
    /** Live mode: the charge as requested, recorded by the worker when the processor took or declined it. */
    attempt?: ChargeAttempt;
    /** Live mode: when the worker looks the reference up if no outcome is recorded by then (ISO). */
    lookupDueAt?: string;
    /**
     * Live mode: from when a lookup that finds the reference at none of the processors closes the
     * intent (ISO): the end of the longest idempotency window of the account's processors.
     */
    closableAt?: string;
  }
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

export type ChargeAuthorizationState =
  | { started: false }
  | {
      started: true;
      networkReference: string;
      /** Closed as not charged, and not started again since. */
      closed: boolean;
      attempt: ChargeAttempt | null;
      closableAt: string | null;
    };

/**
 * Starting twice records nothing the second time: the caller then reconciles with the network.
 * Starting a closed intent opens it again (nothing was taken: the retry authorizes afresh).
 * Noting and closing apply to an open intent only.
 */
export const chargeAuthorizationDecider: Decider<
  ChargeAuthorizationCommand,
  ChargeAuthorizationEvent,
  ChargeAuthorizationState
> = {
  initialState: () => ({ started: false }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'ChargeAuthorizationStarted':
        return {
          started: true,
          networkReference: event.data.networkReference,
          closed: false,
          attempt: event.data.attempt ?? null,
          closableAt: event.data.closableAt ?? null,
        };
      case 'ChargeAuthorizationNotFound':
        return state;
      case 'ChargeAuthorizationClosed':
        return state.started ? { ...state, closed: true } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'StartAuthorization': {
        if (state.started && !state.closed) return [];
        const { type: _type, ...data } = command;
        return [{ type: 'ChargeAuthorizationStarted', data }];
      }
      case 'NoteAuthorizationNotFound':
        if (!state.started || state.closed) return [];
        return [
          {
            type: 'ChargeAuthorizationNotFound',
            data: { chargeId: command.chargeId, nextLookupAt: command.nextLookupAt },
          },
        ];
      case 'CloseAuthorization':
        if (!state.started || state.closed) return [];
        return [{ type: 'ChargeAuthorizationClosed', data: { chargeId: command.chargeId } }];
    }
  },
};
