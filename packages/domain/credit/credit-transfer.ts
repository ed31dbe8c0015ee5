import type { Decider, DomainEvent } from '../decider.ts';

/**
 * The intent of a credit's transfer of funds, recorded before the card network is asked (on its
 * own stream, `creditTransfer-<creditId>`): a credit request cut short by a crash after that point
 * may have sent the funds. Its retry finds the intent and asks the network what happened to the
 * transfer (by its reference, the credit id) before sending again.
 */
export type CreditTransferStarted = DomainEvent<
  'CreditTransferStarted',
  {
    creditId: string;
    /** The merchant's reference the network knows the transfer by. */
    networkReference: string;
    amount: number;
    currency: string;
    cardId: string;
  }
>;

export type CreditTransferEvent = CreditTransferStarted;

export const creditTransferEventTypes: ReadonlyArray<CreditTransferEvent['type']> = ['CreditTransferStarted'];

export const creditTransferStream = (creditId: string): string => `creditTransfer-${creditId}`;

export type CreditTransferCommand = { type: 'StartTransfer' } & CreditTransferStarted['data'];

export type CreditTransferState = { started: false } | { started: true; networkReference: string };

/** Starting twice records nothing the second time: the caller then reconciles with the network. */
export const creditTransferDecider: Decider<CreditTransferCommand, CreditTransferEvent, CreditTransferState> = {
  initialState: () => ({ started: false }),
  evolve: (_state, event) => ({ started: true, networkReference: event.data.networkReference }),
  decide(command, state) {
    if (state.started) return [];
    const { type: _type, ...data } = command;
    return [{ type: 'CreditTransferStarted', data }];
  },
};
