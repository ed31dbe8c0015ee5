import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import { sameMetadata, type Metadata } from '../metadata.ts';
import {
  blockedByBlacklist,
  declinedByNetwork,
  type MatchingBlacklistRule,
  type NetworkDecline,
} from '../card/card-payment-failure.ts';
import type { CreditAttempt, CreditEvent, CreditFailure, CreditUpdated } from './credit-events.ts';
import { evolveCredit, initialCreditState, type CreditState } from './credit-state.ts';

/** The network's answer to a credit's transfer: `failure` null means the funds were sent. */
export interface TransferAnswer {
  /** Answers are told from `TransferUnknown` by this flag, which an answer may leave out. */
  answered?: true;
  failure: NetworkDecline | null;
}

/** Live mode: the processor may have sent the funds and its answer never came. */
export interface TransferUnknown {
  answered: false;
  /** When the credit is first looked up at the account's processors (ISO). */
  lookupDueAt: string;
}

/**
 * A new credit with everything its decision needs, fetched by the command handler: the credit
 * as requested, the blacklist rule its screening matched, and the network's answer to the
 * transfer (null when the network was not asked: the credit is blocked before).
 */
export interface CreateCreditCommand {
  type: 'CreateCredit';
  attempt: CreditAttempt;
  blacklistRule: MatchingBlacklistRule | null;
  transfer: TransferAnswer | TransferUnknown | null;
}

export type CreditCommand =
  | CreateCreditCommand
  /** What the lookup at the processors found for a pending credit. */
  | { type: 'SettleCredit'; creditId: string; failure: CreditFailure | null }
  | { type: 'UpdateCredit'; creditId: string; description?: string | null; metadata?: Metadata };

export const creditDecider: Decider<CreditCommand, CreditEvent, CreditState> = {
  initialState: initialCreditState,
  evolve: evolveCredit,
  decide(command, state) {
    switch (command.type) {
      case 'CreateCredit':
        if (state.status !== 'none')
          throw new InvalidRequestError(`Credit '${command.attempt.creditId}' already exists`);
        return decideNewCredit(command);
      case 'SettleCredit':
        if (state.status === 'none') throw new NotFoundError('Credit', command.creditId);
        // Settled already: nothing recorded.
        if (state.status !== 'pending') return [];
        return [{ type: 'CreditSettled', data: { creditId: command.creditId, failure: command.failure } }];
      case 'UpdateCredit': {
        if (state.status === 'none') throw new NotFoundError('Credit', command.creditId);
        const changes: CreditUpdated['data'] = { creditId: command.creditId };
        if (command.description !== undefined && command.description !== state.description)
          changes.description = command.description;
        if (command.metadata !== undefined && !sameMetadata(command.metadata, state.metadata))
          changes.metadata = command.metadata;
        // An update that changes nothing records nothing.
        return Object.keys(changes).length > 1 ? [{ type: 'CreditUpdated', data: changes }] : [];
      }
    }
  },
};

/**
 * Why a credit is refused before the network is asked: a matching blacklist rule; null when the
 * network is to decide.
 */
export function creditRefusal(blacklistRule: MatchingBlacklistRule | null) {
  return blacklistRule ? blockedByBlacklist(blacklistRule, 'credit') : null;
}

/**
 * A new credit: blocked by a blacklist rule, pending when the processor's answer is unknown
 * (looked up from then), else failed or successful as the network answered (final).
 */
function decideNewCredit({ attempt, blacklistRule, transfer }: CreateCreditCommand): CreditEvent[] {
  const refusal = creditRefusal(blacklistRule);
  if (refusal) return [{ type: 'CreditFailed', data: { ...attempt, ...refusal } }];
  if (transfer === null) throw new Error(`Credit '${attempt.creditId}' was neither blocked nor sent`);
  if (transfer.answered === false)
    return [{ type: 'CreditPending', data: { ...attempt, lookupDueAt: transfer.lookupDueAt } }];
  const declined = declinedByNetwork(transfer.failure);
  return declined
    ? [{ type: 'CreditFailed', data: { ...attempt, ...declined } }]
    : [{ type: 'CreditSucceeded', data: attempt }];
}
