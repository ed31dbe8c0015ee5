import type { Decider, DomainEvent } from '../decider.ts';
import type { CreditAttempt } from './credit-events.ts';

/**
 * The intent of a credit's transfer of funds, recorded before the card network is asked (on its
 * own stream, `creditTransfer-<creditId>`): a credit request cut short by a crash after that point
 * may have sent the funds. Its retry finds the intent and asks the network what happened to the
 * transfer (by its reference, the credit id) before sending again.
 * In live mode the intent also holds the whole credit as requested (`attempt`) and when the worker
 * first looks it up (`lookupDueAt`): a request nobody retries still ends in a recorded credit, or
 * in the intent closed as not sent (`docs/payments.md`, "Unanswered intents").
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
    /** Live mode: the credit as requested, recorded by the worker when the processor sent or declined it. */
    attempt?: CreditAttempt;
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
export type CreditTransferNotFound = DomainEvent<'CreditTransferNotFound', { creditId: string; nextLookupAt: string }>;

/**
 * Closed as not sent: past every processor's idempotency window none of them holds the
 * reference, so nothing was sent. A retry of the request starts the transfer again.
 */
export type CreditTransferClosed = DomainEvent<'CreditTransferClosed', { creditId: string }>;

export type CreditTransferEvent = CreditTransferStarted | CreditTransferNotFound | CreditTransferClosed;

export const creditTransferEventTypes: ReadonlyArray<CreditTransferEvent['type']> = [
  'CreditTransferStarted',
  'CreditTransferNotFound',
  'CreditTransferClosed',
];

export const creditTransferStream = (creditId: string): string => `creditTransfer-${creditId}`;

export type CreditTransferCommand =
  | ({ type: 'StartTransfer' } & CreditTransferStarted['data'])
  | { type: 'NoteTransferNotFound'; creditId: string; nextLookupAt: string }
  | { type: 'CloseTransfer'; creditId: string };

export type CreditTransferState =
  | { started: false }
  | {
      started: true;
      networkReference: string;
      /** Closed as not sent, and not started again since. */
      closed: boolean;
      attempt: CreditAttempt | null;
      closableAt: string | null;
    };

/**
 * Starting twice records nothing the second time: the caller then reconciles with the network.
 * Starting a closed intent opens it again (nothing was sent: the retry sends afresh).
 * Noting and closing apply to an open intent only.
 */
export const creditTransferDecider: Decider<CreditTransferCommand, CreditTransferEvent, CreditTransferState> = {
  initialState: () => ({ started: false }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'CreditTransferStarted':
        return {
          started: true,
          networkReference: event.data.networkReference,
          closed: false,
          attempt: event.data.attempt ?? null,
          closableAt: event.data.closableAt ?? null,
        };
      case 'CreditTransferNotFound':
        return state;
      case 'CreditTransferClosed':
        return state.started ? { ...state, closed: true } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'StartTransfer': {
        if (state.started && !state.closed) return [];
        const { type: _type, ...data } = command;
        return [{ type: 'CreditTransferStarted', data }];
      }
      case 'NoteTransferNotFound':
        if (!state.started || state.closed) return [];
        return [
          {
            type: 'CreditTransferNotFound',
            data: { creditId: command.creditId, nextLookupAt: command.nextLookupAt },
          },
        ];
      case 'CloseTransfer':
        if (!state.started || state.closed) return [];
        return [{ type: 'CreditTransferClosed', data: { creditId: command.creditId } }];
    }
  },
};
