import type { Decider, DomainEvent } from '../decider.ts';

/**
 * The intent of a charge's card authorization, recorded before the card network is asked (on its
 * own stream, `chargeAuthorization-<chargeId>`): a charge request cut short by a crash after that
 * point may have been authorized by the network. Its retry finds the intent and asks the network
 * what happened to the authorization (by its reference, the charge id) before authorizing again.
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
  }
>;

export type ChargeAuthorizationEvent = ChargeAuthorizationStarted;

export const chargeAuthorizationEventTypes: ReadonlyArray<ChargeAuthorizationEvent['type']> = [
  'ChargeAuthorizationStarted',
];

export const chargeAuthorizationStream = (chargeId: string): string => `chargeAuthorization-${chargeId}`;

export type ChargeAuthorizationCommand = { type: 'StartAuthorization' } & ChargeAuthorizationStarted['data'];

export type ChargeAuthorizationState = { started: false } | { started: true; networkReference: string };

/** Starting twice records nothing the second time: the caller then reconciles with the network. */
export const chargeAuthorizationDecider: Decider<
  ChargeAuthorizationCommand,
  ChargeAuthorizationEvent,
  ChargeAuthorizationState
> = {
  initialState: () => ({ started: false }),
  evolve: (_state, event) => ({ started: true, networkReference: event.data.networkReference }),
  decide(command, state) {
    if (state.started) return [];
    const { type: _type, ...data } = command;
    return [{ type: 'ChargeAuthorizationStarted', data }];
  },
};
