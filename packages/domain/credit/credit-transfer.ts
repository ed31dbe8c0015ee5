import type { Decider, DomainEvent } from '../decider.ts';
import { networkIntentDecider, type NetworkIntentStart, type NetworkIntentState } from '../network-intent-decider.ts';
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
  { creditId: string } & NetworkIntentStart<CreditAttempt>
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

export type CreditTransferState = NetworkIntentState<CreditAttempt>;

/** The rule of every network intent (`networkIntentDecider`), with the credit's own commands and events. */
export const creditTransferDecider: Decider<CreditTransferCommand, CreditTransferEvent, CreditTransferState> =
  networkIntentDecider({
    idField: 'creditId',
    commands: { start: 'StartTransfer', noteNotFound: 'NoteTransferNotFound', close: 'CloseTransfer' },
    events: { started: 'CreditTransferStarted', notFound: 'CreditTransferNotFound', closed: 'CreditTransferClosed' },
  });
