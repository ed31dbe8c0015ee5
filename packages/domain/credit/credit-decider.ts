import type { Decider } from '../decider.ts';
import { InvalidRequestError, NotFoundError } from '../errors.ts';
import { sameMetadata, type Metadata } from '../metadata.ts';
import type { CreditAttempt, CreditEvent, CreditFailure, CreditUpdated } from './credit-events.ts';
import { evolveCredit, initialCreditState, type CreditState } from './credit-state.ts';

export type CreditCommand =
  /** The network has answered already: `failure` null means the funds were sent. */
  | { type: 'RecordCredit'; attempt: CreditAttempt; failure: CreditFailure | null }
  /** A live credit whose processor's answer is unknown; looked up from `lookupDueAt` (ISO). */
  | { type: 'RecordPendingCredit'; attempt: CreditAttempt; lookupDueAt: string }
  /** What the lookup at the processors found for a pending credit. */
  | { type: 'SettleCredit'; creditId: string; failure: CreditFailure | null }
  | { type: 'UpdateCredit'; creditId: string; description?: string | null; metadata?: Metadata };

export const creditDecider: Decider<CreditCommand, CreditEvent, CreditState> = {
  initialState: initialCreditState,
  evolve: evolveCredit,
  decide(command, state) {
    switch (command.type) {
      case 'RecordCredit':
        if (state.status !== 'none')
          throw new InvalidRequestError(`Credit '${command.attempt.creditId}' already exists`);
        return command.failure
          ? [{ type: 'CreditFailed', data: { ...command.attempt, ...command.failure } }]
          : [{ type: 'CreditSucceeded', data: command.attempt }];
      case 'RecordPendingCredit':
        if (state.status !== 'none')
          throw new InvalidRequestError(`Credit '${command.attempt.creditId}' already exists`);
        return [{ type: 'CreditPending', data: { ...command.attempt, lookupDueAt: command.lookupDueAt } }];
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
